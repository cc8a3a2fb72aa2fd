export { buildApp, type AppConfig, type OptimizerAppDeps } from './app.js';
export { loadOptimizerConfig, optimizerHelp, type OptimizerServiceConfig } from './config.js';
export { optimizerError } from './errors.js';
export { signRequest, signaturePayload, signatureHeader } from '@gw/platform';
export { SignatureVerifier, parseVerifyKey, signatureWindowMs } from './signing/verify-signature.js';
export { MemoryReplayStore, CoordReplayStore, type ReplayStore } from './signing/replay-store.js';
export { migrateOptimizer, optimizerMigrationsDirectory } from './stash/migrations.js';
export type { LeaseReader, LeaseVerdict } from './lease/lease-reader.js';
export type { Ranker } from './recall/ranker.js';
export type { RunPipeline, PipelineInput, PipelineResult, PipelineDeps } from './routes/pipeline-port.js';
// The real pipeline and its tokenizer, for composition roots other than main (the optimizer benchmark).
export { runPipeline, strategyKinds, countTokensExact } from './pipeline/index.js';
