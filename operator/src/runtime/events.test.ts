import { describe, expect, it } from 'vitest';
import { FakeKubeApi } from '../../test/support/fake-kube-api.js';
import { EventRecorder } from './events.js';
import { FakeTimers } from '../../test/support/fake-timers.js';

describe('EventRecorder', () => {
  it('records a Warning about an object and counts repeats on the same Event', async () => {
    const api = new FakeKubeApi();
    const timers = new FakeTimers();
    const recorder = new EventRecorder(api, timers);
    const providerKey = {
      apiVersion: 'gw.dev/v1alpha1',
      kind: 'ProviderKey',
      metadata: { name: 'openai', namespace: 'ns', uid: 'u1' },
    };
    await recorder.record(providerKey, 'Warning', 'ApplyFailed', 'gateway unreachable');
    await timers.advance(1_000);
    await recorder.record(providerKey, 'Warning', 'ApplyFailed', 'gateway unreachable');
    await recorder.record(providerKey, 'Normal', 'DriftCorrected', 'provider key re-applied');
    const { items } = await api.list('v1', 'Event', 'ns');
    expect(items).toHaveLength(2);
    const warning = items.find((event) => event.reason === 'ApplyFailed')!;
    expect(warning).toMatchObject({
      type: 'Warning',
      count: 2,
      involvedObject: { kind: 'ProviderKey', name: 'openai', uid: 'u1' },
      source: { component: 'gw-operator' },
    });
    expect(warning.lastTimestamp).not.toBe(warning.firstTimestamp);
  });
});
