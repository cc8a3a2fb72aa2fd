import type { FastifyInstance } from 'fastify';
import type { KeyStore } from '../../keys/key.store.js';
import { KeyFailure } from '../../errors.js';
import type { AuthFailureGuard } from '../edge/auth-failure-guard.js';
import { extractClientKey } from './extract-key.js';
import { parseMetadataHeader, resolveIdentity } from './identity.js';

export interface IdentityStageDeps {
  keys: KeyStore;
  authFailureGuard: AuthFailureGuard;
}

/** Stage 2 of the chain: bind the caller from its key (spec 000 §1.6b). */
export function registerIdentityStage(app: FastifyInstance, deps: IdentityStageDeps): void {
  app.addHook('onRequest', async (request) => {
    try {
      const identity = await resolveIdentity(deps.keys, extractClientKey(request.headers));
      const metadata = request.headers['x-gw-metadata'];
      identity.metadata = parseMetadataHeader(Array.isArray(metadata) ? metadata[0] : metadata);
      request.gw.identity = identity;
    } catch (error) {
      if (error instanceof KeyFailure && error.failure !== 'key_store_unavailable') {
        const throttled = await deps.authFailureGuard.recordFailure(request.ip);
        if (throttled) throw throttled;
      }
      throw error;
    }
  });
}
