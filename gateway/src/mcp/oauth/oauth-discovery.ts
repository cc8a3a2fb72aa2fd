import { AppError } from '@gw/platform';
import { gatewayError } from '../../errors.js';
import { assertSafeUpstreamUrl } from '../../providers/ssrf-guard.js';
import { RemoteMcpClient, RemoteMcpNeedsAuth } from '../hub/remote-mcp-client.js';

/** Where a remote MCP server's tokens come from (RFC 9728 → RFC 8414). */
export interface AuthorizationServer {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string | null;
  scopes: string[];
}

export interface OutboundOptions {
  allowPrivate: boolean;
  fetch?: typeof fetch;
}

export const oauthUnavailable = (message: string) => gatewayError('connector_oauth_unavailable', message);

/** GET a JSON document from a URL a third party named, through the SSRF guard, without following redirects. */
export async function fetchJson(
  url: string,
  options: OutboundOptions,
  init: RequestInit = {},
): Promise<{ status: number; body: unknown }> {
  let safe: URL;
  try {
    safe = await assertSafeUpstreamUrl(url, { allowPrivate: options.allowPrivate });
  } catch {
    throw oauthUnavailable('The connector named an authorization address that is not an allowed public https address.');
  }
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(safe, {
      ...init,
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
      headers: { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) },
    });
  } catch {
    throw oauthUnavailable(`The authorization server at ${safe.origin} could not be reached.`);
  }
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: null };
  }
}

/**
 * How to authorize against a remote MCP server (MCP 2025-06-18 authorization): its 401 names its protected-resource
 * metadata (or the well-known path on its origin is tried), which names the authorization server, whose RFC 8414
 * metadata gives the endpoints. PKCE S256 is required.
 */
export async function discoverAuthorization(serverUrl: string, options: OutboundOptions): Promise<AuthorizationServer> {
  let metadataUrl: string | null;
  try {
    await new RemoteMcpClient({
      url: serverUrl,
      allowPrivate: options.allowPrivate,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }).initialize();
    throw oauthUnavailable('This connector answers without authorization: there is nothing to authorize.');
  } catch (error) {
    if (!(error instanceof RemoteMcpNeedsAuth))
      throw error instanceof AppError ? error : oauthUnavailable('The connector could not be reached.');
    metadataUrl = error.resourceMetadata;
  }
  const resource = await fetchJson(
    metadataUrl ?? `${new URL(serverUrl).origin}/.well-known/oauth-protected-resource`,
    options,
  );
  const servers = (resource.body as { authorization_servers?: unknown } | null)?.authorization_servers;
  const scopes = (resource.body as { scopes_supported?: unknown } | null)?.scopes_supported;
  if (resource.status !== 200 || !Array.isArray(servers) || typeof servers[0] !== 'string')
    throw oauthUnavailable('The connector publishes no authorization server.');
  const issuer = servers[0];
  const document = await authorizationServerMetadata(issuer, options);
  const methods = document.code_challenge_methods_supported;
  if (
    typeof document.authorization_endpoint !== 'string' ||
    typeof document.token_endpoint !== 'string' ||
    (Array.isArray(methods) && !methods.includes('S256'))
  ) {
    throw oauthUnavailable('The authorization server does not offer the authorization-code grant with PKCE S256.');
  }
  return {
    issuer,
    authorizationEndpoint: document.authorization_endpoint,
    tokenEndpoint: document.token_endpoint,
    registrationEndpoint: typeof document.registration_endpoint === 'string' ? document.registration_endpoint : null,
    scopes: Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [],
  };
}

/** RFC 8414 The well-known path goes between the host and the issuer's path; OpenID discovery is the fallback. */
async function authorizationServerMetadata(issuer: string, options: OutboundOptions): Promise<Record<string, unknown>> {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  for (const candidate of [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
  ]) {
    const answer = await fetchJson(candidate, options);
    if (answer.status === 200 && typeof answer.body === 'object' && answer.body !== null)
      return answer.body as Record<string, unknown>;
  }
  throw oauthUnavailable('The authorization server publishes no metadata.');
}
