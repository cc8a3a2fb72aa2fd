import type { PhaseId } from './phases.js';
import type { OverheadRun } from './run-overhead.js';
import type { PhaseSummary } from './summary.js';
import { round } from './summary.js';
import type { TargetId } from './targets.js';

export interface JsonSse {
  json: number;
  sse: number;
}

export interface Comparison {
  /** Saturated (closed-loop) throughput, gateway ÷ other. */
  throughputRatio: JsonSse;
  /** Server CPU per request at saturation, gateway ÷ other. */
  cpuPerRequestRatio: JsonSse;
  /** p50 at the fixed offered rate, gateway − other, ms. */
  p50DifferenceMsAtRate: JsonSse;
  /** One-at-a-time stream time to first byte (p50), gateway − other, ms. */
  ttfbDifferenceMs: number;
}

/** The targets (issue 3 item 11): null where the peer was not measured. */
export interface TargetChecks {
  throughputAtLeastHalfOfBareProxy: boolean;
  addedP50UnderOneMs: boolean;
  ttfbWithinOneMsOfBareProxy: boolean;
  throughputAtLeastFiveTimesPortkey: boolean | null;
}

export interface GatewayComparisons {
  vsBareProxy: Comparison;
  vsPortkey: Comparison | null;
  /**
   * Five times Portkey's saturated throughput, as a multiple of the bare proxy's in the same run: the share of the
   * least a proxy can do that the ≥ 5× Portkey target asks for. Above 1 no proxy doing more than the baseline meets it.
   */
  fiveTimesPortkeyVsBareProxy: JsonSse | null;
  targets: TargetChecks;
}

const GATEWAYS: readonly TargetId[] = ['gateway', 'gateway-pglite'];

export function compare(run: OverheadRun): Partial<Record<TargetId, GatewayComparisons>> {
  const bare = run.results['bare-proxy'];
  const portkey = run.results.portkey;
  const comparisons: Partial<Record<TargetId, GatewayComparisons>> = {};
  if (!bare) return comparisons;
  for (const id of GATEWAYS) {
    const gateway = run.results[id];
    if (!gateway) continue;
    const vsBareProxy = comparison(gateway, bare);
    const vsPortkey = portkey ? comparison(gateway, portkey) : null;
    comparisons[id] = {
      vsBareProxy,
      vsPortkey,
      fiveTimesPortkeyVsBareProxy: portkey ? { json: round((5 * portkey['closed-json'].throughputRps) / bare['closed-json'].throughputRps, 2), sse: round((5 * portkey['closed-sse'].throughputRps) / bare['closed-sse'].throughputRps, 2) } : null,
      targets: {
        throughputAtLeastHalfOfBareProxy: Math.min(vsBareProxy.throughputRatio.json, vsBareProxy.throughputRatio.sse) >= 0.5,
        addedP50UnderOneMs: Math.max(vsBareProxy.p50DifferenceMsAtRate.json, vsBareProxy.p50DifferenceMsAtRate.sse) < 1,
        ttfbWithinOneMsOfBareProxy: Math.abs(vsBareProxy.ttfbDifferenceMs) <= 1,
        throughputAtLeastFiveTimesPortkey: vsPortkey ? Math.min(vsPortkey.throughputRatio.json, vsPortkey.throughputRatio.sse) >= 5 : null,
      },
    };
  }
  return comparisons;
}

type Results = Record<PhaseId, PhaseSummary>;

function comparison(gateway: Results, other: Results): Comparison {
  const ratio = (phase: PhaseId, field: 'throughputRps' | 'cpuMicrosPerRequest') => round(gateway[phase][field] / other[phase][field], 2);
  const difference = (phase: PhaseId, field: 'p50Ms' | 'ttfbP50Ms') => round(gateway[phase][field] - other[phase][field], 3);
  return {
    throughputRatio: { json: ratio('closed-json', 'throughputRps'), sse: ratio('closed-sse', 'throughputRps') },
    cpuPerRequestRatio: { json: ratio('closed-json', 'cpuMicrosPerRequest'), sse: ratio('closed-sse', 'cpuMicrosPerRequest') },
    p50DifferenceMsAtRate: { json: difference('open-json', 'p50Ms'), sse: difference('open-sse', 'p50Ms') },
    ttfbDifferenceMs: difference('serial-sse', 'ttfbP50Ms'),
  };
}
