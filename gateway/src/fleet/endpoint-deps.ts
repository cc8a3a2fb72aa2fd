import type { Clock, Db, Keyring } from '@gw/platform';
import type { GatewayConfig } from '../config.js';
import { EndpointControlClient } from './endpoint-control.client.js';
import { EndpointOrgBinder } from './endpoint-org.js';
import { EnrollSecretVault } from './enroll-secret-vault.js';

/** The endpoint evidence service as the admin plane reaches it; null when `GW_ENDPOINT_CONTROL_URL` is unset. */
export interface EndpointDeps {
  client: EndpointControlClient;
  orgs: EndpointOrgBinder;
  enrollSecrets: EnrollSecretVault;
  /** Where agents reach the `/api/*` agent lane; null: the gateway's own origin, where the edge routes it. */
  agentUrl: string | null;
}

export interface EndpointStores {
  db: Db;
  keyring: Keyring;
  clock: Clock;
}

export function composeEndpoint(
  config: Pick<
    GatewayConfig,
    'GW_ENDPOINT_CONTROL_URL' | 'GW_ENDPOINT_CONTROL_ADMIN_TOKEN' | 'GW_ADMIN_TOKEN' | 'GW_ENDPOINT_AGENT_URL'
  >,
  stores: EndpointStores,
  fetchImpl?: typeof fetch,
): EndpointDeps | null {
  if (!config.GW_ENDPOINT_CONTROL_URL) return null;
  // The service's admin bearer falls back to GW_ADMIN_TOKEN, as the operator deploys both.
  const client = new EndpointControlClient({
    baseUrl: config.GW_ENDPOINT_CONTROL_URL,
    adminToken: config.GW_ENDPOINT_CONTROL_ADMIN_TOKEN ?? config.GW_ADMIN_TOKEN,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  return {
    client,
    orgs: new EndpointOrgBinder(client),
    enrollSecrets: new EnrollSecretVault(stores.db, stores.keyring, stores.clock),
    agentUrl: config.GW_ENDPOINT_AGENT_URL ?? null,
  };
}
