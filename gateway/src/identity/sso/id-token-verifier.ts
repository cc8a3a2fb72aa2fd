import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { timingSafeEqualString, type Clock } from '@gw/platform';
import type { OidcProvider } from './oidc-discovery.js';
import { signInErrors } from './sign-in-error.js';

// jose's codes for a token that is simply not acceptable; anything else (timeouts, key-set answers that are not key
// sets, network errors) is the identity provider being unreachable: 503, never a sign-in.
const refusedCodes = new Map<string, [reason: string, message: string]>([
  ['ERR_JWT_EXPIRED', ['token_expired', 'The ID token has expired.']],
  ['ERR_JWT_CLAIM_VALIDATION_FAILED', ['claim_mismatch', 'The ID token is not for this console (issuer or audience).']],
  ['ERR_JWS_SIGNATURE_VERIFICATION_FAILED', ['bad_signature', 'The ID token signature does not verify.']],
  ['ERR_JWS_INVALID', ['token_malformed', 'The ID token is malformed.']],
  ['ERR_JWT_INVALID', ['token_malformed', 'The ID token is malformed.']],
  [
    'ERR_JOSE_ALG_NOT_ALLOWED',
    ['bad_algorithm', 'The ID token is signed with an algorithm the provider does not advertise.'],
  ],
  ['ERR_JOSE_NOT_SUPPORTED', ['bad_algorithm', 'The ID token is signed with an unsupported algorithm.']],
  ['ERR_JWKS_NO_MATCHING_KEY', ['bad_signature', 'The ID token is signed with a key the provider does not publish.']],
  ['ERR_JWKS_MULTIPLE_MATCHING_KEYS', ['bad_signature', 'The ID token names an ambiguous key.']],
]);

const clockToleranceSeconds = 30;

/**
 * Verifies ID tokens with jose against the provider's published keys (fetched from `jwks_uri`, cached, refetched
 * when a token names an unknown key id): signature and advertised asymmetric algorithm, `iss` the configured issuer,
 * `aud` this client (and `azp` this client when there are several audiences), `exp` and `iat`, and the `nonce` this
 * sign-in sent.
 */
export class IdTokenVerifier {
  private readonly keySets = new Map<string, JWTVerifyGetKey>();

  constructor(private readonly clock: Clock) {}

  async verify(
    idToken: string,
    expected: { provider: OidcProvider; clientId: string; nonce: string },
  ): Promise<JWTPayload> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.keys(expected.provider.jwksUri), {
        issuer: expected.provider.issuer,
        audience: expected.clientId,
        algorithms: expected.provider.signingAlgorithms,
        requiredClaims: ['sub', 'iat', 'exp'],
        currentDate: new Date(this.clock.now()),
        clockTolerance: clockToleranceSeconds,
      }));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const refused = typeof code === 'string' ? refusedCodes.get(code) : undefined;
      if (!refused) throw signInErrors.unavailable('The identity provider’s signing keys could not be fetched.');
      const [reason, message] = refused;
      const claim = (error as { claim?: unknown }).claim;
      throw signInErrors.token(claim === 'aud' ? 'audience_mismatch' : reason, message);
    }
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId)
      throw signInErrors.token('audience_mismatch', 'The ID token was issued to another client (azp).');
    const nonce = typeof payload.nonce === 'string' ? payload.nonce : '';
    if (!timingSafeEqualString(nonce, expected.nonce))
      throw signInErrors.token('nonce_mismatch', 'The ID token does not carry this sign-in’s nonce.');
    if (typeof payload.iat !== 'number' || payload.iat > this.clock.now() / 1000 + clockToleranceSeconds)
      throw signInErrors.token('token_invalid', 'The ID token was issued in the future.');
    return payload;
  }

  private keys(jwksUri: string): JWTVerifyGetKey {
    let keySet = this.keySets.get(jwksUri);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(jwksUri), {
        timeoutDuration: 5_000,
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
      });
      this.keySets.set(jwksUri, keySet);
    }
    return keySet;
  }
}
