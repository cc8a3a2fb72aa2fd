import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { installBaseHooks, installZodCompilers, QuietLogController, systemClock, zodOpenApiTransform, type Clock, type Db, type Lifecycle } from '@gw/platform';
import { adminRoutes } from './admin/admin.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { HostStore } from './hosts/host.store.js';
import { installErrorHandler } from './http/error-handler.js';
import { ConnectorStore } from './orgs/connector.store.js';
import { OrgStore } from './orgs/org.store.js';
import { reportRoutes } from './reports/report.routes.js';

export interface EvidenceAppDeps {
  /** The service's own store, migrated. */
  db: Db;
  /** A pino logger (platform `createLogger`). */
  logger: FastifyBaseLogger;
  /** The admin plane's bearer; none leaves `/admin/*` unregistered (404). */
  adminToken: string | undefined;
  clock?: Clock;
  lifecycle?: Lifecycle;
}

// spec 001 §8: "Evidence service JSON bodies generally: 512 KiB" (the report route narrows it to 64 KiB).
const bodyLimitBytes = 512 * 1024;

/** The endpoint evidence service's fastify app: surfaces in order, no listening, no side effects at import. */
export async function buildApp(deps: EvidenceAppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const app = Fastify({ loggerInstance: deps.logger, bodyLimit: bodyLimitBytes, logController: new QuietLogController(), routerOptions: { maxParamLength: 256 } });
  installZodCompilers(app);
  installBaseHooks(app);
  installErrorHandler(app);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'gw endpoint evidence service', version: '1', description: 'Customer-managed evidence reporting, the policy catalog, the admin plane and health (spec 001 §2.9, §4.2).' },
      components: {
        securitySchemes: {
          connectorBearer: { type: 'http', scheme: 'bearer', description: 'Evidence-connector token aer_… (minted on the admin plane, kept server-side)' },
          adminBearer: { type: 'http', scheme: 'bearer', description: 'GW_ENDPOINT_CONTROL_ADMIN_TOKEN (or GW_ADMIN_TOKEN)' },
        },
      },
    },
    transform: zodOpenApiTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const orgs = new OrgStore(deps.db, clock);
  const connectors = new ConnectorStore(deps.db, clock);
  const hosts = new HostStore(deps.db, clock);
  await app.register(healthRoutes, { db: deps.db, lifecycle: deps.lifecycle });
  await app.register(reportRoutes, { connectors, orgs, hosts, clock });
  const { adminToken } = deps;
  if (adminToken) await app.register(adminRoutes, { adminToken, orgs, connectors, hosts, clock });
  return app;
}
