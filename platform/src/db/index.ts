export type { Db, Queryable, QueryResult } from './db.js';
// The drivers themselves are the subpaths `@gw/platform/postgres` and `@gw/platform/pglite`: `createDb` loads the
// one it needs, so importing the platform loads neither.
export type { PgDbOptions } from './pg-db.js';
export { createDb, type CreateDbOptions } from './create-db.js';
export {
  loadMigrations,
  migrate,
  migrationStatus,
  splitStatements,
  type Migration,
  type MigrationStatus,
} from './migrations.js';
export { isDataRejection, isStoreFault, isStoreUnavailable, sqlStateOf } from './store-errors.js';
