import type { FastifyInstance } from 'fastify';
import type { AppError } from '@gw/platform';

/** The part of the entitlement gate the chain needs: a judgement of the held lease, never a store call. */
export interface EntitlementCheck {
  denial(): AppError | null;
}

/**
 * Stage 2b of the chain: a suspended deployment answers 403, an expired
 * or unverifiable lease 402, after the key was verified (a caller without a valid key learns nothing about billing)
 * and before admission meters anything. Registered only on a metered gateway; a synchronous hook, no promise.
 */
export function registerEntitlementStage(app: FastifyInstance, gate: EntitlementCheck): void {
  app.addHook('onRequest', (_request, _reply, done) => {
    done(gate.denial() ?? undefined);
  });
}
