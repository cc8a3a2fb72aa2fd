import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  clientTimeoutOptions,
  installBaseHooks,
  installJsonBodyParser,
  zodSchemaController,
  QuietLogController,
  systemClock,
  zodOpenApiTransform,
  type Clock,
  deliveredCheckTrust,
  type Db,
  type Lifecycle,
} from '@gw/platform';
import { adminRoutes } from './admin/admin.routes.js';
import { AgentHostStore } from './agent/agent-host.store.js';
import { AgentPolicies } from './agent/agent-policies.js';
import { DeliveredCheckStore } from './delivered/delivered-check.store.js';
import { OrgCatalog } from './delivered/org-catalog.js';
import { pinnedDeliveredCheckKeys } from './delivered/pinned-check-keys.js';
import { EnrollSecretStore } from './agent/enroll-secret.store.js';
import { orbitRoutes } from './agent/orbit.routes.js';
import { osqueryRoutes } from './agent/osquery.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { HostStore } from './hosts/host.store.js';
import { installErrorHandler } from './http/error-handler.js';
import { ConnectorStore } from './orgs/connector.store.js';
import { OrgStore } from './orgs/org.store.js';
import type { OutputVault } from './remediation/output-vault.js';
import { AutoRemediation } from './remediation/auto-remediation.js';
import { RemediationStore } from './remediation/remediation.store.js';
import { reportRoutes } from './reports/report.routes.js';

export interface EvidenceAppDeps {
  /** The service's own store, migrated. */
  db: Db;
  /** A pino logger (platform `createLogger`). */
  logger: FastifyBaseLogger;
  /** The admin plane's bearer; none leaves `/admin/*` unregistered (404). */
  adminToken: string | undefined;
  /**
   * Remediation-output retention: `GW_CONTENT_KEY` of this service, null or absent when it is off
   * (no key, or `GW_CONTENT_MODE=off`): output is then discarded unread.
   */
  outputVault?: OutputVault | null;
  clock?: Clock;
  lifecycle?: Lifecycle;
  /**
   * Tests only: the delivered-check keys to trust instead of those pinned in the image (`delivered/pinned-check-keys.ts`).
   * `main.ts` never passes it and no environment variable sets it, so a running service trusts the pinned keys alone.
   */
  deliveredCheckKeys?: Readonly<Record<string, string>>;
}

// "Evidence service JSON bodies generally: 512 KiB" (the report route narrows it to 64 KiB).
const bodyLimitBytes = 512 * 1024;

/** The endpoint evidence service's fastify app: surfaces in order, no listening, no side effects at import. */
export async function buildApp(deps: EvidenceAppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  // Agents report over the network: slow clients are cut (headers 10 s, whole request 30 s, idle 5 s).
  const app = Fastify({
    schemaController: zodSchemaController,
    loggerInstance: deps.logger,
    bodyLimit: bodyLimitBytes,
    logController: new QuietLogController(),
    routerOptions: { maxParamLength: 256 },
    ...clientTimeoutOptions(),
  });
  installJsonBodyParser(app);
  installBaseHooks(app);
  installErrorHandler(app);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'gw endpoint evidence service',
        version: '1',
        description:
          'Customer-managed evidence reporting, the built-in agent lane (osquery and orbit), allowlisted remediation, the policy catalog, the admin plane and health.',
      },
      components: {
        securitySchemes: {
          connectorBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'Evidence-connector token aer_… (minted on the admin plane, kept server-side)',
          },
          adminBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'GW_ENDPOINT_CONTROL_ADMIN_TOKEN (or GW_ADMIN_TOKEN)',
          },
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
  const secrets = new EnrollSecretStore(deps.db, clock);
  const agentHosts = new AgentHostStore(deps.db, clock);
  const remediations = new RemediationStore(deps.db, clock);
  const vault = deps.outputVault ?? null;
  const deliveredTrust = deliveredCheckTrust(deps.deliveredCheckKeys ?? pinnedDeliveredCheckKeys);
  const delivered = new DeliveredCheckStore(deps.db, clock);
  const catalog = new OrgCatalog(delivered, deliveredTrust);
  await app.register(healthRoutes, { db: deps.db, lifecycle: deps.lifecycle });
  await app.register(reportRoutes, { connectors, orgs, hosts, clock, catalog });
  await app.register(osqueryRoutes, {
    secrets,
    hosts: agentHosts,
    policies: new AgentPolicies(orgs, agentHosts, catalog),
    autoRemediation: new AutoRemediation(orgs, remediations, catalog),
  });
  await app.register(orbitRoutes, { secrets, hosts: agentHosts, remediations, vault });
  const { adminToken } = deps;
  if (adminToken)
    await app.register(adminRoutes, {
      adminToken,
      orgs,
      connectors,
      hosts,
      secrets,
      remediations,
      vault,
      clock,
      delivered: { store: delivered, catalog, trust: deliveredTrust },
    });
  return app;
}
