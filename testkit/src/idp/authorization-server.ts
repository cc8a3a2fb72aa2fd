import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from '../core/request-log.js';
import type { AccessTokenClaims } from './token-claims.js';

/** A relying party registered at the provider. */
export interface OidcClient {
  clientId: string;
  clientSecret: string;
  /** Compared exactly, as OpenID Connect requires. */
  redirectUris: string[];
}

/** Who the authorization endpoint signs in. */
export interface SignedInUser {
  sub: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  /** Further ID-token claims (`preferred_username`, `groups`). */
  claims?: Record<string, unknown>;
}

/** One way the next ID token is wrong, for the verifier under test to refuse. */
export interface IdTokenTampering {
  nonce?: string;
  audience?: string | string[];
  /** Seconds; negative issues an already expired token. */
  expiresIn?: number;
  issuer?: string;
  /** Seconds since the epoch for `iat` (and `exp` counts from it). */
  issuedAt?: number;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string | null;
  user: SignedInUser;
  expiresAt: number;
}

export interface AuthorizationServer {
  registerClient(client: OidcClient): void;
  signInAs(user: SignedInUser | null): void;
  tamperNext(tampering: IdTokenTampering): void;
  readonly tokenRequests: number;
  /** True when the request was the authorization or token endpoint's (and was answered). */
  handle(request: RecordedRequest, response: ServerResponse): Promise<boolean>;
}

const codeLifetimeMs = 60_000;

function sameSecret(left: string, right: string): boolean {
  const a = createHash('sha256').update(left).digest();
  const b = createHash('sha256').update(right).digest();
  return timingSafeEqual(a, b) && left === right;
}

/**
 * The authorization code flow as an OpenID provider runs it (RFC 6749, RFC 7636, OpenID Connect Core): the
 * authorization endpoint checks the client and its exact redirect URI (a mismatch is an error page, never a
 * redirect), requires an S256 code challenge, and redirects back with a single-use code and the state; the token
 * endpoint authenticates the client (Basic or form), checks the code, its redirect URI and the PKCE verifier, and
 * answers an ID token carrying the nonce.
 */
export function authorizationServer(options: {
  issuer: () => string;
  signIdToken: (claims: AccessTokenClaims) => string;
}): AuthorizationServer {
  const clients = new Map<string, OidcClient>();
  const codes = new Map<string, IssuedCode>();
  let user: SignedInUser | null = null;
  let tampering: IdTokenTampering | null = null;
  let tokenRequests = 0;

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(JSON.stringify(body));
  };

  const authorize = (request: RecordedRequest, response: ServerResponse) => {
    const query = request.query;
    const client = clients.get(query.client_id ?? '');
    if (!client || !client.redirectUris.includes(query.redirect_uri ?? '')) {
      response.writeHead(400, { 'content-type': 'text/html' });
      response.end('<h1>Invalid client or redirect URI</h1>');
      return;
    }
    const back = new URL(query.redirect_uri);
    const state = query.state;
    if (state !== undefined) back.searchParams.set('state', state);
    back.searchParams.set('iss', options.issuer());
    const fail = (error: string) => {
      back.searchParams.set('error', error);
      response.writeHead(302, { location: back.href });
      response.end();
    };
    if (query.response_type !== 'code') return fail('unsupported_response_type');
    if (!(query.scope ?? '').split(' ').includes('openid')) return fail('invalid_scope');
    if (query.code_challenge_method !== 'S256' || !query.code_challenge) return fail('invalid_request');
    if (!user) return fail('access_denied');
    const code = randomBytes(24).toString('base64url');
    codes.set(code, {
      clientId: client.clientId,
      redirectUri: query.redirect_uri,
      challenge: query.code_challenge,
      nonce: query.nonce ?? null,
      user,
      expiresAt: Date.now() + codeLifetimeMs,
    });
    back.searchParams.set('code', code);
    response.writeHead(302, { location: back.href });
    response.end();
  };

  const clientOf = (request: RecordedRequest, form: URLSearchParams): OidcClient | null => {
    const header = request.headers.authorization;
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    if (typeof header === 'string' && header.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const at = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, at));
      secret = decodeURIComponent(decoded.slice(at + 1));
    }
    const client = clients.get(id ?? '');
    return client && secret !== null && sameSecret(secret, client.clientSecret) ? client : null;
  };

  const token = (request: RecordedRequest, response: ServerResponse) => {
    tokenRequests += 1;
    const form = new URLSearchParams(request.body);
    const client = clientOf(request, form);
    if (!client) return json(response, 401, { error: 'invalid_client' });
    if (form.get('grant_type') !== 'authorization_code')
      return json(response, 400, { error: 'unsupported_grant_type' });
    const code = form.get('code') ?? '';
    const issued = codes.get(code);
    codes.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      !issued ||
      issued.expiresAt < Date.now() ||
      issued.clientId !== client.clientId ||
      issued.redirectUri !== form.get('redirect_uri') ||
      challenge !== issued.challenge
    )
      return json(response, 400, { error: 'invalid_grant' });
    const wrong = tampering ?? {};
    tampering = null;
    const idToken = options.signIdToken({
      sub: issued.user.sub,
      aud: wrong.audience ?? client.clientId,
      issuer: wrong.issuer ?? options.issuer(),
      ...(wrong.issuedAt === undefined ? {} : { issuedAt: wrong.issuedAt }),
      expiresIn: wrong.expiresIn ?? 300,
      extra: {
        ...((wrong.nonce ?? issued.nonce) ? { nonce: wrong.nonce ?? issued.nonce } : {}),
        ...(issued.user.email === undefined
          ? {}
          : { email: issued.user.email, email_verified: issued.user.emailVerified ?? true }),
        ...(issued.user.name === undefined ? {} : { name: issued.user.name }),
        auth_time: Math.floor(Date.now() / 1000),
        ...issued.user.claims,
      },
    });
    return json(response, 200, {
      access_token: randomBytes(24).toString('base64url'),
      token_type: 'Bearer',
      expires_in: 300,
      id_token: idToken,
    });
  };

  return {
    registerClient: (client) => clients.set(client.clientId, client),
    signInAs: (next) => {
      user = next;
    },
    tamperNext: (next) => {
      tampering = next;
    },
    get tokenRequests() {
      return tokenRequests;
    },
    async handle(request, response) {
      if (request.path === '/authorize' && request.method === 'GET') {
        authorize(request, response);
        return true;
      }
      if (request.path === '/token' && request.method === 'POST') {
        token(request, response);
        return true;
      }
      return false;
    },
  };
}
