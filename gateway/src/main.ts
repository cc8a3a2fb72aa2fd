import { ConfigError, createLogger, loadWhileStoreOpens } from '@gw/platform';
import { resolveAdminToken } from './service/bootstrap/admin-token.js';
import { openGatewayStore } from './service/bootstrap/gateway-store.js';
import { configHelp, readConfig } from './config.js';

// Composition root: config → logger → deps → app → listen. Nothing else reads the environment.
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(configHelp);
  process.exit(0);
}

try {
  const parsed = readConfig(process.env);
  const logger = createLogger({ name: 'gw-gateway', level: parsed.GW_LOG_LEVEL });
  // The store opens while the rest of the gateway's modules load: opening the embedded store (unpacking its template,
  // compiling and starting PGlite) is the largest part of a first start, and it runs off this thread.
  const [db, [{ composeGateway }, { buildApp }, { loadTokenizer }, adminToken]] = await loadWhileStoreOpens(
    import.meta.url,
    openGatewayStore(parsed, logger),
    Promise.all([
      import('./compose.js'),
      import('./app.js'),
      import('./providers/pricing/count-tokens.js'),
      resolveAdminToken(parsed.GW_ADMIN_TOKEN, parsed.GW_DATA_DIR),
    ]),
  );
  const config = Object.freeze({ ...parsed, GW_ADMIN_TOKEN: adminToken.token });
  const deps = await composeGateway(config, logger, { db });
  const app = await buildApp(deps);
  deps.lifecycle.installSignalHandlers(app, logger, {
    delayMs: config.GW_DRAIN_DELAY_MS,
    timeoutMs: config.GW_DRAIN_TIMEOUT_MS,
  });
  const address = await app.listen({ port: config.GW_PORT, host: config.GW_HOST });
  // Loaded after the listener is up, off the start's critical path (see loadTokenizer).
  loadTokenizer().catch((error: unknown) => logger.error({ err: error }, 'the o200k tokenizer failed to load'));
  process.stdout.write(
    `gw gateway listening on ${address} (store: ${deps.db.kind}, coordination: ${config.GW_REDIS_URL ? 'redis' : 'in-process'})\n`,
  );
  if (adminToken.origin === 'generated')
    process.stdout.write(`Generated admin token (shown once, saved to ${adminToken.path}):\n  ${adminToken.token}\n`);
  if (adminToken.origin === 'stored') process.stdout.write(`Admin token: stored in ${adminToken.path}\n`);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  throw error;
}
