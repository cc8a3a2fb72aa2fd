import type { Condition } from '@gw/contracts';
import { describe, expect, it } from 'vitest';
import { FakeKubeApi } from '../../test/support/fake-kube-api.js';
import type { KubeObject } from '../kube/kube-api.js';
import { conditionOf } from './conditions.js';
import { StatusWriter } from './status-writer.js';
import { FakeTimers } from '../../test/support/fake-timers.js';

async function setup() {
  const api = new FakeKubeApi();
  const timers = new FakeTimers();
  const created = (await api.create({
    apiVersion: 'gw.dev/v1alpha1',
    kind: 'UserCap',
    metadata: { name: 'alice', namespace: 'ns' },
    spec: { user: 'alice' },
  }))!;
  const reload = async () =>
    (await api.get({
      apiVersion: 'gw.dev/v1alpha1',
      kind: 'UserCap',
      namespace: 'ns',
      name: 'alice',
    })) as KubeObject & { status: { observedGeneration: number; conditions: Condition[] } };
  return { api, timers, writer: new StatusWriter(api, timers), created, reload };
}

describe('StatusWriter', () => {
  it('writes kstatus conditions with observedGeneration', async () => {
    const { writer, created, reload } = await setup();
    await writer.write(created, { outcome: { kind: 'ready', message: 'Applied' } });
    const { status } = await reload();
    expect(status.observedGeneration).toBe(1);
    expect(status.conditions.map((condition) => `${condition.type}=${condition.status}`)).toEqual([
      'Ready=True',
      'Synced=True',
      'Reconciling=False',
      'Stalled=False',
    ]);
  });

  it('skips the write when nothing changed, even later in time', async () => {
    const { api, writer, timers, created, reload } = await setup();
    await writer.write(created, { outcome: { kind: 'ready', message: 'Applied' } });
    await timers.advance(60_000);
    expect(await writer.write(await reload(), { outcome: { kind: 'ready', message: 'Applied' } })).toBe(false);
    expect(api.writes.filter((write) => write.startsWith('PATCHSTATUS'))).toHaveLength(1);
  });

  it('moves lastTransitionTime only when a condition flips', async () => {
    const { writer, timers, created, reload } = await setup();
    await writer.write(created, { outcome: { kind: 'retrying', reason: 'GatewayUnavailable', message: 'down' } });
    const first = conditionOf((await reload()).status.conditions, 'Ready')!;
    await timers.advance(5_000);
    await writer.write(await reload(), {
      outcome: { kind: 'stalled', reason: 'Conflict', message: 'usercap/bob owns alice' },
    });
    const after = (await reload()).status.conditions;
    expect(conditionOf(after, 'Ready')!.lastTransitionTime).toBe(first.lastTransitionTime);
    expect(conditionOf(after, 'Ready')!.reason).toBe('Conflict');
    expect(conditionOf(after, 'Stalled')!.lastTransitionTime).not.toBe(first.lastTransitionTime);
  });
});
