import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '@gw/platform';
import { orgHubErrors } from './org-hub-errors.js';
import type { OrgHubSettings } from './org-hub-settings.js';

/** What a verified token says: who, in which organization. The token itself is never kept. */
export interface VerifiedMember {
  subject: string;
  organizationId: string;
  /** Seconds since the epoch; a cached verification ends here. */
  expiresAt: number;
}

// jose's codes for a token that is simply not acceptable; anything else (timeouts, bad key-set answers, network
// errors) is the identity provider being unreachable, which fails closed with 503 rather than blaming the caller.
const refusedTokenCodes = new Set([
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_EXPIRED',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWS_INVALID',
  'ERR_JWT_INVALID',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
]);

const discoveryTimeoutMs = 5_000;
const clockToleranceSeconds = 30;

/**
 * RS256 only, `iss` the managed issuer, `aud` one string equal to this
 * gateway's exact `/mcp/org` URL, valid `sub`, `iat` and `exp`, a non-empty organization id. No custom scope. Keys come
 * from the issuer's JWKS (discovered from its OpenID configuration unless configured), cached and refetched when a
 * token names a key id the cache does not hold.
 */
export class OrgTokenVerifier {
  private keySet: JWTVerifyGetKey | null = null;

  constructor(
    private readonly settings: OrgHubSettings,
    private readonly clock: Clock,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async verify(token: string): Promise<VerifiedMember> {
    const keySet = await this.keys();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySet, {
        issuer: this.settings.issuer,
        audience: this.settings.resource,
        algorithms: ['RS256'],
        requiredClaims: ['sub', 'iat', 'exp'],
        currentDate: new Date(this.clock.now()),
        clockTolerance: clockToleranceSeconds,
      }));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && refusedTokenCodes.has(code)) throw orgHubErrors.invalidToken(describe(code));
      throw orgHubErrors.identityProviderUnavailable();
    }
    // jose accepts an audience list that contains ours; the hub takes exactly one audience, its own URL.
    if (typeof payload.aud !== 'string') throw orgHubErrors.invalidToken('aud must be one string, this hub’s URL');
    const organizationId = payload[this.settings.organizationClaim];
    if (typeof organizationId !== 'string' || organizationId.trim() === '')
      throw orgHubErrors.invalidToken(`the ${this.settings.organizationClaim} claim must name the organization`);
    if (typeof payload.sub !== 'string' || payload.sub.trim() === '')
      throw orgHubErrors.invalidToken('sub must name the member');
    // jose checks iat against the clock only with maxTokenAge; a token issued in the future is not valid either.
    if (typeof payload.iat !== 'number' || payload.iat > this.clock.now() / 1000 + clockToleranceSeconds)
      throw orgHubErrors.invalidToken('iat is in the future');
    return { subject: payload.sub, organizationId, expiresAt: payload.exp as number };
  }

  /** The key set, discovering its URL from the issuer once; a failed discovery is retried on the next call. */
  private async keys(): Promise<JWTVerifyGetKey> {
    if (this.keySet) return this.keySet;
    const url = this.settings.jwksUrl ?? (await this.discoverJwksUrl());
    this.keySet = createRemoteJWKSet(new URL(url), {
      timeoutDuration: discoveryTimeoutMs,
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });
    return this.keySet;
  }

  private async discoverJwksUrl(): Promise<string> {
    const configurationUrl = `${this.settings.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    try {
      const response = await this.fetchImpl(configurationUrl, {
        redirect: 'error',
        signal: AbortSignal.timeout(discoveryTimeoutMs),
      });
      const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      // A configuration for another issuer is not this issuer's: its keys would verify someone else's tokens.
      if (response.ok && document.issuer === this.settings.issuer && typeof document.jwks_uri === 'string')
        return new URL(document.jwks_uri).href;
    } catch {
      // Unreachable or not JSON: the same outage as below.
    }
    throw orgHubErrors.identityProviderUnavailable();
  }
}

function describe(code: string): string {
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'it has expired';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'it must be signed with RS256';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return 'its issuer, audience or time claims do not match this hub';
    default:
      return 'its signature does not verify against the identity provider’s keys';
  }
}
