import { type Clock, type Coord, type SlotLease } from '@gw/platform';
import { estimateCall, type CallEstimate } from '../../governance/estimate-call.js';
import type { Governance } from '../../governance/governance.js';
import { monthPeriod, periodOf } from '../../governance/period.js';
import { previousBucketKeys, type Reservation } from '../../governance/reservations.js';
import { counterKey, type Subject } from '../../governance/usage-counters.js';
import type { UserCap } from '../../governance/user-caps.store.js';
import type { Identity } from '../../identity/caller.js';
import type { AdmissionInput, Consumption } from './admission-input.js';
import { gatewayError } from '../../errors.js';

/** What admission reads of governance: caps, limits and estimates, strict reservations, fail-open reports. */
export type AdmissionGovernance = Pick<
  Governance,
  | 'capOf'
  | 'effectiveLimits'
  | 'modelFacts'
  | 'defaultOutputTokens'
  | 'reserve'
  | 'setBudgetRemaining'
  | 'rememberBudget'
  | 'reportFailOpen'
>;

export interface AdmissionLoaderDeps {
  coord: Coord;
  clock: Clock;
  governance: AdmissionGovernance;
}

/** What admission holds for the request's lifetime: a concurrency slot and strict reservations. */
export interface HeldResources {
  slot: SlotLease | null;
  reservations: Reservation[];
}

/** A slot outlives a crashed replica by at most this long; live requests renew it (admission.plugin.ts). */
export const slotLeaseMs = 30_000;
const rateWindowMs = 60_000;
const maxRetryAfterMs = 60_000;
// Denied callers retry spread out rather than in lockstep, so a burst does not come back as the same burst.
const jitter = (spreadMs: number) => Math.floor(Math.random() * spreadMs);

/** A part whose source is down reads as absent: the check it feeds lets the request through. */
function failOpen(governance: AdmissionGovernance, check: string, error: unknown): null {
  governance.reportFailOpen(check, error);
  return null;
}

export async function releaseHeld(held: HeldResources): Promise<void> {
  await Promise.all([
    held.slot?.release().catch(() => undefined),
    ...held.reservations.map((reservation) => reservation.release()),
  ]);
}

interface Plan {
  cap: { subject: Subject; keys: [string, string]; strict: boolean; entry: UserCap; resetsAt: number | null } | null;
  budget: {
    subject: Subject;
    key: string;
    strict: boolean;
    name: string;
    monthlyBudgetUsd: number;
    resetsAt: number;
  } | null;
}

export function planOf(governance: AdmissionGovernance, identity: Identity, now: number, strictBudget: boolean): Plan {
  const entry = identity.keyType === 'client' && identity.user ? governance.capOf(identity.user) : undefined;
  const capLimited = entry !== undefined && (entry.monthlyTokens !== null || entry.maxUsd !== null);
  const budgetUsd = identity.keyType === 'service' ? (identity.key.monthlyBudgetUsd ?? 0) : 0;
  governance.rememberBudget(identity.keyId, budgetUsd);
  const month = monthPeriod(now);
  let cap: Plan['cap'] = null;
  if (entry && capLimited) {
    const subject: Subject = { kind: 'user', id: entry.user };
    const period = periodOf(entry.reset, now);
    cap = {
      subject,
      keys: [counterKey(subject, period, 'tokens'), counterKey(subject, period, 'costMicros')],
      strict: entry.strict,
      entry,
      resetsAt: period.end,
    };
  }
  const keySubject: Subject = { kind: 'key', id: identity.keyId };
  // Absent or 0 means unlimited.
  const budget =
    budgetUsd > 0
      ? {
          subject: keySubject,
          key: counterKey(keySubject, month, 'costMicros'),
          strict: strictBudget,
          name: identity.name ?? identity.keyId,
          monthlyBudgetUsd: budgetUsd,
          resetsAt: month.end as number,
        }
      : null;
  return { cap, budget };
}

/** Strict reservations fail closed: the promise of strict mode is "never over", which an outage cannot keep. */
const reservationUnavailable = (cause: unknown) => gatewayError('governance_unavailable', undefined, { cause });

/**
 * Fetch what the checks need: the rate decision, a concurrency slot and the usage counters in one parallel round
 * (strict mode adds one: reserve, then read, so a concurrent settlement is never missed). Unreachable Coord fails
 * open for everything soft, and says so (`Governance.reportFailOpen`).
 */
export async function loadAdmission(
  deps: AdmissionLoaderDeps,
  identity: Identity,
  body: Record<string, unknown> | undefined,
): Promise<{ input: AdmissionInput; held: HeldResources }> {
  const { governance, coord } = deps;
  const now = deps.clock.now();
  const limits = governance.effectiveLimits(identity.keyId, identity.user);
  const plan = planOf(governance, identity, now, limits.strictBudget);
  const strict = plan.cap?.strict === true || plan.budget?.strict === true;
  const estimate: CallEstimate | null = strict
    ? await estimateCall(
        body,
        typeof body?.model === 'string' ? governance.modelFacts(body.model) : undefined,
        governance.defaultOutputTokens,
      )
    : null;

  const ratePromise =
    limits.requestsPerMinute === null
      ? null
      : coord
          .rateLimit(`adm:rate:${identity.keyId}`, limits.requestsPerMinute, rateWindowMs)
          .catch((error: unknown) => failOpen(governance, 'rate_limit', error));
  const slotPromise =
    limits.concurrentRequests === null
      ? null
      : coord.acquireSlot(`adm:conc:${identity.keyId}`, limits.concurrentRequests, slotLeaseMs).then(
          (lease) => ({ lease }),
          (error: unknown) => failOpen(governance, 'concurrency_limit', error),
        );
  const reservationPromise = estimate
    ? reserve(governance, plan, estimate, now).catch((error: unknown) => error as Error)
    : Promise.resolve([]);
  const keys = counterKeysOf(plan, now);
  const read = () =>
    keys.length === 0
      ? Promise.resolve([])
      : coord.getCounters(keys).catch((error: unknown) => failOpen(governance, 'usage_counters', error));
  const [rate, slot, reservations, early] = await Promise.all([
    ratePromise,
    slotPromise,
    reservationPromise,
    estimate ? null : read(),
  ]);
  const held: HeldResources = {
    slot: slot?.lease ?? null,
    reservations: Array.isArray(reservations) ? reservations : [],
  };
  if (!Array.isArray(reservations)) {
    await releaseHeld(held);
    throw reservationUnavailable(reservations);
  }
  const counters = estimate ? await read() : early;
  const input = buildInput({ plan, limits, rate, slot, counters, reservations });
  reportBudget(governance, identity.keyId, input);
  return { input, held };
}

/** The counters the checks read, in the order `buildInput` consumes them. */
export function counterKeysOf(plan: Plan, now: number): string[] {
  return [
    ...(plan.cap ? plan.cap.keys : []),
    ...(plan.budget ? [plan.budget.key] : []),
    ...(plan.cap?.strict ? previousBucketKeys(plan.cap.subject, now) : []),
    ...(plan.budget?.strict ? [previousBucketKeys(plan.budget.subject, now)[1]] : []),
  ];
}

function reportBudget(governance: AdmissionGovernance, keyId: string, input: AdmissionInput): void {
  const budget = input.serviceKeyBudget;
  if (budget && budget.costMicros.spent !== null)
    governance.setBudgetRemaining(keyId, budget.monthlyBudgetUsd - budget.costMicros.spent / 1_000_000);
}

async function reserve(
  governance: AdmissionGovernance,
  plan: Plan,
  estimate: CallEstimate,
  now: number,
): Promise<Reservation[]> {
  const made = await Promise.allSettled([
    plan.cap?.strict ? governance.reserve(plan.cap.subject, estimate, now) : null,
    plan.budget?.strict
      ? governance.reserve(plan.budget.subject, { tokens: 0, costMicros: estimate.costMicros }, now)
      : null,
  ]);
  const reservations = made.flatMap((result) => (result.status === 'fulfilled' && result.value ? [result.value] : []));
  const failure = made.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(reservations.map((reservation) => reservation.release()));
    throw failure.reason;
  }
  return reservations;
}

interface Loaded {
  plan: Plan;
  limits: { requestsPerMinute: number | null; concurrentRequests: number | null };
  rate: Awaited<ReturnType<Coord['rateLimit']>> | undefined | null;
  slot: { lease: SlotLease | null } | undefined | null;
  counters: number[] | undefined | null;
  reservations: Reservation[];
}

export function buildInput({ plan, limits, rate, slot, counters, reservations }: Loaded): AdmissionInput {
  const values = counters ?? null;
  let index = 0;
  const next = (): number | null => {
    index += 1;
    return values ? (values[index - 1] ?? 0) : null;
  };
  const capTokens = plan.cap ? next() : null;
  const capCost = plan.cap ? next() : null;
  const keyCost = plan.budget ? next() : null;
  const previousCapTokens = plan.cap?.strict ? (next() ?? 0) : 0;
  const previousCapCost = plan.cap?.strict ? (next() ?? 0) : 0;
  const previousKeyCost = plan.budget?.strict ? (next() ?? 0) : 0;
  const capReservation = reservations.find((reservation) => reservation.subject.kind === 'user');
  const keyReservation = reservations.find((reservation) => reservation.subject.kind === 'key');
  const consumption = (spent: number | null, reserved: number): Consumption => ({ spent, reserved });
  return {
    rate:
      rate && limits.requestsPerMinute !== null
        ? {
            limit: limits.requestsPerMinute,
            allowed: rate.allowed,
            retryAfterMs: Math.min(rate.retryAfterMs + jitter(250), maxRetryAfterMs),
          }
        : null,
    concurrency:
      slot && limits.concurrentRequests !== null
        ? { limit: limits.concurrentRequests, acquired: slot.lease !== null, retryAfterMs: 1_000 + jitter(1_000) }
        : null,
    userCap: plan.cap
      ? {
          user: plan.cap.entry.user,
          reset: plan.cap.entry.reset,
          resetsAt: plan.cap.resetsAt,
          strict: plan.cap.strict,
          monthlyTokens: plan.cap.entry.monthlyTokens,
          maxUsd: plan.cap.entry.maxUsd,
          tokens: consumption(capTokens, capReservation ? capReservation.bucketTokens + previousCapTokens : 0),
          costMicros: consumption(capCost, capReservation ? capReservation.bucketCostMicros + previousCapCost : 0),
        }
      : null,
    serviceKeyBudget: plan.budget
      ? {
          keyId: plan.budget.subject.id,
          name: plan.budget.name,
          monthlyBudgetUsd: plan.budget.monthlyBudgetUsd,
          resetsAt: plan.budget.resetsAt,
          strict: plan.budget.strict,
          costMicros: consumption(keyCost, keyReservation ? keyReservation.bucketCostMicros + previousKeyCost : 0),
        }
      : null,
  };
}
