import { createLogger } from '@gw/platform';
import { Writable } from 'node:stream';
import { FakeKubeApi } from './fake-kube-api.js';
import type { KubeObject } from '../../src/kube/kube-api.js';
import { FakeManagementClient } from './fake-management-client.js';
import { EventRecorder } from '../../src/runtime/events.js';
import { StatusWriter } from '../../src/runtime/status-writer.js';
import { FakeTimers } from './fake-timers.js';
import type { ReconcilerDeps } from '../../src/reconcilers/context.js';

type FixtureObject = KubeObject & {
  status?: {
    keyId?: string;
    secretVersion?: string;
    conditions?: { type: string; status: string; reason: string; message: string }[];
  };
};

export const silentLogger = createLogger({
  name: 'test',
  level: 'silent',
  destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});

/** Reconciler deps on fakes: an in-memory API server, an in-memory gateway admin plane, hand-driven time. */
export function reconcilerFixture() {
  const api = new FakeKubeApi();
  const timers = new FakeTimers();
  const gatewayApi = new FakeManagementClient();
  let gatewayReady = true;
  const deps: ReconcilerDeps = {
    api,
    timers,
    logger: silentLogger,
    events: new EventRecorder(api, timers),
    status: new StatusWriter(api, timers),
    clients: { forGateway: async () => (gatewayReady ? gatewayApi : null) },
  };
  const namespace = 'team';
  const fixture = {
    api,
    timers,
    gatewayApi,
    deps,
    namespace,
    setGatewayReady: (ready: boolean) => {
      gatewayReady = ready;
    },
    createGateway: async (name = 'gw') => {
      return api.create({
        apiVersion: 'gw.dev/v1alpha1',
        kind: 'Gateway',
        metadata: { name, namespace },
        spec: {
          image: { repository: 'gw' },
          version: '1',
          publicUrl: 'https://gw.example.com',
          database: { urlSecretRef: { name: 'db', key: 'url' } },
        },
      });
    },
    putSecret: async (name: string, data: Record<string, string>) => {
      const encoded = Object.fromEntries(
        Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
      );
      const existing = await api.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
      if (existing) return api.replace({ ...existing, data: encoded });
      return api.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, data: encoded });
    },
    create: async (kind: string, name: string, spec: Record<string, unknown>) => {
      return (await api.create({ apiVersion: 'gw.dev/v1alpha1', kind, metadata: { name, namespace }, spec }))!;
    },
    get: async (kind: string, name: string): Promise<FixtureObject | null> =>
      api.get({ apiVersion: 'gw.dev/v1alpha1', kind, namespace, name }),
    condition: async (kind: string, name: string, type = 'Ready') => {
      return (await fixture.get(kind, name))?.status?.conditions?.find((condition) => condition.type === type);
    },
    events: async () => {
      return (await api.list('v1', 'Event', namespace)).items.map(
        (event) => `${event.type as string} ${event.reason as string}`,
      );
    },
  };
  return fixture;
}
