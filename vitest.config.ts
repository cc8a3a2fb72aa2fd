import { defineConfig } from 'vitest/config';

// Tests import workspace packages through the `@gw/source` export condition, so they run against
// sources without a build step; `npm run build` type-checks and emits dist for `npm start`.
export default defineConfig({
  resolve: { conditions: ['@gw/source'] },
  ssr: { resolve: { conditions: ['@gw/source'], externalConditions: ['@gw/source'] } },
  test: {
    include: ['*/src/**/*.test.ts', '*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time, not Vitest's default of one less than the cores: most of a file's time here is spent
    // waiting on other processes (services it starts, Postgres, containers, PGlite's thread), and on a 2-core CI
    // machine one file at a time left a core idle for most of the run.
    maxWorkers: 2,
    // Settles where Postgres and Redis are (the variables, the local servers, or containers) before any test runs.
    globalSetup: ['./testkit/src/services/vitest-global-setup.ts'],
  },
});
