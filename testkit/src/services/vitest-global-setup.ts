import { provideTestServices } from './test-services.js';

// Vitest's global setup (vitest.config.ts): runs once before any test file. The URLs it settles are put in the
// environment, which every test worker inherits and platform's `testDbUrl`/`testRedisUrl` read, and so do the
// processes and containers the end-to-end tests start from them.
export default async function setup(): Promise<() => Promise<void>> {
  const services = await provideTestServices({ environment: process.env });
  process.env.GW_TEST_DB_URL = services.databaseUrl;
  process.env.GW_TEST_REDIS_URL = services.redisUrl;
  for (const { service, image } of services.containers)
    process.stderr.write(`test services: ${service} runs in a container from ${image} for this run\n`);
  return () => services.stop();
}
