import { createHash, randomBytes } from 'node:crypto';
import { fetchJson, oauthUnavailable, type AuthorizationServer, type OutboundOptions } from './oauth-discovery.js';

/** What a finished authorization holds: the bearer the connector accepts, and when it stops. */
export interface ConnectorGrant {
  accessToken: string;
  /** Epoch milliseconds; null when the server gave no lifetime. */
  expiresAt: number | null;
}

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export function pkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * The gateway as an OAuth public client of remote MCP servers' authorization servers: one dynamically registered client
 * per authorization server and redirect URI (RFC 7591, cached in process; a second replica registering its own is
 * harmless), the authorization URL with PKCE S256, `state` and the RFC 8707 `resource`, and the code exchange.
 */
export class ConnectorOAuthClient {
  private readonly registered = new Map<string, Promise<string>>();

  constructor(private readonly outbound: OutboundOptions) {}

  async clientIdFor(server: AuthorizationServer, redirectUri: string): Promise<string> {
    const key = `${server.issuer}\u0000${redirectUri}`;
    let clientId = this.registered.get(key);
    if (!clientId) {
      clientId = this.register(server, redirectUri);
      this.registered.set(key, clientId);
      clientId.catch(() => this.registered.delete(key));
    }
    return clientId;
  }

  authorizationUrl(
    server: AuthorizationServer,
    input: { clientId: string; redirectUri: string; state: string; challenge: string; resource: string },
  ): string {
    const url = new URL(server.authorizationEndpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', input.clientId);
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('state', input.state);
    url.searchParams.set('code_challenge', input.challenge);
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('resource', input.resource);
    if (server.scopes.length > 0) url.searchParams.set('scope', server.scopes.join(' '));
    return url.href;
  }

  async exchange(
    tokenEndpoint: string,
    input: { code: string; clientId: string; redirectUri: string; verifier: string; resource: string },
    now: number,
  ): Promise<ConnectorGrant> {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: input.code,
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      code_verifier: input.verifier,
      resource: input.resource,
    });
    const answer = await fetchJson(tokenEndpoint, this.outbound, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const body = answer.body as { access_token?: unknown; token_type?: unknown; expires_in?: unknown } | null;
    if (
      answer.status !== 200 ||
      typeof body?.access_token !== 'string' ||
      (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer')
    ) {
      throw oauthUnavailable('The authorization server refused the authorization code.');
    }
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : null;
    return { accessToken: body.access_token, expiresAt: lifetime === null ? null : now + lifetime };
  }

  private async register(server: AuthorizationServer, redirectUri: string): Promise<string> {
    if (!server.registrationEndpoint)
      throw oauthUnavailable('The authorization server offers no dynamic client registration.');
    const answer = await fetchJson(server.registrationEndpoint, this.outbound, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'gw organization hub',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const clientId = (answer.body as { client_id?: unknown } | null)?.client_id;
    if ((answer.status !== 201 && answer.status !== 200) || typeof clientId !== 'string')
      throw oauthUnavailable('The authorization server refused to register the gateway as a client.');
    return clientId;
  }
}
