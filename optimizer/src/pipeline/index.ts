export { runPipeline } from './run-pipeline.js';
export type {
  Decision,
  PipelineDeps,
  PipelineInput,
  PipelineResult,
  PipelineSettings,
  PipelineStash,
  SpanRewrite,
  SuppressedKind,
  SuppressionReason,
} from './types.js';
export type { SpanPin, ThrashGuardPin, WatermarkPin } from './pins.js';
export { TurnLog, type TurnTimes } from './turn-log.js';
export { strategyKinds, spanStrategyKinds, isStrategyKind, type StrategyKind } from '../strategies/types.js';
export { countTokens, countTokensExact, estimateTokensOfStrings } from '../tokens/count-tokens.js';
export { buildRequestView, detectRequestFormat } from '../format/build-request-view.js';
export type { RequestFormat, RequestView, ToolOutputSpan } from '../format/request-view.js';
export { isRetrieveDeclaration, retrieveToolName } from '../format/retrieve-declaration.js';
export { windowLimitTokens, fallbackContextTokens } from '../strategies/window-budget.js';
