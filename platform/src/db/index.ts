export type { Db, Queryable, QueryResult } from './db.js';
export { PgDb, type PgDbOptions } from './pg-db.js';
export { PgliteDb } from './pglite-db.js';
export { createDb, type CreateDbOptions } from './create-db.js';
export {
  loadMigrations,
  migrate,
  migrationStatus,
  splitStatements,
  type Migration,
  type MigrationStatus,
} from './migrations.js';
export { createIsolatedPgDb, createMemoryPgliteDb, testDbUrl, type TestDb } from './test-db.js';
export { isDataRejection, isStoreFault, isStoreUnavailable, sqlStateOf } from './store-errors.js';
