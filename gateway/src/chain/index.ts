import type { FastifyInstance } from 'fastify';
import type { Clock } from '@gw/platform';
import { registerIdentityStage, type IdentityStageDeps } from './identity/identity.plugin.js';
import { registerAdmissionStage, type AdmissionStageDeps } from './admission/admission.plugin.js';
import { registerEntitlementStage, type EntitlementCheck } from './entitlement/entitlement.plugin.js';
import { registerMeteringStage, type MeteringStage } from './metering/metering.stage.js';
import './context.js';

export interface ChainDeps extends IdentityStageDeps {
  clock: Clock;
  /** Null on an unmetered gateway: no lease, no gate. */
  entitlement: EntitlementCheck | null;
  admission: AdmissionStageDeps;
  /** Records each call's one spend row and trace; the lanes report to it, refusals reach it through its error hook. */
  metering: MeteringStage;
}

/**
 * The `/v1/*` request chain, registered in order; each stage fails fast (see README.md in this folder).
 *   1. edge       security headers and trace id (app-wide), body limit, auth-failure guard
 *   2. identity   key → user and team; 401 machine envelope; 503 when the key store is down
 *      entitlement  metered gateways: suspended 403, expired or unverifiable lease 402 (no store call)
 *   3. admission  rate, concurrency, caps and budgets (402 before any model call)
 *   4. validation zod schema of the route
 *   5. handler    route, optimizer hook, forward
 *   6. metering   one spend record and one trace per call, whatever the lane, the failure or the refusal
 */
export function registerChain(app: FastifyInstance, deps: ChainDeps): void {
  registerIdentityChain(app, deps);
  registerMeteringStage(app, deps.metering);
  if (deps.entitlement) registerEntitlementStage(app, deps.entitlement);
  registerAdmissionStage(app, deps.admission);
}

/**
 * Stages 1–2 only (edge guard and identity), for client-key surfaces that call no model (`/connect/*`, `/mcp`,
 * The contract): admission meters model calls (limits, caps, budgets, reservations), so it is left out there.
 */
export type IdentityChainDeps = IdentityStageDeps & { clock: Clock };

export function registerIdentityChain(app: FastifyInstance, deps: IdentityChainDeps): void {
  app.decorateRequest('gw', null as never);
  app.addHook('onRequest', (request, _reply, done) => {
    request.gw = { startedAt: deps.clock.now(), identity: null, metered: false };
    done();
  });
  registerIdentityStage(app, deps);
}
