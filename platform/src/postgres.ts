// `@gw/platform/postgres`: the Postgres driver, apart from the main entry so that importing the platform does not
// load `pg` (services reach it through `createDb`).
export { PgDb, type PgDbOptions } from './db/pg-db.js';
