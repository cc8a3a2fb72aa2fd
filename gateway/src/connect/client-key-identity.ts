import type { FastifyInstance } from 'fastify';
import type { Clock } from '@gw/platform';
import { registerIdentityStage, type IdentityStageDeps } from '../chain/identity/identity.plugin.js';
import '../chain/context.js';

export interface ClientKeyIdentityDeps extends IdentityStageDeps {
  clock: Clock;
}

/**
 * Stages 1–2 of the request chain (edge guard and identity, `chain/`) for the client-key surfaces outside `/v1/*`
 * (`/connect/*`, `/mcp`, spec 000 §5). Admission is left out on purpose: it meters model calls (limits, caps,
 * budgets, reservations) and these routes call no model.
 */
export function registerClientKeyIdentity(app: FastifyInstance, deps: ClientKeyIdentityDeps): void {
  app.decorateRequest('gw', null as never);
  app.addHook('onRequest', async (request) => {
    request.gw = { startedAt: deps.clock.now(), identity: null };
  });
  registerIdentityStage(app, deps);
}
