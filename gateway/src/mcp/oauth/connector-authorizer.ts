import { createHash } from 'node:crypto';
import type { Clock } from '@gw/platform';
import { gatewayError } from '../../errors.js';
import type { DesktopPolicyStore } from '../../policies/desktop-policy.store.js';
import { remoteServersOf, type RemoteServer } from '../hub/remote-servers.js';
import type { GrantOwner, McpGrantStore } from './mcp-grant.store.js';
import type { McpOAuthFlows } from './mcp-oauth-flows.js';
import { pkcePair, type ConnectorOAuthClient } from './oauth-client.js';
import { discoverAuthorization, type OutboundOptions } from './oauth-discovery.js';

export const callbackPath = '/connect/mcp-oauth/callback';

export interface ConnectorAuthorizerDeps {
  policy: DesktopPolicyStore;
  flows: McpOAuthFlows;
  grants: McpGrantStore;
  client: ConnectorOAuthClient;
  outbound: OutboundOptions;
  clock: Clock;
  /** `GW_PUBLIC_URL`: the callback the authorization server redirects to; else the origin the request came in on. */
  publicUrl: string | null;
}

/** What the callback does with a finished authorization. */
export type CallbackOutcome =
  { kind: 'hub'; connector: string } | { kind: 'claim'; code: string; loopback?: { port: number; nonceHash: string } };

export const connectorErrors = {
  notFound: (name: string) =>
    gatewayError('connector_not_found', `No remote MCP server named ${JSON.stringify(name)} is in the desktop policy.`),
  flowExpired: () => gatewayError('authorization_expired'),
  denied: (reason: string) =>
    gatewayError('authorization_denied', `The authorization server did not grant access (${reason}).`),
  claimNotFound: () => gatewayError('claim_not_found'),
} as const;

/** base64url of SHA-256 of the CLI's loopback nonce: what the redirect carries, so the nonce itself never travels back. */
export function nonceHashOf(nonce: string): string {
  return createHash('sha256').update(nonce).digest('base64url');
}

/**
 * Authorizing the organization hub's connectors:
 * a developer's own grant, which their calls through `/mcp/org` go out under, or the hub's grant, with which the mirror
 * lists a connector's tools. Either way the gateway is the OAuth client and the bearer never leaves it.
 */
export class ConnectorAuthorizer {
  constructor(private readonly deps: ConnectorAuthorizerDeps) {}

  async start(
    owner: GrantOwner,
    connectorName: string,
    requestOrigin: string,
    loopback?: { port: number; nonce: string },
  ): Promise<string> {
    const connector = await this.connector(connectorName);
    const server = await discoverAuthorization(connector.url, this.deps.outbound);
    const redirectUri = `${(this.deps.publicUrl ?? requestOrigin).replace(/\/+$/, '')}${callbackPath}`;
    const clientId = await this.deps.client.clientIdFor(server, redirectUri);
    const pkce = pkcePair();
    const state = await this.deps.flows.open({
      owner,
      connector: connector.name,
      resource: connector.url,
      tokenEndpoint: server.tokenEndpoint,
      clientId,
      redirectUri,
      verifier: pkce.verifier,
      ...(loopback ? { loopback: { port: loopback.port, nonceHash: nonceHashOf(loopback.nonce) } } : {}),
    });
    return this.deps.client.authorizationUrl(server, {
      clientId,
      redirectUri,
      state,
      challenge: pkce.challenge,
      resource: connector.url,
    });
  }

  /** The authorization server's redirect: exchange the code; the hub's grant is stored, a developer's waits for its claim. */
  async finish(query: { state?: string; code?: string; error?: string }): Promise<CallbackOutcome> {
    const flow = query.state ? await this.deps.flows.take(query.state) : null;
    if (!flow) throw connectorErrors.flowExpired();
    if (query.error || !query.code)
      throw connectorErrors.denied(query.error?.replace(/[^a-z_]/g, '').slice(0, 64) || 'no code');
    const grant = await this.deps.client.exchange(
      flow.tokenEndpoint,
      {
        code: query.code,
        clientId: flow.clientId,
        redirectUri: flow.redirectUri,
        verifier: flow.verifier,
        resource: flow.resource,
      },
      this.deps.clock.now(),
    );
    if (flow.owner.kind === 'hub') {
      await this.deps.grants.save(flow.owner, flow.connector, grant);
      return { kind: 'hub', connector: flow.connector };
    }
    const code = await this.deps.flows.holdClaim({ user: flow.owner.user, connector: flow.connector, grant });
    return { kind: 'claim', code, ...(flow.loopback ? { loopback: flow.loopback } : {}) };
  }

  /** The developer's CLI claims the grant its browser finished; it is theirs from now on. */
  async claim(user: string, connectorName: string, code: string): Promise<void> {
    const grant = await this.deps.flows.redeem(code, user, connectorName);
    if (!grant) throw connectorErrors.claimNotFound();
    await this.deps.grants.save({ kind: 'user', user }, connectorName, grant);
  }

  private async connector(name: string): Promise<RemoteServer> {
    const policy = await this.deps.policy.read();
    const found = remoteServersOf(policy.enabled ? policy.settings.managedMcpServers : undefined).remote.find(
      (server) => server.name === name,
    );
    if (!found) throw connectorErrors.notFound(name);
    return found;
  }
}
