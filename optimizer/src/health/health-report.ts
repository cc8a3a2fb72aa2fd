import type { HealthReport } from '@gw/contracts';
import { guardSettingsOf } from '../guard/guard-thresholds.js';
import type { OptimizerRuntime } from '../routes/runtime.js';
import type { OptimizerHealthReport } from './health-report.schema.js';

/** Below this many foreign optimize calls the record count says nothing yet. */
const minimumForeignCalls = 20;

/** What the health report reads of the runtime. */
export type HealthSource = Pick<
  OptimizerRuntime,
  | 'clock'
  | 'guard'
  | 'lease'
  | 'records'
  | 'settings'
  | 'signaturesEnforced'
  | 'stash'
  | 'supportsAgentContinuation'
  | 'telemetry'
>;

/**
 * GET /health blocks. `reporting` compares optimize calls made without a gateway (which should be
 * recorded through /v1/record) with the rows recorded since start; it is advisory and never refuses a request.
 */
export function healthReport(runtime: HealthSource): OptimizerHealthReport {
  const { telemetry } = runtime;
  const config = runtime.settings.current();
  const lanes = runtime.guard.stateCounts(runtime.clock.now());
  return {
    status: 'ok',
    protocolVersion: 1,
    requestSignatures: runtime.signaturesEnforced ? 'enforced' : 'off',
    callers: {
      gateway: telemetry.gatewayCalls,
      foreign: telemetry.foreignCalls,
      firstForeignAt: telemetry.firstForeignAt,
      lastForeignAt: telemetry.lastForeignAt,
    },
    reporting: {
      state: reportingState(runtime),
      calls: telemetry.gatewayCalls + telemetry.foreignCalls,
      rows: runtime.records?.rowsSinceStart ?? 0,
      foreignCalls: telemetry.foreignCalls,
      checkedAt: new Date(runtime.clock.now()).toISOString(),
    },
    retrievalStore: { state: runtime.stash.state(), durable: runtime.stash.durableDb?.kind ?? null },
    features: { persistentTranscriptPolicyV1: true, agentContinuationV1: runtime.supportsAgentContinuation },
    guard: {
      enabled: guardSettingsOf(config).enabled,
      open: lanes.open,
      halfOpen: lanes.half_open,
      closed: lanes.closed,
    },
    holdout: {
      enabled: config.holdout?.enabled ?? false,
      fraction: config.holdout?.fraction ?? null,
      kinds: config.holdout?.kinds ?? [],
    },
    lease: { state: runtime.lease.current().state },
  };
}

function reportingState(runtime: Pick<OptimizerRuntime, 'records' | 'telemetry'>): HealthReport['reporting']['state'] {
  const { telemetry, records } = runtime;
  if (!records) return 'no_store';
  if (telemetry.gatewayCalls + telemetry.foreignCalls === 0) return 'not_optimizing';
  if (telemetry.foreignCalls < minimumForeignCalls) return 'insufficient_data';
  // Each foreign call should leave one record row; allow a tenth for calls still in flight or retried.
  return records.rowsSinceStart >= telemetry.foreignCalls * 0.9 ? 'reported' : 'underreported';
}
