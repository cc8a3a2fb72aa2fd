import type { Identity } from '../../identity/caller.js';
import type { Denial } from './admission-input.js';
import { checksAfterGuardrails, firstDenial } from './checks.js';
import { buildInput, counterKeysOf, planOf, type AdmissionLoaderDeps } from './load-admission.js';

/**
 * Whether a caller admitted earlier is over a cap or budget now: the caps-and-budgets checks of admission on fresh
 * counters, taking no rate token and no slot. For sessions that outlive one call (a realtime session meters each
 * response and must stop once a response crossed the cap). Counters out of reach read as under, as at admission.
 */
export async function standingDenial(deps: AdmissionLoaderDeps, identity: Identity): Promise<Denial | null> {
  const now = deps.clock.now();
  const limits = deps.governance.effectiveLimits(identity.keyId, identity.user);
  const plan = planOf(deps.governance, identity, now, limits.strictBudget);
  const keys = counterKeysOf(plan, now);
  if (keys.length === 0) return null;
  const counters = await deps.coord.getCounters(keys).catch((error: unknown) => {
    deps.governance.reportFailOpen('usage_counters', error);
    return null;
  });
  return firstDenial(
    buildInput({ plan, limits, rate: null, slot: null, counters, reservations: [] }),
    checksAfterGuardrails,
  );
}
