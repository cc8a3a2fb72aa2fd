import type { FastifyInstance } from 'fastify';
import type { Clock, Coord, Db, Lifecycle, Logger } from '@gw/platform';
import { loadMigrations } from '@gw/platform';
import { safeAuditRecorder } from './admin/audit/audit.store.js';
import { gatewayMigrationsDir } from './compose.js';
import type { GatewayConfig } from './config.js';
import type { KeyStore } from './identity/keys/key.store.js';
import { adminKeyResolver } from './admin/admin-keys/admin-key.resolver.js';
import { adminKeyOperations } from './admin/admin-keys/admin-keys.operations.js';
import { auditOperations } from './admin/audit/audit.operations.js';
import { keyOperations } from './identity/keys/admin/keys.operations.js';
import { meOperations } from './developer/me/me.operations.js';
import type { AdminOperation } from './admin/operation.js';
import { adminTokenResolver, chainResolvers } from './admin/principal.js';
import { adminV1RateLimiter } from './admin/rate-limit.js';
import { registerOperations } from './admin/registrar.js';
import {
  healthOperations,
  unmeteredLease,
  type CircuitReport,
  type HealthOperationDeps,
} from './admin/settings/health.operations.js';
import { settingsOperations } from './admin/settings/settings.operations.js';
import type { ScimDeps } from './identity/scim/scim-deps.js';
import { provisioningTokenResolver } from './identity/provisioning/provisioning-token.resolver.js';
import { scimSettingsOperations } from './identity/scim/scim-settings.operations.js';
import type { SeatDeps } from './developer/seats/seat-deps.js';
import { seatOperations } from './developer/seats/seats.operations.js';
import type { AdminDeps } from './admin-stores.js';
import { traceOperations } from './metering/traces/traces.operations.js';
import { userOperations } from './identity/users/users.operations.js';
import type { ProviderStore } from './providers/provider.store.js';
import { organizationProvider } from './inference/seat/seat-upstream.js';

export type { AdminDeps } from './admin-stores.js';
export type { AdminOperation } from './admin/operation.js';

export interface AdminPlaneDeps extends AdminDeps {
  scim: Pick<ScimDeps, 'settings' | 'provisioningTokens'>;
  seats: Pick<SeatDeps, 'store' | 'directives'>;
  config: GatewayConfig;
  logger: Logger;
  db: Db;
  coord: Coord;
  clock: Clock;
  lifecycle: Lifecycle;
  keys: KeyStore;
  providers: ProviderStore;
  optimizerBreaker?: { snapshot(): CircuitReport } | null;
}

// The newest migration shipped with this build: read from disk once per process, whoever asks (health, support bundle).
let expectedSchemaVersion: Promise<number> | undefined;
const schemaVersionOfBuild = () =>
  (expectedSchemaVersion ??= loadMigrations(gatewayMigrationsDir).then(
    (migrations) => migrations.at(-1)?.version ?? 0,
  ));

/** What the health report reads (also the support bundle's). */
export async function healthDepsOf(deps: AdminPlaneDeps): Promise<HealthOperationDeps> {
  const breaker = deps.optimizerBreaker;
  return {
    db: deps.db,
    coord: deps.coord,
    lifecycle: deps.lifecycle,
    coordinationKind: deps.config.GW_REDIS_URL ? 'redis' : 'in-process',
    expectedSchemaVersion: await schemaVersionOfBuild(),
    optimizerUrl: deps.config.GW_OPTIMIZER_URL,
    optimizerToken: deps.config.GW_OPTIMIZER_TOKEN,
    lease: deps.leaseStatus ?? (() => unmeteredLease),
    now: () => Math.round(performance.now()),
    optimizerCircuit: breaker ? () => breaker.snapshot() : undefined,
    identityReflection: deps.identityReflection,
  };
}

/** The admin plane's own operations; other surfaces' operations arrive through `extraOperations`. */
async function coreOperations(deps: AdminPlaneDeps): Promise<AdminOperation[]> {
  const fleetMode = deps.config.GW_MULTI_TENANT;
  return [
    ...meOperations({ fleetMode }),
    ...keyOperations({ keys: deps.keys, clock: deps.clock, fleetMode }),
    ...adminKeyOperations({ adminKeys: deps.adminKeys, clock: deps.clock }),
    ...userOperations({ revokedUsers: deps.revokedUsers, userData: deps.userData, keys: deps.keys, fleetMode }),
    ...settingsOperations({
      settings: deps.settings,
      fleetMode,
      organizationKeyStored: () => organizationProvider(deps.providers) !== null,
    }),
    ...scimSettingsOperations({ settings: deps.scim.settings }),
    ...seatOperations({ seats: deps.seats.store, directives: deps.seats.directives, fleetMode }),
    ...healthOperations(await healthDepsOf(deps)),
    ...auditOperations({ audit: deps.audit }),
    ...traceOperations({ traces: deps.traces, contentKey: deps.config.GW_CONTENT_KEY }),
  ];
}

/**
 * Mount the admin plane: one operation table (core plus `extraOperations` from other surfaces) on `/admin/*` and
 * `/admin/v1/*`, with the principal chain (admin token → `aak_` keys → console sessions), the v1 rate limit, fleet
 * mode and the automatic audit of every write.
 */
export async function registerAdminPlane(
  app: FastifyInstance,
  deps: AdminPlaneDeps,
  extraOperations: AdminOperation[] = [],
): Promise<void> {
  const principals = chainResolvers([
    adminTokenResolver(deps.config.GW_ADMIN_TOKEN),
    adminKeyResolver(deps.adminKeys),
    provisioningTokenResolver(deps.scim.provisioningTokens),
    ...(deps.adminSessionResolver ? [deps.adminSessionResolver] : []),
  ]);
  await registerOperations(app, [...(await coreOperations(deps)), ...extraOperations], {
    principals,
    rateLimit: adminV1RateLimiter(deps.coord, deps.logger),
    audit: safeAuditRecorder(deps.audit, deps.logger),
    fleetMode: deps.config.GW_MULTI_TENANT,
  });
}
