export { parseOptimizerOptions, OPTIMIZER_USAGE, type OptimizerBenchOptions } from './options.js';
export { runOptimizerBench, type OptimizerBenchDeps } from './run-optimizer-bench.js';
export { formatReport, toResult, type OptimizerBenchResult, type OptimizerBenchRun } from './report.js';
export { PromptCache, billUnits } from './prompt-cache.js';
export { requestPrefixes } from './turns.js';
