export { buildBareProxy, type BareProxyOptions } from './baseline/bare-proxy.js';
export { runOverhead, type OverheadOptions, type OverheadRun } from './overhead/run-overhead.js';
export { formatReport, toReport, type OverheadReport } from './overhead/report.js';
export type { Comparison, GatewayComparisons, TargetChecks } from './overhead/comparisons.js';
export type { PhaseSummary } from './overhead/summary.js';
export { parseOverheadOptions } from './cli-options.js';
