export { startOpenAiSimulator, DEFAULT_OPENAI_MODELS, type OpenAiSimulatorOptions } from './openai/openai-simulator.js';
export { openAiError, type OpenAiErrorBody } from './openai/openai-errors.js';
export { embeddingVector, toBase64Float32 } from './openai/embeddings.js';
export {
  startAnthropicSimulator,
  DEFAULT_ANTHROPIC_MODELS,
  type AnthropicSimulatorOptions,
} from './anthropic/anthropic-simulator.js';
export { startFrozenServer, type FrozenServerHandle } from './core/frozen-server.js';
export { freeLoopbackPort } from './core/free-port.js';
export { startWebhookSink, type WebhookSinkHandle, type WebhookSinkOptions } from './webhook-sink.js';
export type { SimulatorHandle, SimulatorOptions } from './core/simulator.js';
export {
  rateLimited,
  overloaded,
  serverError,
  type Behaviour,
  type ErrorSpec,
  type RequestPredicate,
} from './core/behaviour.js';
export type { RecordedRequest } from './core/request-log.js';
export type { FinishReason, ReplySpec, ToolCallSpec, UsageSpec } from './core/reply.js';
export { simulatedFileContent, DEFAULT_FILE_CONTENT_BYTES } from './openai/file-content.js';
export {
  startBillingSimulator,
  type BillingSimulatorHandle,
  type BillingSimulatorOptions,
} from './billing/billing-simulator.js';
export type { BillingRequestRecord } from './billing/billing-router.js';
export type { BillingAccountChange } from './billing/billing-account.js';
export type { CliDenialReason, CliDirectoryEntry, CliLoginIdentity } from './billing/cli-identity.js';
export type { CliSession } from './billing/cli-sessions.js';
export type { ReceivedSupportBundle } from './billing/billing-context.js';
export type { OrgHubDirectory, OrgHubMember } from './billing/org-hub-directory.js';
export { SimulatedDevice, type DeviceKeyAlgorithm, type ProofOptions } from './device/simulated-device.js';
export {
  startIdentityProvider,
  type AccessTokenClaims,
  type IdentityProviderHandle,
  type IdentityProviderOptions,
  type IdTokenTampering,
  type MintOptions,
  type OidcClient,
  type SignedInUser,
} from './idp/identity-provider.js';
export {
  startSimulatedHost,
  type CheckInSummary,
  type SimulatedHost,
  type SimulatedHostOptions,
} from './agents/simulated-host.js';
export { answersFor, type PolicyAnswer } from './agents/answers-for.js';
export { SimulatedAgentError, type SimulatedAgentErrorCode } from './agents/agent-error.js';
export type { AgentRequestRecord } from './agents/agent-transport.js';
export type { QueryAnswer, QueryResolver, QueryRow, QueryRun } from './agents/distributed-queries.js';
export type { HostIdentity, SimulatedPlatform } from './agents/host-identity.js';
export type { OrbitAnswer, OrbitRefusal } from './agents/orbit-agent.js';
export type { ScriptOutcome, ScriptRun, ScriptRunner } from './agents/script-runner.js';
export { startAuthorizationServer, type AuthorizationServerHandle } from './oauth/authorization-server.js';
export { startOtlpReceiver, type OtlpReceiverHandle } from './otlp/otlp-receiver.js';
export type { ReceivedSpan } from './otlp/otlp-traces.js';
export { startGuardrailHook, type GuardrailAnswer, type GuardrailHookHandle } from './guardrail-hook.js';
export { startOpenAiUsageSimulator, type OpenAiUsageSimulatorOptions } from './usage-reports/openai-usage-simulator.js';
export {
  startAnthropicUsageSimulator,
  type AnthropicUsageSimulatorOptions,
} from './usage-reports/anthropic-usage-simulator.js';
export type { UsageReportSimulatorHandle } from './usage-reports/usage-report-server.js';
export type { VendorUsageDay } from './usage-reports/usage-report-days.js';
export {
  startRealtimeSimulator,
  type RealtimeSimulatorHandle,
  type RealtimeSimulatorOptions,
  type RealtimeSessionRecord,
  type RealtimeUsageSpec,
} from './openai/realtime-simulator.js';
export { startTlsTerminator, type TlsTerminatorHandle } from './tls/tls-terminator.js';
export { localhostCertificate } from './tls/localhost-certificate.js';
export { createPolicyPushSigner, type PolicyPushSigner } from './vendor/policy-push-signer.js';
export { createIsolatedPgDb, createMemoryPgliteDb, type TestDb } from './stores/isolated-pg-db.js';
export { createIsolatedRedisCoords, type IsolatedRedisCoords } from './stores/isolated-redis-coords.js';
export { coordWith } from './stores/coord-with.js';
export { testDbUrl, testRedisUrl } from '@gw/platform/test-urls';
