import type { GatewayConfig } from '../config.js';
import { EndpointControlClient } from './endpoint-control.client.js';
import { EndpointOrgBinder } from './endpoint-org.js';

/** The endpoint evidence service as the admin plane reaches it; null when `GW_ENDPOINT_CONTROL_URL` is unset. */
export interface EndpointDeps {
  client: EndpointControlClient;
  orgs: EndpointOrgBinder;
}

export function composeEndpoint(config: Pick<GatewayConfig, 'GW_ENDPOINT_CONTROL_URL' | 'GW_ENDPOINT_CONTROL_ADMIN_TOKEN' | 'GW_ADMIN_TOKEN'>, fetchImpl?: typeof fetch): EndpointDeps | null {
  if (!config.GW_ENDPOINT_CONTROL_URL) return null;
  // spec 001 §4.2: the service's admin bearer falls back to GW_ADMIN_TOKEN, as the operator deploys both.
  const client = new EndpointControlClient({ baseUrl: config.GW_ENDPOINT_CONTROL_URL, adminToken: config.GW_ENDPOINT_CONTROL_ADMIN_TOKEN ?? config.GW_ADMIN_TOKEN, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  return { client, orgs: new EndpointOrgBinder(client) };
}
