import { createHmac, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { listen } from '../core/http-server.js';
import {
  authorizationServer,
  type AuthorizationServer,
  type IdTokenTampering,
  type OidcClient,
  type SignedInUser,
} from './authorization-server.js';
import type { AccessTokenClaims } from './token-claims.js';

export type { AccessTokenClaims } from './token-claims.js';

export type { IdTokenTampering, OidcClient, SignedInUser } from './authorization-server.js';

export interface IdentityProviderOptions {
  host?: string;
  /** The claim that carries the organization id (default `org_id`). */
  organizationClaim?: string;
}

export interface MintOptions {
  /** `RS256` with the published key (default); `ES256` with another published key; `HS256` with a shared secret; `none`. */
  algorithm?: 'RS256' | 'ES256' | 'HS256' | 'none';
  /** Sign with an RSA key the JWKS never publishes, under the published key id. */
  untrustedKey?: boolean;
}

export interface IdentityProviderHandle {
  /** The issuer (`iss`), also the origin serving discovery and the JWKS. */
  issuer: string;
  jwksUrl: string;
  mint(claims: AccessTokenClaims, options?: MintOptions): string;
  /** Publish a new signing key (a new `kid`) and sign with it from now on; the old key stays published. */
  rotateKey(): void;
  /** While on, discovery and the JWKS answer 503 (a key-discovery outage). */
  failKeyDiscovery(on: boolean): void;
  /** Register a relying party (console sign-in): its secret and exact redirect URIs. */
  registerClient(client: OidcClient): void;
  /** The user the authorization endpoint signs in (a browser already signed in at the provider); null refuses. */
  signInAs(user: SignedInUser | null): void;
  /** Make the next ID token the token endpoint issues wrong in one way (a verifier must refuse it). */
  tamperNextIdToken(tampering: IdTokenTampering): void;
  /** Code exchanges the token endpoint answered, successful or not. */
  readonly tokenRequests: number;
  /** How many times the discovery document was asked for. */
  readonly discoveryFetches: number;
  /** How many times the JWKS was fetched. */
  readonly jwksFetches: number;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

function rsaKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `rsa-${randomBytes(6).toString('hex')}`;
  return { kid, privateKey, publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

function ecKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = `ec-${randomBytes(6).toString('hex')}`;
  return { kid, privateKey, publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' } };
}

/**
 * A hosted identity provider as the organization hub meets it: OpenID
 * discovery, a JWKS, and RS256 access tokens minted on demand, with the wrong algorithms, keys and claims a verifier
 * must refuse. Plain node:crypto, so the verifier under test (jose) checks tokens it did not make.
 */
export async function startIdentityProvider(options: IdentityProviderOptions = {}): Promise<IdentityProviderHandle> {
  const organizationClaim = options.organizationClaim ?? 'org_id';
  const published: SigningKey[] = [rsaKey(), ecKey()];
  let current = published[0];
  const untrusted = rsaKey();
  const sharedSecret = randomBytes(32);
  let discoveryDown = false;
  let jwksFetches = 0;
  let discoveryFetches = 0;
  let issuer = '';
  // The authorization and token endpoints sign ID tokens with the current key, as a real provider does.
  const oidc: AuthorizationServer = authorizationServer({
    issuer: () => issuer,
    signIdToken: (claims) => mint(claims, {}, 'JWT'),
  });

  const server = await listen(
    async (request, response) => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.path === '/.well-known/jwks.json') jwksFetches += 1;
      if (request.path === '/.well-known/openid-configuration') discoveryFetches += 1;
      if (discoveryDown) return send(503, { error: 'temporarily_unavailable' });
      if (request.path === '/.well-known/openid-configuration') {
        return send(200, {
          issuer,
          jwks_uri: `${issuer}/.well-known/jwks.json`,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          scopes_supported: ['openid', 'email', 'profile'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          id_token_signing_alg_values_supported: ['RS256'],
        });
      }
      if (await oidc.handle(request, response)) return;
      if (request.path === '/.well-known/jwks.json') return send(200, { keys: published.map((key) => key.publicJwk) });
      return send(404, { error: 'not_found' });
    },
    { host: options.host },
  );
  issuer = server.url;

  const mint = (claims: AccessTokenClaims, mintOptions: MintOptions = {}, typ = 'at+jwt'): string => {
    const algorithm = mintOptions.algorithm ?? 'RS256';
    const key =
      algorithm === 'ES256' ? published[1] : mintOptions.untrustedKey ? { ...untrusted, kid: current.kid } : current;
    const issuedAt = claims.issuedAt ?? Math.floor(Date.now() / 1000);
    const payload = {
      iss: claims.issuer ?? issuer,
      ...(claims.sub === undefined ? {} : { sub: claims.sub }),
      ...(claims.aud === undefined ? {} : { aud: claims.aud }),
      iat: issuedAt,
      exp: issuedAt + (claims.expiresIn ?? 300),
      ...(claims.organizationId === undefined ? {} : { [organizationClaim]: claims.organizationId }),
      ...claims.extra,
    };
    const header = {
      alg: algorithm,
      typ,
      ...(algorithm === 'HS256' || algorithm === 'none' ? {} : { kid: key.kid }),
    };
    const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
    if (algorithm === 'none') return `${signingInput}.`;
    if (algorithm === 'HS256')
      return `${signingInput}.${createHmac('sha256', sharedSecret).update(signingInput).digest('base64url')}`;
    // ES256 in a JWS is the raw r‖s pair, not DER.
    const signature =
      algorithm === 'ES256'
        ? sign('sha256', Buffer.from(signingInput), { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
        : sign('sha256', Buffer.from(signingInput), key.privateKey);
    return `${signingInput}.${signature.toString('base64url')}`;
  };

  return {
    issuer,
    jwksUrl: `${issuer}/.well-known/jwks.json`,
    mint,
    rotateKey: () => {
      current = rsaKey();
      published.push(current);
    },
    failKeyDiscovery: (on) => {
      discoveryDown = on;
    },
    registerClient: (client) => oidc.registerClient(client),
    signInAs: (user) => oidc.signInAs(user),
    tamperNextIdToken: (tampering) => oidc.tamperNext(tampering),
    get tokenRequests() {
      return oidc.tokenRequests;
    },
    get discoveryFetches() {
      return discoveryFetches;
    },
    get jwksFetches() {
      return jwksFetches;
    },
    close: () => server.close(),
  };
}
