// Composition root: config → logger → stores → buildApp → listen. `--help` lists the environment.
import {
  Lifecycle,
  configOrExit,
  createCoord,
  createDb,
  createLogger,
  loadWhileStoreOpens,
  systemClock,
  trustedLeaseKeys,
} from '@gw/platform';
import { loadOptimizerConfig, optimizerHelp } from './config.js';
import { migrateOptimizer } from './stash/migrations.js';

const config = configOrExit({ help: optimizerHelp, load: () => loadOptimizerConfig() });
const logger = createLogger({ name: 'optimizer', level: config.GW_LOG_LEVEL });
if (!config.GW_OPTIMIZER_TOKEN && config.GW_OPTIMIZER_TENANT_TOKENS.length === 0)
  logger.warn('GW_OPTIMIZER_TOKEN is not set: the hook routes accept any caller');
const openDb = async (url: string | undefined) => {
  const db = await createDb({
    url,
    dataDir: config.GW_DATA_DIR,
    embeddedName: 'optimizer',
    onError: (error) => logger.warn({ err: error }, 'database connection error'),
  });
  await migrateOptimizer(db);
  return db;
};
// No GW_SPEND_DB_URL: the embedded store under GW_DATA_DIR keeps handles working out of the box (ARCHITECTURE "State").
// It opens while the service's other modules load (loadWhileStoreOpens).
const [
  stashDb,
  [
    { buildApp },
    { StoredLeaseReader },
    { runPipeline, strategyKinds },
    { CoordReplayStore, MemoryReplayStore },
    { SqlSpendAppender },
  ],
] = await loadWhileStoreOpens(
  import.meta.url,
  openDb(config.GW_SPEND_DB_URL),
  Promise.all([
    import('./app.js'),
    import('./lease/stored-lease-reader.js'),
    import('./pipeline/index.js'),
    import('./signing/replay-store.js'),
    import('./record/spend-appender.js'),
  ]),
);
const traceUrl = config.GW_OBSERVABILITY_DB_URL ?? config.GW_SPEND_DB_URL;
const traceDb = traceUrl === undefined ? null : traceUrl === config.GW_SPEND_DB_URL ? stashDb : await openDb(traceUrl);
// Replicas share used signatures through Redis; one replica keeps them in process.
const coord = config.GW_REDIS_URL ? await createCoord({ redisUrl: config.GW_REDIS_URL, logger }) : null;
const replayStore = coord ? new CoordReplayStore(coord) : new MemoryReplayStore(systemClock);
const durable = { db: stashDb, source: config.GW_SPEND_DB_URL ? ('env' as const) : ('embedded' as const) };
// Rule 9: with a shared spend store, recorded calls also land in the gateway's spend table.
const spendAppender = config.GW_SPEND_DB_URL ? new SqlSpendAppender(stashDb) : undefined;
// The lease lives in the gateway's shared store under its deployment id; without both there is no
// lease to read (attach mode, no gateway), which is served normally.
const leaseReader =
  config.GW_SPEND_DB_URL && config.GW_DEPLOYMENT_ID
    ? new StoredLeaseReader({
        db: stashDb,
        deploymentId: config.GW_DEPLOYMENT_ID,
        trust: trustedLeaseKeys(config.GW_LEASE_VERIFY_KEY).trust,
        clock: systemClock,
        logger,
      })
    : null;
if (config.GW_DEPLOYMENT_ID && !config.GW_SPEND_DB_URL)
  logger.warn('GW_DEPLOYMENT_ID is set without GW_SPEND_DB_URL: the entitlement lease is not checked');
await leaseReader?.start();
const app = await buildApp({
  config,
  logger,
  runPipeline,
  strategyKinds,
  supportsAgentContinuation: true,
  durable,
  traceDb,
  openDb,
  replayStore,
  ...(spendAppender ? { spendAppender } : {}),
  ...(leaseReader ? { leaseReader } : {}),
});
const lifecycle = new Lifecycle();
if (coord) lifecycle.onShutdown(() => coord.close());
lifecycle.onShutdown(() => stashDb.close());
if (traceDb && traceDb !== stashDb) lifecycle.onShutdown(() => traceDb.close());
// Cleanups run in reverse: the refresh timer stops before the store closes.
if (leaseReader) lifecycle.onShutdown(async () => leaseReader.stop());
lifecycle.installSignalHandlers(app, logger);
const address = await app.listen({ port: config.GW_OPTIMIZER_PORT, host: config.GW_OPTIMIZER_HOST });
logger.info(
  { address, retrievalStore: stashDb.kind, recording: traceDb !== null },
  `optimizer listening on ${address}`,
);
process.stdout.write(`gw optimizer listening on ${address} (retrieval store: ${stashDb.kind})\n`);
