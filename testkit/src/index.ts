export { startOpenAiSimulator, DEFAULT_OPENAI_MODELS, type OpenAiSimulatorOptions } from './openai/openai-simulator.js';
export { openAiError, type OpenAiErrorBody } from './openai/openai-errors.js';
export { embeddingVector, toBase64Float32 } from './openai/embeddings.js';
export { startAnthropicSimulator, DEFAULT_ANTHROPIC_MODELS, type AnthropicSimulatorOptions } from './anthropic/anthropic-simulator.js';
export { startWebhookSink, type WebhookSinkHandle, type WebhookSinkOptions } from './webhook-sink.js';
export type { SimulatorHandle, SimulatorOptions } from './core/simulator.js';
export { rateLimited, overloaded, serverError, type Behaviour, type ErrorSpec, type RequestPredicate } from './core/behaviour.js';
export type { RecordedRequest } from './core/request-log.js';
export type { FinishReason, ReplySpec, ToolCallSpec, UsageSpec } from './core/reply.js';
