import { join } from 'node:path';
import {
  Lifecycle,
  loadMigrations,
  migrate,
  packageRoot,
  systemClock,
  type Clock,
  type Db,
  type Logger,
} from '@gw/platform';
import { Keyring, createCoord } from '@gw/platform';
import type { GatewayConfig } from './config.js';
import type { GatewayDeps } from './deps.js';
import { KeyStore } from './identity/keys/key.store.js';
import { composeAdmin } from './admin-stores.js';
import { safeAuditRecorder } from './admin/audit/audit.store.js';
import { composeConsoleSso } from './identity/sso/compose-console-sso.js';
import { composeScim } from './identity/scim/scim-deps.js';
import { composeSeats } from './developer/seats/seat-deps.js';
import { composeEndpoint } from './fleet/endpoint-deps.js';
import { McpHubMirror } from './mcp/hub/mcp-hub-mirror.js';
import { composeConnectors } from './mcp/oauth/compose-connectors.js';
import { EnrollmentLinkStore } from './identity/enrollment/enrollment-link.store.js';
import { TeamPolicyStore } from './policies/team-policy.store.js';
import { resolveKeystore } from './service/bootstrap/keystore-key.js';
import { ProviderStore } from './providers/provider.store.js';
import { RoutingStore } from './routing/routing.store.js';
import { DesktopPolicyStore } from './policies/desktop-policy.store.js';
import { UpstreamClient } from './providers/upstream/upstream-client.js';
import { ThrottleGate } from './routing/throttle-gate.js';
import { AttemptMetrics } from './routing/attempt-metrics.js';
import type { InferenceDeps } from './inference/inference-deps.js';
import { BatchStore } from './inference/batches/batch.store.js';
import { OptimizerClient } from './optimization/hook/optimizer-client.js';
import { OptimizerAdmin } from './optimization/hook/optimizer-admin.js';
import { DurableBootstrap } from './optimization/hook/durable-bootstrap.js';
import { SessionPins } from './optimization/hook/session-pins.js';
import { createOptimizerBreaker } from './optimization/hook/optimizer-breaker.js';
import { RetrievalLeaseStore } from './optimization/retrieval/lease.store.js';
import { openGatewayStore } from './service/bootstrap/gateway-store.js';
import { SpendRecorder, SpendRing } from './metering/spend-recorder.js';
import { SpendWriter } from './metering/spend-writer.js';
import { TraceWriter } from './metering/traces/trace-writer.js';
import { MeteringStage } from './chain/metering/metering.stage.js';
import { InferenceMetrics } from './metering/inference-metrics.js';
import { SpendSpill } from './metering/spend-spill.js';
import { composeGovernance } from './governance/compose-governance.js';
import { composeSpendConnectors } from './governance/spend/connectors/compose-spend-connectors.js';
import { GuardrailStore } from './governance/guardrails/guardrail.store.js';
import { Guardrails } from './governance/guardrails/guardrails.js';
import { composeEntitlement } from './billing/entitlement-deps.js';
import { createMetricsRegistry } from './metering/metrics/metrics.js';
import { otlpSettingsOf } from './metering/traces/otlp-settings.js';
import { ContentRetention } from './metering/traces/content-retention.js';

/** `gateway/migrations/`, whether this runs from sources, from `dist/` or bundled (see `packageRoot`). */
export const gatewayMigrationsDir = join(packageRoot(import.meta.url, '@gw/gateway'), 'migrations');

export async function migrateGateway(db: Db) {
  return migrate(db, 'gateway', await loadMigrations(gatewayMigrationsDir));
}

/** Build the dependency graph from config; tests pass their own db, coord or clock. */
export async function composeGateway(
  config: GatewayConfig,
  logger: Logger,
  overrides: Partial<Pick<GatewayDeps, 'db' | 'coord' | 'clock'>> = {},
): Promise<GatewayDeps> {
  const clock: Clock = overrides.clock ?? systemClock;
  const db = overrides.db ?? (await openGatewayStore(config, logger));
  await migrateGateway(db);
  const coord = overrides.coord ?? (await createCoord({ redisUrl: config.GW_REDIS_URL, prefix: 'gw', clock, logger }));
  const lifecycle = new Lifecycle();
  // Shutdown runs these in reverse: flush spend and stop subscriptions first, then close the upstream pool, Coord and the store.
  lifecycle.onShutdown(() => db.close());
  lifecycle.onShutdown(() => coord.close());
  const upstream = new UpstreamClient();
  lifecycle.onShutdown(() => upstream.close());
  const metrics = createMetricsRegistry();
  const keyring = await resolveKeystore(config.GW_KEYSTORE_KEY, !config.GW_SPEND_DB_URL, config.GW_DATA_DIR);
  const providers = new ProviderStore(db, keyring, coord, clock, logger);
  const routing = new RoutingStore(db, coord, clock, logger);
  const desktopPolicy = new DesktopPolicyStore(db, coord, clock, logger);
  await Promise.all([providers.start(), routing.start(), desktopPolicy.start()]);
  const inferenceMetrics = new InferenceMetrics(metrics);
  const spendWriter = new SpendWriter(db, logger, {
    ...inferenceMetrics.spendQueue.hooks(),
    spill: new SpendSpill(join(config.GW_DATA_DIR, 'spend-spill'), logger),
  });
  spendWriter.start();
  const spend = new SpendRecorder(new SpendRing(), spendWriter, logger);
  spend.onRecord((record) => inferenceMetrics.observe(record));
  const otlp = otlpSettingsOf(config);
  if (otlp) {
    // Loaded only when configured: the OpenTelemetry SDK is a few hundred modules a gateway without a collector
    // would load on every start for nothing (start time, README "Container images").
    const { OtlpSpanExport } = await import('./metering/traces/otlp-export.js');
    const spans = new OtlpSpanExport(otlp, logger);
    spend.onRecord((record) => spans.export(record));
    lifecycle.onShutdown(() => spans.shutdown());
  }
  lifecycle.onShutdown(() => spendWriter.stop());
  const contentKeyring = config.GW_CONTENT_KEY ? Keyring.fromHexKey(config.GW_CONTENT_KEY) : null;
  const traceWriter = new TraceWriter(db, logger, {
    keyring: contentKeyring,
    onDropped: (count) => inferenceMetrics.tracesDropped.inc(count),
  });
  lifecycle.onShutdown(() => traceWriter.stop());
  const mcpConnectors = composeConnectors({
    db,
    coord,
    keyring,
    clock,
    policy: desktopPolicy,
    allowPrivate: config.GW_ALLOW_PRIVATE_UPSTREAMS,
    publicUrl: config.GW_PUBLIC_URL,
  });
  const mcpHub = new McpHubMirror({
    policy: desktopPolicy,
    clock,
    logger,
    allowPrivate: config.GW_ALLOW_PRIVATE_UPSTREAMS,
    grants: mcpConnectors.grants,
  });
  mcpHub.start();
  lifecycle.onShutdown(() => {
    mcpHub.stop();
    return Promise.all([providers.stop(), routing.stop(), desktopPolicy.stop()]).then(() => undefined);
  });
  const admin = await composeAdmin({ db, coord, clock, logger, lifecycle });
  const consoleSso = composeConsoleSso({
    db,
    coord,
    clock,
    keyring,
    audit: safeAuditRecorder(admin.audit, logger),
    allowPrivate: config.GW_ALLOW_PRIVATE_UPSTREAMS,
    publicUrl: config.GW_PUBLIC_URL,
    deploymentId: config.GW_DEPLOYMENT_ID,
    idleMinutes: config.GW_CONSOLE_SESSION_IDLE_MINUTES,
    maxHours: config.GW_CONSOLE_SESSION_MAX_HOURS,
  });
  const contentRetention = new ContentRetention({
    db,
    clock,
    logger,
    retentionDays: () => admin.settings.get().contentRetentionDays,
  });
  contentRetention.start();
  lifecycle.onShutdown(async () => contentRetention.stop());
  const guardrailStore = new GuardrailStore(db, coord, clock, keyring, logger);
  await guardrailStore.start();
  lifecycle.onShutdown(() => guardrailStore.stop());
  const guardrails = new Guardrails({
    store: guardrailStore,
    contentMode: () => admin.settings.get().contentMode,
    allowPrivate: config.GW_ALLOW_PRIVATE_UPSTREAMS,
    metrics,
  });
  const endpoint = composeEndpoint(config, { db, keyring, clock });
  const entitlement = await composeEntitlement({
    config,
    db,
    coord,
    clock,
    logger,
    lifecycle,
    settings: admin.settings,
    endpoint,
  });
  const governance = await composeGovernance({
    db,
    coord,
    clock,
    logger,
    lifecycle,
    keyring,
    spend,
    metrics: inferenceMetrics.governance,
    authEvents: admin.audit,
    routing,
    allowPrivateWebhooks: config.GW_ALLOW_PRIVATE_UPSTREAMS,
    defaultOutputTokens: config.GW_STRICT_DEFAULT_OUTPUT_TOKENS,
  });
  const optimizer = config.GW_OPTIMIZER_URL
    ? new OptimizerClient({
        baseUrl: config.GW_OPTIMIZER_URL,
        token: config.GW_OPTIMIZER_TOKEN,
        signingKey: config.GW_OPTIMIZER_SIGNING_KEY,
        optimizeTimeoutMs: config.GW_OPTIMIZER_TIMEOUT_MS,
        callTimeoutMs: 5_000,
        clock,
        logger,
      })
    : null;
  if (optimizer) lifecycle.onShutdown(() => optimizer.close());
  const optimizerBreaker = optimizer
    ? createOptimizerBreaker({
        failureThreshold: config.GW_OPTIMIZER_BREAKER_FAILURES,
        coolOffMs: config.GW_OPTIMIZER_BREAKER_COOLOFF_MS,
        clock,
        logger,
        registry: metrics,
      })
    : null;
  const optimizerAdminToken = config.GW_OPTIMIZER_ADMIN_TOKEN ?? config.GW_ADMIN_TOKEN;
  const optimizerAdmin = new OptimizerAdmin(optimizer, optimizerAdminToken);
  // With a Postgres store, the optimizer keeps its durable stash beside the gateway's (pushed at boot and on heartbeat).
  const durableBootstrap =
    optimizer && optimizerAdminToken && config.GW_SPEND_DB_URL
      ? new DurableBootstrap({
          optimizer,
          adminToken: optimizerAdminToken,
          spendDbUrl: config.GW_SPEND_DB_URL,
          contentKey: config.GW_CONTENT_KEY,
          contentMode: () => admin.settings.get().contentMode,
          logger,
        })
      : null;
  if (durableBootstrap) {
    durableBootstrap.start();
    lifecycle.onShutdown(async () => durableBootstrap.stop());
  }
  // One lease view for both sides: /mcp and /connect renew it, the pre-call hook reads it.
  const retrievalLease = new RetrievalLeaseStore(coord, clock);
  const meter = new MeteringStage({
    spend,
    traces: traceWriter,
    contentAllowed: () => contentKeyring !== null && admin.settings.get().contentMode === 'full',
    clock,
  });
  const throttle = new ThrottleGate(coord, clock, config.GW_ANTHROPIC_THROTTLE_WAIT_MS);
  await throttle.start();
  lifecycle.onShutdown(() => throttle.stop());
  const inference: InferenceDeps = {
    providers,
    routing,
    upstream,
    meter,
    metrics: inferenceMetrics,
    throttle,
    coord,
    seatPolicy: () => admin.settings.get(),
    customHosts: { allowlist: config.GW_CUSTOM_HOST_ALLOWLIST, allowPrivate: config.GW_ALLOW_PRIVATE_UPSTREAMS },
    attemptMetrics: new AttemptMetrics(metrics),
    optimizer,
    optimizerBreaker,
    pins: new SessionPins(coord),
    batches: new BatchStore(db),
    retrievalLease,
    ...(config.GW_PUBLIC_URL ? { publicUrl: config.GW_PUBLIC_URL } : {}),
    shutdown: lifecycle.drainDeadline,
    clock,
    logger,
    sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
    random: Math.random,
  };
  return {
    ...admin,
    adminSessionResolver: consoleSso.sessions.resolver(),
    consoleSso,
    leaseStatus: entitlement.lease,
    ...(entitlement.identities
      ? { identityReflection: entitlement.identities.report.bind(entitlement.identities) }
      : {}),
    entitlement,
    config,
    logger,
    db,
    coord,
    clock,
    lifecycle,
    metrics,
    keys: new KeyStore(db, clock),
    providers,
    routing,
    upstream,
    spend,
    spendWriter,
    traceWriter,
    inferenceMetrics,
    inference,
    optimizer,
    optimizerBreaker,
    optimizerAdmin,
    durableBootstrap,
    governance,
    guardrails,
    guardrailStore,
    contentRetention,
    retrievalLease,
    desktopPolicy,
    mcpHub,
    mcpConnectors,
    teamPolicies: new TeamPolicyStore(db, clock),
    scim: composeScim(db, clock),
    seats: composeSeats(db, clock),
    endpoint,
    enrollmentLinks: new EnrollmentLinkStore(db, clock),
    spendConnectors: composeSpendConnectors({ db, keyring, clock, logger }),
  };
}
