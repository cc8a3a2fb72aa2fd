import type { Logger } from '@gw/platform';
import type { KubeApi, KubeObject } from '../kube/kube-api.js';
import type { ManagementClient } from '../management/management-client.js';
import type { EventRecorder } from '../runtime/events.js';
import type { StatusWriter } from '../runtime/status-writer.js';
import type { Timers } from '../runtime/timers.js';

/** How a reconciler reaches one Gateway's admin API; null while the gateway or the operator's key is not there yet. */
export interface GatewayClients {
  forGateway(gateway: KubeObject): Promise<ManagementClient | null>;
}

/** Everything reconcilers share, built once in main.ts (composition root). */
export interface ReconcilerDeps {
  api: KubeApi;
  timers: Timers;
  logger: Logger;
  events: EventRecorder;
  status: StatusWriter;
  clients: GatewayClients;
}

export const finalizer = 'gw.dev/cleanup';
export const fieldManager = 'gw-operator';

/** One key of a Secret with the Secret's resourceVersion (which changes whenever the Secret is rotated). */
export interface SecretValue {
  value: string;
  resourceVersion: string;
}

/** Reads one key of a Secret in the object's namespace; null when the Secret or the key is missing. */
export async function readSecret(
  api: KubeApi,
  namespace: string | undefined,
  ref: { name: string; key: string },
): Promise<SecretValue | null> {
  const secret = await api.get({
    apiVersion: 'v1',
    kind: 'Secret',
    name: ref.name,
    ...(namespace === undefined ? {} : { namespace }),
  });
  const encoded = (secret?.data as Record<string, string> | undefined)?.[ref.key];
  return encoded === undefined
    ? null
    : {
        value: Buffer.from(encoded, 'base64').toString('utf8'),
        resourceVersion: secret?.metadata.resourceVersion ?? '',
      };
}

export async function readSecretValue(
  api: KubeApi,
  namespace: string | undefined,
  ref: { name: string; key: string },
): Promise<string | null> {
  return (await readSecret(api, namespace, ref))?.value ?? null;
}
