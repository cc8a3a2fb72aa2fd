import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpKubeApi } from '../src/kube/http-kube-api.js';
import { LeaderElector } from '../src/runtime/leader-election.js';
import { FakeTimers } from './support/fake-timers.js';
import { startKubeTestServer, type KubeTestServer } from './kube/kube-test-server.js';
import { silentLogger } from './support/reconciler-fixture.js';

const logger = silentLogger;

describe('Lease leader election against the test API server', () => {
  let server: KubeTestServer;
  beforeAll(async () => {
    server = await startKubeTestServer();
  }, 15 * 60_000);
  afterAll(async () => server?.stop());

  function replica(identity: string, timers: FakeTimers, lease: string) {
    const transitions: string[] = [];
    const elector = new LeaderElector({
      api: new HttpKubeApi(server.kubeConfig),
      timers,
      logger,
      namespace: 'gw-system',
      name: lease,
      identity,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      onStartedLeading: () => transitions.push('started'),
      onStoppedLeading: () => transitions.push('stopped'),
    });
    return { elector, transitions };
  }

  it('lets exactly one of two replicas lead when both try at once', async () => {
    const timers = new FakeTimers();
    const [a, b] = [replica('a', timers, 'race'), replica('b', timers, 'race')];
    const results = await Promise.all([a.elector.step(), b.elector.step()]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await Promise.all([a.elector.step(), b.elector.step()])).toEqual(results);
  });

  it('hands the Lease to the standby once the leader stops renewing, and the old leader steps down', async () => {
    const timers = new FakeTimers();
    const [a, b] = [replica('a', timers, 'takeover'), replica('b', timers, 'takeover')];
    expect(await a.elector.step()).toBe(true);
    expect(await b.elector.step()).toBe(false);
    await timers.advance(10_000);
    expect(await b.elector.step()).toBe(false); // a renewed 10 s ago as far as b has seen: not expired
    await timers.advance(5_000);
    expect(await b.elector.step()).toBe(true); // a went silent for a whole lease duration
    expect(await a.elector.step()).toBe(false); // a's renew deadline passed and b holds the Lease
    expect(a.transitions).toEqual(['started', 'stopped']);
    expect(b.transitions).toEqual(['started']);
  });

  it('releases the Lease on graceful shutdown so the standby leads at once', async () => {
    const timers = new FakeTimers();
    const [a, b] = [replica('a', timers, 'release'), replica('b', timers, 'release')];
    await a.elector.step();
    await b.elector.step();
    await a.elector.stop();
    await timers.advance(1_000);
    expect(await b.elector.step()).toBe(true);
  });
});
