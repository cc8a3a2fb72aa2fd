import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '@gw/platform';
import type { CacheService } from '../cache/cache-service.js';
import type { PrefixLint } from '../cache-lint/prefix-lint.js';
import type { OptimizerMetrics } from '../health/metrics.js';
import type { RegressionGuard } from '../guard/regression-guard.js';
import type { Telemetry } from '../health/telemetry.js';
import type { HoldoutTelemetry } from '../holdout/holdout-telemetry.js';
import type { LeaseReader } from '../lease/lease-reader.js';
import type { TurnLog } from '../pipeline/turn-log.js';
import type { RecallService } from '../recall/recall-service.js';
import type { RecordStore } from '../record/record-store.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { Stash } from '../stash/stash.js';
import type { RunPipeline } from './pipeline-port.js';

/** Everything the routes share, built once in `buildApp`. */
export interface OptimizerRuntime {
  clock: Clock;
  logger: FastifyBaseLogger;
  stash: Stash;
  cache: CacheService;
  settings: SettingsStore;
  telemetry: Telemetry;
  /** The per-tenant, per-strategy regression guard of this replica. */
  guard: RegressionGuard;
  /** Per-replica cache lint: which part of clients' prompts busts the provider's cache (telemetry `cacheLint`). */
  cacheLint: PrefixLint;
  /** Per-replica audited-holdout arm counts (the contract telemetry `holdout`). */
  holdout: HoldoutTelemetry;
  /** Rewriting strategy kinds the pipeline runs; `holdout.kinds` must name one of them. Undefined: not checked. */
  strategyKinds: readonly string[] | undefined;
  metrics: OptimizerMetrics;
  recall: RecallService;
  /** Null when recording is disabled (no trace store configured). */
  records: RecordStore | null;
  runPipeline: RunPipeline;
  /** When each session's turns were answered on this replica: the pipeline's warm-or-expired cache test. */
  turns: TurnLog;
  pinKey: Buffer;
  /** Clock for `strategyTimingsMs`; unset keeps responses byte-identical for identical input (timings read 0). */
  strategyTimer: (() => number) | undefined;
  signaturesEnforced: boolean;
  /** The entitlement lease gate of the value-delivering hooks; its state is on /health. */
  lease: LeaseReader;
  /** The image implements the handle-free continuation path (`features.agentContinuationV1` on /health). */
  supportsAgentContinuation: boolean;
}
