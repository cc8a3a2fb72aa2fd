import type { FastifyInstance } from 'fastify';
import { markConnectionAuthenticated } from '@gw/platform';
import type { KeyStore } from '../../identity/keys/key.store.js';
import type { AuthRejectionInput } from '../../admin/audit/audit.store.js';
import { KeyFailure } from '../../errors.js';
import type { AuthFailureGuard } from '../edge/auth-failure-guard.js';
import { enrollmentTokenPrefix, looksLikeEnrollmentToken } from '../../identity/enrollment/enrollment-link.schema.js';
import { extractClientKey } from '../../identity/keys/extract-key.js';
import { networkTrustedIdentity, parseMetadataHeader, resolveIdentity, type Identity } from '../../identity/caller.js';

export interface IdentityStageDeps {
  keys: KeyStore;
  authFailureGuard: AuthFailureGuard;
  /** Runtime identity mode: `network-trusted` lifts the key requirement on isolated networks. */
  identityMode: () => 'enrolled' | 'network-trusted';
  multiTenant: boolean;
  /** Reason-coded rejections feed `/admin/auth-events`; best-effort, never on the response path. */
  recordRejection: (rejection: AuthRejectionInput) => Promise<void>;
}

/** Stage 2 of the chain: bind the caller from its key. */
export function registerIdentityStage(app: FastifyInstance, deps: IdentityStageDeps): void {
  app.addHook('onRequest', async (request) => {
    const rawKey = extractClientKey(request.headers);
    // The route itself redeems the token (and answers its failures); the caller has no identity yet.
    // The prefix test first: `routeOptions` builds an object per read, and this runs on every request with a key.
    if (
      rawKey?.startsWith(enrollmentTokenPrefix) === true &&
      looksLikeEnrollmentToken(rawKey) &&
      request.routeOptions.config.acceptsEnrollmentToken === true
    )
      return;
    try {
      // A presented key is always verified; only a keyless request may pass in network-trusted single-tenant mode.
      const identity: Identity =
        !rawKey && !deps.multiTenant && deps.identityMode() === 'network-trusted'
          ? networkTrustedIdentity()
          : await resolveIdentity(deps.keys, rawKey);
      const metadata = request.headers['x-gw-metadata'];
      identity.metadata = parseMetadataHeader(Array.isArray(metadata) ? metadata[0] : metadata);
      request.gw.identity = identity;
      // A caller that proved who it is (or sits on the trusted network) no longer counts against its address's cap on
      // unauthenticated connections.
      markConnectionAuthenticated(request.raw.socket);
    } catch (error) {
      if (error instanceof KeyFailure) {
        deps
          .recordRejection({
            code: error.code,
            status: error.status,
            endpoint: request.url.split('?')[0] ?? null,
            hint: error.hint,
            requestId: request.traceId,
          })
          .catch(() => undefined);
        if (error.failure !== 'key_store_unavailable') {
          const throttled = await deps.authFailureGuard.recordFailure(request.ip);
          if (throttled) throw throttled;
        }
      }
      throw error;
    }
  });
}
