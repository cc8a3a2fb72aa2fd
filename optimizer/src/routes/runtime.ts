import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '@gw/platform';
import type { CacheService } from '../cache/cache-service.js';
import type { OptimizerMetrics } from '../health/metrics.js';
import type { Telemetry } from '../health/telemetry.js';
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
  metrics: OptimizerMetrics;
  recall: RecallService;
  /** Null when recording is disabled (no trace store configured). */
  records: RecordStore | null;
  runPipeline: RunPipeline;
  pinKey: Buffer;
  /** Clock for `strategyTimingsMs`; unset keeps responses byte-identical for identical input (timings read 0). */
  strategyTimer: (() => number) | undefined;
  signaturesEnforced: boolean;
  /** The image implements the handle-free continuation path (`features.agentContinuationV1` on /health). */
  supportsAgentContinuation: boolean;
}
