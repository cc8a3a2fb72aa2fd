import type { OptimizeCapabilities } from '@gw/contracts';
import type { JsonObject } from '../format/json-value.js';
import type { RequestView } from '../format/request-view.js';
import { strategyFor } from '../strategies/registry.js';
import { strategyKinds, type ElisionMode, type StrategyKind } from '../strategies/types.js';
import type { CacheMode } from './cache-mode.js';
import { isKindEnabled } from './kill-switch.js';
import type { Lane } from './lanes.js';
import type { PipelineDeps, PipelineInput, SuppressionReason } from './types.js';

export interface KindPolicy {
  /** Fresh decisions of this kind may run. */
  readonly run: boolean;
  readonly mode: ElisionMode;
  /** Why it may not, when that is a suppression the response reports. */
  readonly reason: SuppressionReason | undefined;
}

export interface RunFlags {
  /** Pin thrash cooloff: cache-busting (handle-emitting) decisions are suppressed this turn. */
  readonly thrash: boolean;
  /** Upstream caches, the session sends no pins and handles are not stable: handle rewrites would bust it. */
  readonly cacheGuard: boolean;
}

/** Everything the steps of one request share: policies, timings, failures and suppressions. */
export class RunContext {
  readonly timings = new Map<StrategyKind, number>();
  readonly failed = new Set<StrategyKind>();
  readonly suppressed = new Map<StrategyKind, SuppressionReason>();
  /** Kinds held back on a span decided this turn: remembered in the watermark (`prefix_stabilizer` later). */
  readonly held = new Set<StrategyKind>();
  private readonly policies = new Map<StrategyKind, KindPolicy>();
  private readonly enabledKinds: ReadonlySet<string> | undefined;
  private readonly disabledKinds: ReadonlySet<string>;
  readonly metadata: JsonObject;
  readonly capabilities: OptimizeCapabilities;

  constructor(
    readonly input: PipelineInput,
    readonly deps: PipelineDeps,
    readonly view: RequestView,
    readonly lane: Lane,
    readonly cacheMode: CacheMode,
  ) {
    this.enabledKinds = input.enabledKinds ? new Set(input.enabledKinds) : undefined;
    this.disabledKinds = new Set(input.disabledKinds ?? []);
    this.metadata = input.metadata ?? {};
    this.capabilities = input.capabilities ?? {};
  }

  private flags: RunFlags = { thrash: false, cacheGuard: false };
  /** Pins are read and written this turn: verdicts on settled spans are frozen once made. */
  pinning = false;

  setFlags(flags: RunFlags): void {
    this.flags = flags;
    this.policies.clear();
  }

  /** Enabled by `enabledKinds` and the kill switches; pins of a killed kind are declined too. */
  isEnabled(kind: StrategyKind): boolean {
    if (this.enabledKinds && !this.enabledKinds.has(kind)) return false;
    if (this.disabledKinds.has(kind)) return false;
    const scope = {
      endpoint: this.input.endpoint,
      model: this.view.model,
      user: typeof this.metadata.user === 'string' ? this.metadata.user : undefined,
      team: typeof this.metadata.team === 'string' ? this.metadata.team : undefined,
    };
    return isKindEnabled(this.input.settings?.strategies, kind, scope);
  }

  private computePolicy(kind: StrategyKind): KindPolicy {
    const strategy = strategyFor(kind);
    const degrade = kind === 'window_budget' ? this.lane.windowDegrade : this.lane.degrade;
    const mode: ElisionMode = degrade === 'in_place' ? 'in_place' : 'handle';
    if (!this.isEnabled(kind) || this.failed.has(kind)) return { run: false, mode, reason: undefined };
    if (strategy.degradable && degrade === 'skip') return { run: false, mode, reason: 'no_retrieve' };
    if (this.deps.guard && !this.deps.guard(kind)) return { run: false, mode, reason: 'regret_guard' };
    // Window fitting is not optional: an oversized request fails upstream, so cache protection yields to it.
    const bustsCache = strategy.degradable && mode === 'handle' && kind !== 'window_budget';
    if (bustsCache && this.flags.thrash) return { run: false, mode, reason: 'pin_thrash' };
    if (bustsCache && this.flags.cacheGuard) return { run: false, mode, reason: 'cache_guard' };
    return { run: true, mode, reason: undefined };
  }

  policy(kind: StrategyKind): KindPolicy {
    let policy = this.policies.get(kind);
    if (!policy) {
      policy = this.computePolicy(kind);
      this.policies.set(kind, policy);
    }
    return policy;
  }

  suppress(kind: StrategyKind, reason: SuppressionReason): void {
    if (!this.suppressed.has(kind)) this.suppressed.set(kind, reason);
    if (reason === 'pin_thrash' || reason === 'regret_guard' || reason === 'cache_guard') this.held.add(kind);
  }

  /**
   * Runs one strategy call, timing it and isolating failures: a strategy that throws is skipped for the rest of
   * the request and recorded, never failing it.
   */
  attempt<T>(kind: StrategyKind, action: () => T): T | undefined {
    if (this.failed.has(kind)) return undefined;
    const timer = this.deps.timer;
    const started = timer ? timer() : 0;
    try {
      return action();
    } catch {
      this.failed.add(kind);
      this.policies.delete(kind);
      return undefined;
    } finally {
      if (timer) this.timings.set(kind, (this.timings.get(kind) ?? 0) + (timer() - started));
      else if (!this.timings.has(kind)) this.timings.set(kind, 0);
    }
  }

  timingsRecord(): Record<string, number> {
    const record: Record<string, number> = {};
    for (const kind of strategyKinds) {
      const elapsed = this.timings.get(kind);
      if (elapsed !== undefined) record[kind] = Math.round(elapsed * 1000) / 1000;
    }
    return record;
  }

  numberMetadata(key: string): number | undefined {
    const value = this.metadata[key];
    return typeof value === 'number' ? value : undefined;
  }
}
