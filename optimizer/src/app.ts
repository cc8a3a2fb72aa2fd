import { createHash, hkdfSync } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  clientTimeoutOptions,
  defaultClientTimeouts,
  type Clock,
  type Db,
  installBaseHooks,
  zodSchemaController,
  QuietLogController,
  systemClock,
  zodOpenApiTransform,
} from '@gw/platform';
import { CacheService } from './cache/cache-service.js';
import { shadowFlushMs } from './cache/shadow-counters.js';
import { PrefixLint } from './cache-lint/prefix-lint.js';
import { SemanticCache } from './cache/semantic-cache.js';
import type { OptimizerServiceConfig } from './config.js';
import { guardSettingsOf } from './guard/guard-thresholds.js';
import { RegressionGuard } from './guard/regression-guard.js';
import { OptimizerMetrics } from './health/metrics.js';
import { Telemetry } from './health/telemetry.js';
import { HoldoutTelemetry } from './holdout/holdout-telemetry.js';
import { installErrorHandler } from './http/error-handler.js';
import { installHookGates } from './http/hook-gates.js';
import { installRawJsonParser } from './http/raw-json-parser.js';
import { noLeaseReader, type LeaseReader } from './lease/lease-reader.js';
import { Bm25Ranker } from './recall/bm25-ranker.js';
import type { Ranker } from './recall/ranker.js';
import { RecallService } from './recall/recall-service.js';
import { RecordStore, type SpendAppender } from './record/record-store.js';
import { adminRoutes } from './routes/admin.routes.js';
import { hookRoutes } from './routes/hooks.routes.js';
import { optimizeRoutes } from './routes/optimize.routes.js';
import type { RunPipeline } from './routes/pipeline-port.js';
import { retrieveRoutes } from './routes/retrieve.routes.js';
import type { OptimizerRuntime } from './routes/runtime.js';
import { serviceRoutes } from './routes/service.routes.js';
import { SettingsStore, settingsRefreshMs } from './settings/settings-store.js';
import { MemoryReplayStore, type ReplayStore } from './signing/replay-store.js';
import { SignatureVerifier } from './signing/verify-signature.js';
import { DurableManager, type DurableSource } from './stash/durable-manager.js';
import { Stash } from './stash/stash.js';
import { outputStrategyKinds } from './output/run-output-stage.js';
import { TurnLog } from './pipeline/turn-log.js';

export type AppConfig = Pick<
  OptimizerServiceConfig,
  | 'GW_OPTIMIZER_TOKEN'
  | 'GW_OPTIMIZER_TENANT_TOKENS'
  | 'GW_ADMIN_TOKEN'
  | 'GW_CONTENT_KEY'
  | 'GW_OPTIMIZER_MAX_BODY_BYTES'
  | 'GW_OPTIMIZER_VERIFY_KEY'
  | 'GW_OPTIMIZER_STASH_WRITE_TIMEOUT_MS'
>;

export interface OptimizerAppDeps {
  config: AppConfig;
  /** A pino logger (platform `createLogger`). */
  logger: FastifyBaseLogger;
  runPipeline: RunPipeline;
  clock?: Clock;
  /** The durable stash store (migrated) and where it came from; none means `unconfigured`. */
  durable?: { db: Db | null; source: DurableSource };
  /** The trace store (migrated); recording is enabled exactly when this is set. */
  traceDb?: Db | null;
  /** Opens and migrates a Postgres store pushed by the gateway's durable bootstrap. */
  openDb?: (url: string) => Promise<Db>;
  replayStore?: ReplayStore;
  leaseReader?: LeaseReader;
  ranker?: Ranker;
  spendAppender?: SpendAppender;
  supportsAgentContinuation?: boolean;
  /**
   * Monotonic clock for per-strategy timings (for example `performance.now`). Off by default: real timings would
   * make two identical requests answer different bytes; latency is on /metrics instead.
   */
  strategyTimer?: () => number;
  /** The rewriting strategy kinds `runPipeline` runs; settings refuse `holdout.kinds` naming anything else. */
  strategyKinds?: readonly string[];
}

const stashSweepMs = 10 * 60_000;

/** The optimizer's fastify app: surfaces registered in order, no listening, no side effects at import. */
export async function buildApp(deps: OptimizerAppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  // Slow clients are cut (headers 10 s, whole request 30 s); idle connections stay longer than the gateway's pool keeps
  // them (30 s), so the gateway never reuses a socket the optimizer is closing.
  const app = Fastify({
    schemaController: zodSchemaController,
    loggerInstance: deps.logger,
    bodyLimit: config.GW_OPTIMIZER_MAX_BODY_BYTES,
    logController: new QuietLogController(),
    ...clientTimeoutOptions({ ...defaultClientTimeouts, keepAliveTimeoutMs: 72_000 }),
  });
  installBaseHooks(app);
  installRawJsonParser(app);
  installErrorHandler(app, config.GW_OPTIMIZER_MAX_BODY_BYTES);

  const metrics = new OptimizerMetrics();
  const settings = new SettingsStore(clock);
  const stash = new Stash({
    clock,
    writeTimeoutMs: config.GW_OPTIMIZER_STASH_WRITE_TIMEOUT_MS,
    onWrite: (result) => metrics.stashWrites.inc({ result }),
  });
  const durable = new DurableManager({
    stash,
    settings,
    logger: deps.logger,
    openDb: deps.openDb ?? (() => Promise.reject(new Error('durable bootstrap is not wired'))),
    initial: deps.durable ?? { db: null, source: 'none' },
    contentKey: config.GW_CONTENT_KEY ?? null,
  });
  await settings.attach(deps.durable?.db ?? null);
  const secret = serviceSecret(config);
  const runtime: OptimizerRuntime = {
    clock,
    logger: deps.logger,
    stash,
    cache: new CacheService(new SemanticCache({ clock }), derive(secret, 'gw-optimizer-cache-key-v1')),
    settings,
    telemetry: new Telemetry(),
    guard: regressionGuard(settings, metrics, deps.logger),
    holdout: new HoldoutTelemetry(),
    cacheLint: new PrefixLint({
      onBust: (region, tokens) => {
        metrics.cacheLintBusts.inc({ region });
        metrics.cacheLintTokens.inc({ region }, tokens);
      },
    }),
    // The output stage's kinds are switched and held out like the pipeline's.
    strategyKinds: deps.strategyKinds ? [...deps.strategyKinds, ...outputStrategyKinds] : undefined,
    metrics,
    recall: new RecallService(stash, deps.ranker ?? new Bm25Ranker()),
    records: deps.traceDb ? new RecordStore(deps.traceDb, durable, clock, deps.spendAppender) : null,
    runPipeline: deps.runPipeline,
    turns: new TurnLog(),
    pinKey: derive(secret, 'gw-optimizer-pin-span-hash-v1'),
    strategyTimer: deps.strategyTimer,
    signaturesEnforced: config.GW_OPTIMIZER_VERIFY_KEY !== undefined,
    lease: deps.leaseReader ?? noLeaseReader,
    supportsAgentContinuation: deps.supportsAgentContinuation ?? false,
  };

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'gw optimizer — Optimizer Protocol v1',
        version: '1',
        description: 'Hooks the gateway calls, retrieval, recall, record and runtime settings (spec 001).',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: zodOpenApiTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(serviceRoutes(runtime));
  await app.register(async (hooks) => {
    installHookGates(hooks, {
      tokens: { shared: config.GW_OPTIMIZER_TOKEN, tenants: config.GW_OPTIMIZER_TENANT_TOKENS },
      verifier: config.GW_OPTIMIZER_VERIFY_KEY
        ? new SignatureVerifier(config.GW_OPTIMIZER_VERIFY_KEY, clock, deps.replayStore ?? new MemoryReplayStore(clock))
        : null,
      lease: runtime.lease,
    });
    await hooks.register(optimizeRoutes(runtime));
    await hooks.register(retrieveRoutes(runtime));
    await hooks.register(hookRoutes(runtime));
  });
  await app.register(adminRoutes(runtime, durable, config.GW_ADMIN_TOKEN));

  installLifecycle(app, runtime, durable);
  return app;
}

/** The guard reads its thresholds from the live settings; transitions and regrets go to metrics and the log. */
function regressionGuard(
  settings: SettingsStore,
  metrics: OptimizerMetrics,
  logger: FastifyBaseLogger,
): RegressionGuard {
  return new RegressionGuard({
    settings: () => guardSettingsOf(settings.current()),
    onTransition: (transition) => {
      metrics.guardTransitions.inc({ kind: transition.kind, to: transition.to });
      logger.info(
        {
          tenant: transition.tenant,
          kind: transition.kind,
          from: transition.from,
          to: transition.to,
          reason: transition.reason,
        },
        'regression guard transition',
      );
    },
    onRegret: (signal, kind) => metrics.guardRegrets.inc({ signal, kind }),
  });
}

/**
 * Shared-config refresh (15 s), the shadow counters' flush (30 s; a last one at shutdown, before the
 * store closes, so a replica going away leaves its counts in the fleet total) and the expired-row sweep, running
 * only while the app is up.
 */
function installLifecycle(
  app: FastifyInstance,
  runtime: Pick<OptimizerRuntime, 'cache' | 'logger' | 'settings' | 'stash'>,
  durable: DurableManager,
): void {
  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    timers.push(setInterval(() => void runtime.settings.refresh(), settingsRefreshMs).unref());
    timers.push(setInterval(() => void runtime.cache.shadow.flush(runtime.stash.durableDb), shadowFlushMs).unref());
    timers.push(
      setInterval(() => {
        runtime.stash.sweep().catch((error: unknown) => runtime.logger.warn({ err: error }, 'stash sweep failed'));
      }, stashSweepMs).unref(),
    );
  });
  app.addHook('onClose', async () => {
    timers.forEach((timer) => clearInterval(timer));
    await runtime.cache.shadow.flush(runtime.stash.durableDb);
    await durable.close();
  });
}

/**
 * Root of the keys that must agree across replicas and restarts (cache-key MACs, pin fingerprints): the content
 * key when there is one, else the optimizer token. Neither set: a fixed label, acceptable because both uses are
 * consistency checks, not secrets.
 */
function serviceSecret(config: AppConfig): Buffer {
  const material = config.GW_CONTENT_KEY ?? config.GW_OPTIMIZER_TOKEN ?? 'gw-optimizer-unkeyed';
  return createHash('sha256').update(material).digest();
}

function derive(secret: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), label, 32));
}
