import { describe, expect, it } from 'vitest';
import { FakeKubeApi } from '../../test/support/fake-kube-api.js';
import { KubeApiError, type KubeObject } from '../kube/kube-api.js';
import { Informer } from './informer.js';
import { FakeTimers } from '../../test/support/fake-timers.js';
import { silentLogger } from '../../test/support/reconciler-fixture.js';

const logger = silentLogger;

function secret(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'ns' } };
}

function setup() {
  const api = new FakeKubeApi();
  const timers = new FakeTimers();
  const events: string[] = [];
  const informer = new Informer({
    api,
    timers,
    logger,
    apiVersion: 'v1',
    kind: 'Secret',
    backoff: { baseDelayMs: 1_000, maxDelayMs: 8_000 },
    onChange: (event, object) => events.push(`${event} ${object.metadata.name}`),
  });
  return { api, timers, events, informer };
}

describe('Informer', () => {
  it('lists, then follows the watch', async () => {
    const { api, events, informer } = setup();
    await api.create(secret('a'));
    await informer.start();
    expect(informer.synced).toBe(true);
    await api.create(secret('b'));
    await api.delete({ apiVersion: 'v1', kind: 'Secret', namespace: 'ns', name: 'a' });
    expect(events).toEqual(['upsert a', 'upsert b', 'delete a']);
    expect(informer.list().map((object) => object.metadata.name)).toEqual(['b']);
  });

  it('restarts after a watch error with backoff and relists, reporting deletions it missed', async () => {
    const { api, timers, events, informer } = setup();
    await api.create(secret('a'));
    await informer.start();
    api.breakWatches(new KubeApiError(500, 'InternalError', 'etcd leader changed'));
    await api.delete({ apiVersion: 'v1', kind: 'Secret', namespace: 'ns', name: 'a' }); // missed: no watch
    await api.create(secret('c'));
    expect(api.watcherCount()).toBe(0);
    await timers.advance(999);
    expect(api.watcherCount()).toBe(0);
    await timers.advance(1);
    await api.untilWatching(1);
    expect(events).toEqual(['upsert a', 'upsert c', 'delete a']);
    expect(informer.restarts).toBe(1);
  });

  it('relists at once on 410 Gone and re-watches at once after a normal close', async () => {
    const { api, informer } = setup();
    await informer.start();
    api.breakWatches(new KubeApiError(410, 'Expired', 'too old resource version'));
    await api.untilWatching(1); // no timer is advanced: the relist and re-watch happen at once
    expect(api.reads).toEqual(['LIST Secret *', 'WATCH Secret *', 'LIST Secret *', 'WATCH Secret *']);
    api.breakWatches(undefined);
    await api.untilWatching(1);
    expect(api.reads.slice(4)).toEqual(['WATCH Secret *']); // a normal close resumes the watch without a relist
    expect(informer.restarts).toBe(0);
  });

  it('backs off longer on each consecutive failure', async () => {
    const { api, timers, informer } = setup();
    await informer.start();
    const original = api.list.bind(api);
    api.list = () => Promise.reject(new KubeApiError(503, 'ServiceUnavailable', 'down'));
    api.breakWatches(new KubeApiError(500, 'InternalError', 'boom'));
    await timers.advance(1_000); // relist fails -> next retry in 2s
    await timers.advance(1_999);
    expect(informer.restarts).toBe(2);
    api.list = original;
    await timers.advance(1);
    await api.untilWatching(1);
    expect(informer.synced).toBe(true);
  });
});
