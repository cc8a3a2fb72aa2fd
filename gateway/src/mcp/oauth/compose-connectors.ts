import type { Clock, Coord, Db, Keyring } from '@gw/platform';
import type { DesktopPolicyStore } from '../../policies/desktop-policy.store.js';
import { ConnectorAuthorizer } from './connector-authorizer.js';
import { McpGrantStore } from './mcp-grant.store.js';
import { McpOAuthFlows } from './mcp-oauth-flows.js';
import { ConnectorOAuthClient } from './oauth-client.js';

export interface McpConnectors {
  authorizer: ConnectorAuthorizer;
  grants: McpGrantStore;
}

/** The organization hub's connector authorizations: grants sealed under the keystore key, flows in Coord. */
export function composeConnectors(input: {
  db: Db;
  coord: Coord;
  keyring: Keyring;
  clock: Clock;
  policy: DesktopPolicyStore;
  allowPrivate: boolean;
  publicUrl: string | undefined;
}): McpConnectors {
  const outbound = { allowPrivate: input.allowPrivate };
  const grants = new McpGrantStore(input.db, input.keyring, input.clock);
  const authorizer = new ConnectorAuthorizer({
    policy: input.policy,
    flows: new McpOAuthFlows(input.coord, input.keyring),
    grants,
    client: new ConnectorOAuthClient(outbound),
    outbound,
    clock: input.clock,
    publicUrl: input.publicUrl ?? null,
  });
  return { authorizer, grants };
}
