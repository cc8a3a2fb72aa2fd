import { describe, expect, it } from 'vitest';
import { FakeKubeApi } from '../test/support/fake-kube-api.js';
import { FakeManagementClient } from '../test/support/fake-management-client.js';
import { FakeTimers } from '../test/support/fake-timers.js';
import { silentLogger } from '../test/support/reconciler-fixture.js';
import { Operator } from './operator.js';
import { OperatorMetrics } from './runtime/metrics.js';

// The gateway controller and the five policy controllers react to eight kinds between them; with informers shared
// per kind and namespace that is eight watches per namespace (it was sixteen with one informer per controller).
const watchedKinds = [
  'DesktopPolicy',
  'Deployment',
  'Gateway',
  'ProviderKey',
  'RoutingConfig',
  'Secret',
  'ServiceKey',
  'UserCap',
];

function operatorOn(api: FakeKubeApi, namespaces: string[]): Operator {
  const gateway = new FakeManagementClient();
  return new Operator({
    api,
    timers: new FakeTimers(),
    logger: silentLogger,
    metrics: new OperatorMetrics(),
    namespaces,
    resyncMs: 60_000,
    leaderElection: null,
    clientFactory: () => gateway,
  });
}

describe('Operator watches', () => {
  it('opens one watch per kind and namespace for all its controllers', async () => {
    const api = new FakeKubeApi();
    const operator = operatorOn(api, ['team-a', 'team-b']);
    await operator.start();

    const expected = ['team-a', 'team-b']
      .flatMap((namespace) => watchedKinds.map((kind) => `${kind} ${namespace}`))
      .sort();
    expect(api.openWatches()).toEqual(expected);
    expect(api.reads.filter((read) => read.startsWith('WATCH'))).toHaveLength(16);
    expect(api.reads.filter((read) => read.startsWith('LIST'))).toHaveLength(16);

    await operator.stop();
    expect(api.openWatches()).toEqual([]);
  });

  it('watches every namespace with one watch per kind when no namespace is configured', async () => {
    const api = new FakeKubeApi();
    const operator = operatorOn(api, []);
    await operator.start();
    expect(api.openWatches()).toEqual(watchedKinds.map((kind) => `${kind} *`).sort());
    await operator.stop();
  });
});
