import { createHash, randomBytes } from 'node:crypto';
import { listen } from '../core/http-server.js';

export interface AuthorizationServerHandle {
  /** The issuer, also the origin of every endpoint. */
  issuer: string;
  /** Who the next browser visit to `/authorize` signs in as; `null` makes the user deny consent. */
  signInAs(subject: string | null): void;
  /** The subject an access token stands for, or null for an unknown or revoked token. */
  subjectOf(accessToken: string): string | null;
  revokeAll(): void;
  /** Clients registered dynamically (RFC 7591), by id. */
  readonly clients: ReadonlyMap<string, { redirectUris: string[] }>;
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  subject: string;
  resource: string | null;
}

const json = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});
const token = () => randomBytes(24).toString('base64url');

/**
 * An OAuth 2.1 authorization server as remote MCP servers use one (MCP 2025-06-18 authorization): RFC 8414 metadata,
 * RFC 7591 dynamic client registration for public clients, the authorization-code grant with PKCE S256 only, and the
 * `resource` parameter (RFC 8707) carried into the token. `/authorize` answers at once for the configured user, as a
 * browser that already signed in and consented would.
 */
export async function startAuthorizationServer(): Promise<AuthorizationServerHandle> {
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, string>();
  let subject: string | null = 'vendor-user-1';
  let issuer = '';

  type Answer = { status: number; headers: Record<string, string>; body: string };

  const metadata = (): Answer =>
    json(200, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });

  const register = (raw: string): Answer => {
    const body = JSON.parse(raw || '{}') as { redirect_uris?: unknown };
    const redirectUris = Array.isArray(body.redirect_uris)
      ? body.redirect_uris.filter((uri): uri is string => typeof uri === 'string')
      : [];
    if (redirectUris.length === 0) return json(400, { error: 'invalid_redirect_uri' });
    const clientId = `client_${token()}`;
    clients.set(clientId, { redirectUris });
    return json(201, {
      client_id: clientId,
      redirect_uris: redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    });
  };

  const authorize = (query: URLSearchParams): Answer => {
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const client = clients.get(clientId);
    // An unknown client or redirect is never redirected to (RFC 6749 §4.1.2.1).
    if (!client || !client.redirectUris.includes(redirectUri))
      return json(400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
    const target = new URL(redirectUri);
    const state = query.get('state');
    if (state) target.searchParams.set('state', state);
    if (
      query.get('response_type') !== 'code' ||
      query.get('code_challenge_method') !== 'S256' ||
      !query.get('code_challenge')
    )
      target.searchParams.set('error', 'invalid_request');
    else if (subject === null) target.searchParams.set('error', 'access_denied');
    else {
      const code = token();
      codes.set(code, {
        clientId,
        redirectUri,
        challenge: query.get('code_challenge') as string,
        subject,
        resource: query.get('resource'),
      });
      target.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: target.href }, body: '' };
  };

  const exchange = (form: URLSearchParams): Answer => {
    const code = form.get('code') ?? '';
    const pending = codes.get(code);
    codes.delete(code);
    const challenge = createHash('sha256')
      .update(form.get('code_verifier') ?? '')
      .digest('base64url');
    const matches =
      pending !== undefined &&
      pending.clientId === form.get('client_id') &&
      pending.redirectUri === form.get('redirect_uri') &&
      pending.challenge === challenge;
    if (form.get('grant_type') !== 'authorization_code' || !matches) return json(400, { error: 'invalid_grant' });
    const accessToken = token();
    tokens.set(accessToken, pending.subject);
    return json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 });
  };

  const server = await listen(async (request, response) => {
    const route = `${request.method} ${request.path}`;
    const answer =
      route === 'GET /.well-known/oauth-authorization-server'
        ? metadata()
        : route === 'POST /register'
          ? register(request.body)
          : route === 'GET /authorize'
            ? authorize(new URLSearchParams(request.query))
            : route === 'POST /token'
              ? exchange(new URLSearchParams(request.body))
              : json(404, { error: 'not_found' });
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  issuer = server.url;
  return {
    issuer,
    signInAs: (next) => {
      subject = next;
    },
    subjectOf: (accessToken) => tokens.get(accessToken) ?? null,
    revokeAll: () => tokens.clear(),
    clients,
    close: () => server.close(),
  };
}
