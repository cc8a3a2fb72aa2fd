import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpKubeApi } from '../src/kube/http-kube-api.js';
import { KubeApiError, type KubeObject } from '../src/kube/kube-api.js';
import { installGwCrds } from './kube/gw-crds.js';
import { startKubeTestServer, type KubeTestServer } from './kube/kube-test-server.js';

const namespace = 'kube-api';

describe('HttpKubeApi against the test API server', () => {
  let server: KubeTestServer;
  let api: HttpKubeApi;
  beforeAll(async () => {
    server = await startKubeTestServer();
    await installGwCrds(server.kubeConfig);
    api = new HttpKubeApi(server.kubeConfig);
  }, 15 * 60_000);
  afterAll(async () => server?.stop());

  const secret = (name: string, value: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace },
    data: { token: Buffer.from(value).toString('base64') },
  });

  it('creates once and never overwrites', async () => {
    expect(await api.create(secret('once', 'first'))).not.toBeNull();
    expect(await api.create(secret('once', 'second'))).toBeNull();
    const stored = await api.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: 'once' });
    expect(stored?.data).toEqual({ token: Buffer.from('first').toString('base64') });
    expect(await api.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: 'absent' })).toBeNull();
  });

  it('server-side applies, and merge-patches with a resourceVersion as a compare-and-swap', async () => {
    const applied = await api.apply(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace },
        spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'i' }] } } },
      },
      'gw-operator',
    );
    const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace, name: 'web' };
    await api.mergePatch(ref, {
      metadata: { resourceVersion: applied.metadata.resourceVersion, annotations: { a: '1' } },
    });
    await expect(
      api.mergePatch(ref, { metadata: { resourceVersion: applied.metadata.resourceVersion, annotations: { a: '2' } } }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('writes status through the status subresource only', async () => {
    const created = await api.create({
      apiVersion: 'gw.dev/v1alpha1',
      kind: 'UserCap',
      metadata: { name: 'alice', namespace },
      spec: { gatewayRef: { name: 'gw' }, user: 'alice@example.com', monthlyTokens: 10 },
    });
    expect(created?.metadata.generation).toBe(1);
    const ref = { apiVersion: 'gw.dev/v1alpha1', kind: 'UserCap', namespace, name: 'alice' };
    const patched = await api.patchStatus(ref, { observedGeneration: 1 });
    expect(patched.status).toEqual({ observedGeneration: 1 });
    expect(patched.metadata.generation).toBe(1);
  });

  it('lists with a resourceVersion and watches from it', async () => {
    const listed = await api.list('v1', 'Secret', namespace);
    expect(listed.items.every((item) => item.kind === 'Secret' && item.apiVersion === 'v1')).toBe(true);
    const events: string[] = [];
    // Settles on the watch's second event, or with what it saw if the watch ends first.
    const { promise: twoEvents, resolve } = Promise.withResolvers<string[]>();
    const stop = await api.watch('v1', 'Secret', namespace, listed.resourceVersion, {
      onEvent: (type, object) => {
        events.push(`${type} ${object.kind} ${object.metadata.name}`);
        if (events.length === 2) resolve(events);
      },
      onDone: () => resolve(events),
    });
    await api.create(secret('watched', 'x'));
    await api.delete({ apiVersion: 'v1', kind: 'Secret', namespace, name: 'watched' });
    expect(await twoEvents).toEqual(['ADDED Secret watched', 'DELETED Secret watched']);
    stop();
  });

  it('reports a watch from an unknown resourceVersion as an error to the caller', async () => {
    const done = new Promise<KubeApiError | undefined>((resolve) => {
      void api.watch('v1', 'Secret', namespace, 'not-a-version', { onEvent: () => undefined, onDone: resolve });
    });
    expect(await done).toBeInstanceOf(KubeApiError);
  });
});
