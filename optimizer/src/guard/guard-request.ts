import { createHash } from 'node:crypto';
import type { Decision } from '@gw/contracts';
import type { RegressionGuard, GuardVerdict } from './regression-guard.js';
import type { KindFire, SessionMemory, ToolCallFact, TurnFacts } from './session-signals.js';
import { callSignature } from './session-signals.js';
import { cropKinds, freshTrimLane, markerKinds, type SpanRewrite } from './span-rewrite.js';

export interface GuardRequestInput {
  readonly tenant: string;
  /** Tenant, principal and session id; undefined when the request names no session (no session signals then). */
  readonly sessionKey: string | undefined;
  /** A hash of the request bytes (the optimization id): the probe cohort is chosen from it. */
  readonly requestFingerprint: string;
  readonly request: Record<string, unknown>;
  readonly pins: readonly unknown[] | undefined;
  /** The request's tool calls (name, arguments, message index), read only when a session signal needs them. */
  readonly calls: () => readonly ToolCallFact[];
}

/** The part of a pipeline result the guard learns from. */
export interface GuardedResult {
  readonly decisions: readonly Decision[];
  readonly rewrites?: readonly SpanRewrite[] | undefined;
  readonly suppressedKinds: ReadonlyArray<{ kind: string; reason: string }>;
  /** Seam for a tool-pruning strategy: tools it dropped from the declared list, by strategy kind. */
  readonly prunedTools?: ReadonlyArray<{ kind: string; tools: readonly string[] }> | undefined;
  /** Seam for a reasoning-downshift strategy: kinds that downshifted this request. */
  readonly downshiftKinds?: readonly string[] | undefined;
}

/**
 * The guard's part in one /v1/optimize call: on creation it charges the regrets this turn reveals about the last
 * one; `allow` is the pipeline's `guard` hook; `settle` counts what fired, remembers the turn for the next one and
 * returns the `guard_suppressed` decisions.
 */
export class GuardRequest {
  private readonly verdicts = new Map<string, GuardVerdict>();

  constructor(
    private readonly guard: RegressionGuard,
    private readonly input: GuardRequestInput,
    private readonly now: number,
  ) {
    this.chargeSessionRegrets();
    this.notePinnedHandles();
  }

  /** The pipeline's `guard` hook: false holds `kind` back with reason `regret_guard`. */
  readonly allow = (kind: string): boolean => {
    let verdict = this.verdicts.get(kind);
    if (!verdict) {
      verdict = this.guard.verdict(this.input.tenant, kind, this.input.requestFingerprint, this.now);
      this.verdicts.set(kind, verdict);
    }
    return verdict === 'allow' || verdict === 'probe';
  };

  settle(result: GuardedResult): Decision[] {
    const fires = result.rewrites ? this.countRewrites(result.rewrites) : this.countDecisions(result.decisions);
    if (this.input.sessionKey !== undefined)
      this.guard.sessions.remember(this.input.sessionKey, this.memoryOf(result, fires));
    return result.suppressedKinds
      .filter((entry) => entry.reason === 'regret_guard')
      .map((entry) => this.suppressedDecision(entry.kind));
  }

  private chargeSessionRegrets(): void {
    const { sessionKey } = this.input;
    if (sessionKey === undefined || !this.guard.sessions.has(sessionKey)) return;
    let fingerprint: string | undefined;
    const facts: TurnFacts = {
      messageCount: conversationLength(this.input.request),
      calls: this.input.calls,
      fingerprint: () => (fingerprint ??= requestHash(this.input.request)),
    };
    for (const regret of this.guard.sessions.detect(
      sessionKey,
      facts,
      this.now,
      this.guard.settings.thresholds.windowMs,
    )) {
      this.guard.regret(this.input.tenant, regret.kind, regret.firedAt, regret.signal, this.now);
    }
  }

  /** Pins carry each elision's kind and handle: a retrieve of a handle another replica emitted can be charged. */
  private notePinnedHandles(): void {
    for (const pin of this.input.pins ?? []) {
      if (typeof pin !== 'object' || pin === null) continue;
      const { kind, recipe } = pin as { kind?: unknown; recipe?: unknown };
      const handle =
        typeof recipe === 'object' && recipe !== null ? (recipe as { handle?: unknown }).handle : undefined;
      // Fired at an unknown earlier time: never a half-open probe's regret.
      if (typeof kind === 'string' && typeof handle === 'string')
        this.guard.noteHandle(handle, this.input.tenant, [kind], 0);
    }
  }

  /** Fires per rewritten output and kind, each counted once per window however many turns replay it. */
  private countRewrites(rewrites: readonly SpanRewrite[]): Map<SpanRewrite, KindFire[]> {
    const fires = new Map<SpanRewrite, KindFire[]>();
    for (const rewrite of rewrites) {
      const place =
        rewrite.handle ?? (this.input.sessionKey === undefined ? null : `${this.input.sessionKey}\u0000${rewrite.key}`);
      const kinds = rewrite.steps.map((step) => step.kind);
      // A fresh trim is also a fire of the fresh-trim lane, so its regrets can switch fresh trimming off alone.
      if (rewrite.fresh === true && rewrite.steps.some((step) => step.handle && !step.replayed))
        kinds.push(freshTrimLane);
      const kindFires = kinds.map((kind) => ({
        kind,
        firedAt: this.guard.fire(this.input.tenant, kind, place, this.isProbe(kind), this.now),
      }));
      fires.set(rewrite, kindFires);
      const elided = kinds.filter((kind, index) => kind === freshTrimLane || rewrite.steps[index]?.handle === true);
      if (rewrite.handle !== null && elided.length > 0) {
        const firedAt = Math.min(...kindFires.filter((fire) => elided.includes(fire.kind)).map((fire) => fire.firedAt));
        this.guard.noteHandle(rewrite.handle, this.input.tenant, elided, firedAt);
      }
    }
    return fires;
  }

  /** A pipeline that reports no rewrites: one fire per acting decision kind, uncounted against replays. */
  private countDecisions(decisions: readonly Decision[]): Map<SpanRewrite, KindFire[]> {
    for (const decision of decisions) {
      if (decision.estimatedTokensSaved > 0)
        this.guard.fire(this.input.tenant, decision.kind, null, this.isProbe(decision.kind), this.now);
    }
    return new Map();
  }

  private isProbe(kind: string): boolean {
    return this.verdicts.get(kind) === 'probe';
  }

  private memoryOf(result: GuardedResult, fires: ReadonlyMap<SpanRewrite, KindFire[]>): SessionMemory {
    const replaced = new Map<string, KindFire[]>();
    const cropped: KindFire[] = [];
    for (const [rewrite, kindFires] of fires) {
      const markers = kindFires.filter(
        (fire, index) =>
          markerKinds.has(fire.kind) || fire.kind === freshTrimLane || rewrite.steps[index]?.handle === true,
      );
      if (rewrite.toolName !== undefined && markers.length > 0)
        replaced.set(callSignature(rewrite.toolName, rewrite.toolInput), markers);
      for (const fire of kindFires)
        if (cropKinds.has(fire.kind) && !cropped.some((known) => known.kind === fire.kind)) cropped.push(fire);
    }
    for (const kind of result.downshiftKinds ?? []) cropped.push({ kind, firedAt: this.now });
    const pruned = new Map<string, KindFire[]>();
    for (const entry of result.prunedTools ?? [])
      for (const tool of entry.tools)
        pruned.set(tool, [...(pruned.get(tool) ?? []), { kind: entry.kind, firedAt: this.now }]);
    const messageCount = conversationLength(this.input.request);
    return {
      at: this.now,
      messageCount,
      replaced,
      crop: cropped.length > 0 ? { fingerprint: requestHash(this.input.request), messageCount, kinds: cropped } : null,
      pruned,
    };
  }

  private suppressedDecision(kind: string): Decision {
    const state =
      this.verdicts.get(kind) === 'suppress_half_open' ? 'half-open, this request is not in the probe cohort' : 'open';
    return {
      kind: 'guard_suppressed',
      summary: `regression guard held back ${kind} (${state})`,
      estimatedTokensSaved: 0,
      estimatedSavingsUsd: 0,
    };
  }
}

/** Entries of the conversation array: `messages` (chat, Messages) or `input` (Responses). */
export function conversationLength(request: Record<string, unknown>): number {
  if (Array.isArray(request.messages)) return request.messages.length;
  if (Array.isArray(request.input)) return request.input.length;
  return 0;
}

/**
 * Identifies a retry of the same request within a session: the model, the conversation length and its last two
 * entries. In an append-only session that pins the request down without serialising a 100k-token body each turn.
 */
function requestHash(request: Record<string, unknown>): string {
  const conversation = Array.isArray(request.messages)
    ? request.messages
    : Array.isArray(request.input)
      ? request.input
      : [];
  const tail = JSON.stringify([request.model ?? null, conversation.length, conversation.slice(-2)]);
  return createHash('sha256').update(tail).digest('base64url');
}
