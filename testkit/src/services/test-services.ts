import { testDbUrl, testRedisUrl } from '@gw/platform/test-urls';
import { answersAt } from './answers-at.js';
import { containerSettingsFrom, type ServiceContainer } from './container-settings.js';

// The one place that decides where the suite's Postgres and Redis are (README "Tests"). In order, per service:
// the variable (`GW_TEST_DB_URL`, `GW_TEST_REDIS_URL`) as given; the local server at the default address when it
// answers (CI, a workstation with both installed: two TCP connects, nothing else loaded); otherwise a throwaway
// container started with testcontainers on Docker or Podman, removed when the run ends.

export interface TestServicesOptions {
  /** gw's variables: the URLs above, and the container settings (`GW_TEST_POSTGRES_IMAGE`, …). */
  environment: Record<string, string | undefined>;
  /** Where the suite looks when the variables are unset: platform's defaults (127.0.0.1:5432 and :6379). */
  defaults?: { databaseUrl: string; redisUrl: string };
}

export interface TestServices {
  databaseUrl: string;
  redisUrl: string;
  /** The containers started for this run (none on the fast path): service, image and engine id. */
  containers: readonly ServiceContainer[];
  /** Stops and removes the containers. */
  stop(): Promise<void>;
}

export async function provideTestServices(options: TestServicesOptions): Promise<TestServices> {
  const { environment } = options;
  const defaults = options.defaults ?? { databaseUrl: testDbUrl({}), redisUrl: testRedisUrl({}) };
  const [databaseUrl, redisUrl] = await Promise.all([
    environment.GW_TEST_DB_URL ?? answeringOrNull(defaults.databaseUrl),
    environment.GW_TEST_REDIS_URL ?? answeringOrNull(defaults.redisUrl),
  ]);
  if (databaseUrl !== null && redisUrl !== null) return { databaseUrl, redisUrl, containers: [], stop: async () => {} };

  // Only now: loading testcontainers (and reaching a container engine) costs the fast path nothing.
  const { startPostgres, startRedis } = await import('./service-containers.js');
  const settings = containerSettingsFrom(environment);
  const starts = await Promise.allSettled([
    databaseUrl === null ? startPostgres(settings) : null,
    redisUrl === null ? startRedis(settings) : null,
  ]);
  const running = starts.flatMap((start) => (start.status === 'fulfilled' && start.value ? [start.value] : []));
  const stop = async () => void (await Promise.all(running.map((service) => service.stop())));
  const failed = starts.find((start) => start.status === 'rejected');
  if (failed) {
    await stop();
    throw new Error(`could not start the test services in containers: ${String(failed.reason)}`, {
      cause: failed.reason,
    });
  }
  const urlOf = (service: ServiceContainer['service']) =>
    running.find((each) => each.container.service === service)?.url;
  return {
    databaseUrl: databaseUrl ?? urlOf('postgres') ?? '',
    redisUrl: redisUrl ?? urlOf('redis') ?? '',
    containers: running.map((each) => each.container),
    stop,
  };
}

async function answeringOrNull(url: string): Promise<string | null> {
  return (await answersAt(url)) ? url : null;
}
