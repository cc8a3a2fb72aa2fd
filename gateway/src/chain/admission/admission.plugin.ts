import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock, Coord } from '@gw/platform';
import type { Governance } from '../../governance/governance.js';
import type { Denial } from './admission-input.js';
import { admissionApplies, endpointOf } from './applies.js';
import { checksAfterGuardrails, checksBeforeGuardrails, firstDenial } from './checks.js';
import type { Guardrails } from '../../governance/guardrails/guardrails.js';
import type { Identity } from '../../identity/caller.js';
import { denialError } from './denial-error.js';
import {
  loadAdmission,
  releaseHeld,
  slotLeaseMs,
  type AdmissionGovernance,
  type HeldResources,
} from './load-admission.js';

export interface AdmissionStageDeps {
  coord: Coord;
  clock: Clock;
  /** What admission reads, plus the reservations it holds for the request and the 402s it reports. */
  governance: AdmissionGovernance & Pick<Governance, 'hold' | 'releaseLater' | 'releaseSlot' | 'recordAuthRejection'>;
  /** Operator-configured guardrail hooks, asked between the limits and the caps; null when the gateway has none. */
  guardrails?: Guardrails | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Stage 3 of the chain: rate limit, concurrency limit, per-user caps and service-key budgets, before
 * any model call. It runs at `preValidation`: after identity and body parsing (strict estimates and the rejection row
 * read the body) and before schema validation, as the chain orders them.
 */
export function registerAdmissionStage(app: FastifyInstance, deps: AdmissionStageDeps): void {
  app.addHook('preValidation', async (request, reply) => {
    const identity = request.gw.identity;
    if (!identity || !admissionApplies(request)) return;
    const body = isRecord(request.body) ? request.body : undefined;
    const { input, held } = await loadAdmission(deps, identity, body);
    const denial =
      firstDenial(input, checksBeforeGuardrails) ??
      (await guardrailDenial(deps.guardrails, request, identity, body)) ??
      firstDenial(input, checksAfterGuardrails);
    if (denial) {
      await releaseHeld(held);
      recordAuthEvent(deps, request, denial);
      throw denialError(denial);
    }
    hold(deps.governance, request, reply, held);
  });
}

/** The guardrail step, in the order the chain fixes: after the rate and concurrency limits, before caps and budgets. */
async function guardrailDenial(
  guardrails: Guardrails | null | undefined,
  request: FastifyRequest,
  identity: Identity,
  body: Record<string, unknown> | undefined,
): Promise<Denial | null> {
  if (!guardrails?.configured) return null;
  const model = typeof body?.model === 'string' ? body.model : null;
  const call = {
    requestId: request.traceId,
    endpoint: endpointOf(request),
    model,
    stream: body?.stream === true,
    user: identity.user,
    team: identity.team,
    keyId: identity.keyId,
    keyType: identity.keyType,
  };
  const denial = await guardrails.check(call, body ?? null);
  return denial ? { status: denial.status, code: denial.code, message: denial.message, hint: denial.hint } : null;
}

/**
 * Keep the slot and reservations until the response ends, however it ends: `close` fires when the client goes away
 * too, so a disconnect never leaks a slot; the lease (renewed while the request lives) is the backstop for a crash.
 */
function hold(
  governance: Pick<Governance, 'hold' | 'releaseLater' | 'releaseSlot'>,
  request: FastifyRequest,
  reply: FastifyReply,
  held: HeldResources,
): void {
  if (!held.slot && held.reservations.length === 0) return;
  governance.hold(request.traceId, held.reservations);
  const slot = held.slot;
  const renewal = slot ? setInterval(() => void slot.renew(slotLeaseMs).catch(() => undefined), slotLeaseMs / 3) : null;
  renewal?.unref();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    if (renewal) clearInterval(renewal);
    if (slot) governance.releaseSlot(slot);
    governance.releaseLater(request.traceId);
  };
  reply.raw.once('finish', end);
  reply.raw.once('close', end);
}

/**
 * Cap and budget rejections feed auth events. Every rejection's spend row (and the metrics through it) is the
 * metering stage's, recorded from the denial error (`../metering/`).
 */
function recordAuthEvent(deps: AdmissionStageDeps, request: FastifyRequest, denial: Denial): void {
  if (denial.status !== 402) return;
  const identity = request.gw.identity;
  const subject = identity?.user ?? identity?.keyId ?? 'anonymous';
  // One auth event per subject and code per minute: a client retrying in a loop must not flood the audit trail.
  const claim = `gov:auth-event:${encodeURIComponent(subject)}:${denial.code}`;
  void deps.coord
    .setIfAbsent(claim, '1', 60_000)
    .then((first) =>
      first
        ? deps.governance.recordAuthRejection({
            code: denial.code,
            user: identity?.user ?? null,
            keyId: identity?.keyId ?? null,
            endpoint: endpointOf(request),
            status: denial.status,
            hint: denial.hint,
            requestId: request.traceId,
          })
        : undefined,
    )
    .catch((error: unknown) => request.log.warn({ err: error, code: denial.code }, 'auth event not recorded'));
}
