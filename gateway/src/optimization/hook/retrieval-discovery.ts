import type { RetrievalDiscovery } from '@gw/contracts';
import type { LeaseStanding } from '../retrieval/lease.store.js';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `https://gw.example.com/prefix/mcp/` and `https://GW.example.com/prefix/mcp` are the same endpoint. */
function normalised(url: string): string | null {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host.toLowerCase()}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/** The connector URLs a body names: Messages `mcp_servers[].url`, Responses `tools[]` of `type: mcp` by `server_url`. */
function connectorUrls(body: Json): string[] {
  const urls: string[] = [];
  if (Array.isArray(body.mcp_servers))
    for (const server of body.mcp_servers)
      if (isRecord(server) && typeof server.url === 'string') urls.push(server.url);
  if (Array.isArray(body.tools))
    for (const tool of body.tools)
      if (isRecord(tool) && tool.type === 'mcp' && typeof tool.server_url === 'string') urls.push(tool.server_url);
  return urls;
}

/**
 * Whether the request carries a hosted tool connector aimed at the gateway's own `/mcp` (where `gw_retrieve` is
 * served): the provider then calls retrieval itself, so the turn declares retrieval directly. `gatewayOrigins` are
 * the origins (with any path prefix) the gateway is reached at: its configured public URL and the one this request
 * came in on. The organization hub (`/mcp/org`) serves no retrieval and does not count.
 */
export function carriesGatewayConnector(body: Json, gatewayOrigins: readonly string[]): boolean {
  const endpoints = new Set(
    gatewayOrigins
      .map((origin) => normalised(`${origin.replace(/\/+$/, '')}/mcp`))
      .filter((url): url is string => url !== null),
  );
  return connectorUrls(body).some((url) => {
    const candidate = normalised(url);
    return candidate !== null && endpoints.has(candidate);
  });
}

/**
 * The gateway's verdict on the caller's retrieval, sent to the optimizer as `capabilities.retrievalDiscovery`
 * (`docs/adr/0021-fresh-reversible-trimming.md`): a connector to the gateway's `/mcp` in the request wins, then the
 * key's retrieval lease (renewed by `/mcp` traffic, `/connect/mcp-heartbeat` and model retrieves; a connected
 * session holds it from its first request because the connect tool server sends a heartbeat at start).
 */
export function retrievalDiscoveryOf(input: { connector: boolean; lease: LeaseStanding }): RetrievalDiscovery {
  if (input.connector) return 'connector';
  if (input.lease === 'live') return 'lease_live';
  return input.lease === 'lapsed' ? 'lease_lapsed' : 'none';
}
