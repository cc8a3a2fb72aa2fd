import type { Clock, Coord, Db, Lifecycle, Logger } from '@gw/platform';
import { AuditStore } from './admin/audit/audit.store.js';
import { SettingsStore } from './admin/settings/settings.store.js';
import { TraceStore } from './metering/traces/trace.store.js';
import { RevokedUserStore } from './identity/users/revoked-users.store.js';
import { UserDataService, builtInUserDataSources } from './identity/users/user-data.js';
import { scimUserDataSource } from './identity/scim/scim-user-data.js';
import { seatUserDataSource } from './developer/seats/seat-user-data.js';
import { enrollmentUserDataSource } from './identity/enrollment/enrollment-user-data.js';
import { AdminKeyStore } from './admin/admin-keys/admin-key.store.js';
import type { IdentityReflectionReport, LeaseFields } from './admin/settings/health.operations.js';
import type { PrincipalResolver } from './admin/principal.js';

/** What the admin plane adds to the gateway's dependencies (GatewayDeps extends this). */
export interface AdminDeps {
  adminKeys: AdminKeyStore;
  audit: AuditStore;
  /** Runtime settings; `settings.get()` is the cheap cached read for the request path. */
  settings: SettingsStore;
  revokedUsers: RevokedUserStore;
  userData: UserDataService;
  traces: TraceStore;
  /** The console SSO session seam: resolved after the admin token and admin API keys. */
  adminSessionResolver?: PrincipalResolver;
  /** Entitlement lease fields for `/admin/health`; the metering issue provides them. */
  leaseStatus?: () => LeaseFields;
  /** SCIM reflection to billing for `/admin/health`; absent without billing. */
  identityReflection?: () => Promise<IdentityReflectionReport>;
}

/** Build the admin plane's stores; the settings cache loads now and follows Coord invalidations until shutdown. */
export async function composeAdmin(input: {
  db: Db;
  coord: Coord;
  clock: Clock;
  logger: Logger;
  lifecycle: Lifecycle;
}): Promise<AdminDeps> {
  const { db, coord, clock, logger, lifecycle } = input;
  const audit = new AuditStore(db, clock);
  const settings = new SettingsStore(db, coord, clock, logger);
  await settings.start();
  lifecycle.onShutdown(() => settings.stop());
  return {
    adminKeys: new AdminKeyStore(db, clock),
    audit,
    settings,
    revokedUsers: new RevokedUserStore(db, clock),
    userData: new UserDataService(
      db,
      clock,
      builtInUserDataSources(audit, [scimUserDataSource, seatUserDataSource, enrollmentUserDataSource]),
    ),
    traces: new TraceStore(db, clock),
  };
}
