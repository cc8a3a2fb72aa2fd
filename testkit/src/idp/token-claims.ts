/** What a test asks the identity provider to put in a token it signs. */
export interface AccessTokenClaims {
  sub?: string;
  /** One string, or a list (which the org hub refuses: `aud` must be exactly its URL). */
  aud?: string | string[];
  organizationId?: string;
  /** Seconds; default now. */
  issuedAt?: number;
  /** Seconds after `issuedAt`; default 300. Negative makes an already expired token. */
  expiresIn?: number;
  /** Default this provider's issuer. */
  issuer?: string;
  /** Claims added as they are (e.g. `scope`). */
  extra?: Record<string, unknown>;
}
