// Composition root: config → logger → store → buildApp → listen. `--help` lists the environment.
import { Lifecycle, configOrExit, createDb, createLogger, loadWhileStoreOpens, systemClock } from '@gw/platform';
import { adminTokenOf, databaseUrlOf, evidenceHelp, loadEvidenceConfig } from './config.js';
import { migrateEvidence } from './migrations.js';

const config = configOrExit({ help: evidenceHelp, load: () => loadEvidenceConfig() });
const logger = createLogger({ name: 'evidence', level: config.GW_LOG_LEVEL });
const adminToken = adminTokenOf(config);
if (!adminToken)
  logger.warn('neither GW_ENDPOINT_CONTROL_ADMIN_TOKEN nor GW_ADMIN_TOKEN is set: the admin plane is off');
// The store opens while the service's other modules load (loadWhileStoreOpens).
const [db, [{ buildApp }, { outputVaultOf }]] = await loadWhileStoreOpens(
  import.meta.url,
  createDb({
    url: databaseUrlOf(config),
    dataDir: config.GW_DATA_DIR,
    embeddedName: 'evidence',
    onError: (error) => logger.warn({ err: error }, 'database connection error'),
  }),
  Promise.all([import('./app.js'), import('./remediation/output-vault.js')]),
);
await migrateEvidence(db);
const lifecycle = new Lifecycle();
const app = await buildApp({
  db,
  logger,
  adminToken,
  outputVault: outputVaultOf(config),
  clock: systemClock,
  lifecycle,
});
lifecycle.onShutdown(() => db.close());
lifecycle.installSignalHandlers(app, logger);
const address = await app.listen({ port: config.GW_EVIDENCE_PORT, host: config.GW_EVIDENCE_HOST });
logger.info({ address, store: db.kind }, `evidence service listening on ${address}`);
process.stdout.write(`gw evidence service listening on ${address} (store: ${db.kind})\n`);
