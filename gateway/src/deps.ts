import type { Clock, Coord, Db, Lifecycle, Logger } from '@gw/platform';
import type { Registry } from 'prom-client';
import type { GatewayConfig } from './config.js';
import type { KeyStore } from './identity/keys/key.store.js';
import type { AdminDeps } from './admin-stores.js';
import type { ProviderStore } from './providers/provider.store.js';
import type { RoutingStore } from './routing/routing.store.js';
import type { UpstreamClient } from './providers/upstream/upstream-client.js';
import type { InferenceDeps } from './inference/inference-deps.js';
import type { OptimizerClient } from './optimization/hook/optimizer-client.js';
import type { CircuitBreaker } from './optimization/hook/circuit-breaker.js';
import type { OptimizerAdmin } from './optimization/hook/optimizer-admin.js';
import type { DurableBootstrap } from './optimization/hook/durable-bootstrap.js';
import type { SpendRecorder } from './metering/spend-recorder.js';
import type { SpendWriter } from './metering/spend-writer.js';
import type { TraceWriter } from './metering/traces/trace-writer.js';
import type { InferenceMetrics } from './metering/inference-metrics.js';
import type { Governance } from './governance/governance.js';
import type { Guardrails } from './governance/guardrails/guardrails.js';
import type { ContentRetention } from './metering/traces/content-retention.js';
import type { GuardrailStore } from './governance/guardrails/guardrail.store.js';
import type { RetrievalLeaseStore } from './optimization/retrieval/lease.store.js';
import type { DesktopPolicyStore } from './policies/desktop-policy.store.js';
import type { TeamPolicyStore } from './policies/team-policy.store.js';
import type { ScimDeps } from './identity/scim/scim-deps.js';
import type { SeatDeps } from './developer/seats/seat-deps.js';
import type { EndpointDeps } from './fleet/endpoint-deps.js';
import type { McpHubMirror } from './mcp/hub/mcp-hub-mirror.js';
import type { McpConnectors } from './mcp/oauth/compose-connectors.js';
import type { EnrollmentLinkStore } from './identity/enrollment/enrollment-link.store.js';
import type { EntitlementDeps } from './billing/entitlement-deps.js';
import type { ConsoleSso } from './identity/sso/compose-console-sso.js';
import type { SpendConnectors } from './governance/spend/connectors/compose-spend-connectors.js';

/** Everything the gateway app needs, built by the composition root (main.ts) or by tests. */
export interface GatewayDeps extends AdminDeps {
  config: GatewayConfig;
  logger: Logger;
  db: Db;
  coord: Coord;
  clock: Clock;
  lifecycle: Lifecycle;
  metrics: Registry;
  keys: KeyStore;
  providers: ProviderStore;
  routing: RoutingStore;
  upstream: UpstreamClient;
  spend: SpendRecorder;
  spendWriter: SpendWriter;
  /** Sealed content for the traces of metered calls (the traces themselves are written with their spend rows). */
  traceWriter: TraceWriter;
  inferenceMetrics: InferenceMetrics;
  /** Caps, budgets, limits and usage counters (chain admission, metering listener, /v1/me, admin routes). */
  governance: Governance;
  /** Operator-configured guardrail hooks the admission stage asks (none configured: no cost). */
  guardrails: Guardrails;
  guardrailStore: GuardrailStore;
  /** Purges stored content past the deployment's retention (hourly, and when the retention is shortened). */
  contentRetention: ContentRetention;
  /** The slice the inference routes use (routing, retries, throttling included). */
  inference: InferenceDeps;
  /** Null when GW_OPTIMIZER_URL is unset. */
  optimizer: OptimizerClient | null;
  /** The pre-call hook's circuit breaker (state on /admin/health and /metrics); null without an optimizer. */
  optimizerBreaker: CircuitBreaker | null;
  /** The optimizer's admin routes, with its admin bearer (settings, purge); errors when none is configured. */
  optimizerAdmin: OptimizerAdmin;
  /** Pushes the durable store to the optimizer; null without an optimizer, its admin bearer or a Postgres store. */
  durableBootstrap: DurableBootstrap | null;
  /** Per-key retrieval lease: renewed by /mcp and the connect routes, read for `clientCanRetrieve`. */
  retrievalLease: RetrievalLeaseStore;
  /** The desktop-client policy: admin writes, cached reads for the client-facing routes. */
  desktopPolicy: DesktopPolicyStore;
  /** The organization hub's mirror of the desktop policy's remote managed MCP servers. */
  mcpHub: McpHubMirror;
  /** Authorizations of the hub's connectors (the hub's own and each developer's). */
  mcpConnectors: McpConnectors;
  /** Team skills and tool policy. */
  teamPolicies: TeamPolicyStore;
  /** Inbound SCIM: provisioning settings, users and groups. */
  scim: ScimDeps;
  /** Developer seats on the connect API and the device page. */
  seats: SeatDeps;
  /** The endpoint evidence service's admin plane; null when not configured. */
  endpoint: EndpointDeps | null;
  /** Enrollment links: minted on the admin plane, redeemed at `POST /connect/verify`. */
  enrollmentLinks: EnrollmentLinkStore;
  /** The metering lane and entitlement gate; inert when unmetered. */
  entitlement: EntitlementDeps;
  /** Console sign-in: the identity provider, the OIDC flow and console sessions. */
  consoleSso: ConsoleSso;
  /** The providers' own organisation usage reports, pulled with write-only admin keys, beside gw's spend. */
  spendConnectors: SpendConnectors;
}
