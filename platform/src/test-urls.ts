// Where integration tests find Postgres and Redis. Nothing else in this module, so vitest's global setup
// (testkit/src/services) reads the same defaults without loading the platform.

/** Postgres URL for integration tests: `GW_TEST_DB_URL`, else the local trust-auth server's `test` database. */
export const testDbUrl = (environment: Record<string, string | undefined>) =>
  environment.GW_TEST_DB_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Redis URL for integration tests: `GW_TEST_REDIS_URL`, else the local server. */
export const testRedisUrl = (environment: Record<string, string | undefined>) =>
  environment.GW_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
