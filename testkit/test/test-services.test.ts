import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDbUrl, testRedisUrl } from '@gw/platform/test-urls';
import { PgDb } from '@gw/platform/postgres';
import { provideTestServices, type TestServices } from '../src/services/test-services.js';
import { freeLoopbackPort as unusedPort } from '../src/core/free-port.js';

// The laptop path of `npm test`, on this machine's Podman: nothing answers at the defaults, so the suite's Postgres
// and Redis come up in containers through testcontainers and Podman's Docker API, and go away afterwards.
// Podman is required, as for the image tests: missing, the test fails with what to install.

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const engineEnvironment = { ...process.env, CONTAINERS_CONF: join(repoRoot, 'images', 'containers.conf') };

function podman(args: string[]): { status: number | null; stdout: string } {
  const result = spawnSync('podman', args, { env: engineEnvironment, encoding: 'utf8' });
  if (result.error) throw new Error(`podman is not available (${result.error.message}): apt-get install podman runc`);
  return { status: result.status, stdout: result.stdout };
}

/** Resolves once Podman's API answers `/_ping` on the socket (or rejects when the service exits). */
function apiReady(service: ChildProcess, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    service.once('exit', (code) => reject(new Error(`podman system service exited (${code})`)));
    const ping = () =>
      request({ socketPath, path: '/_ping' }, (response) => {
        response.resume();
        if (response.statusCode === 200) resolve();
        else setImmediate(ping);
      })
        .once('error', () => setTimeout(ping, 100))
        .end();
    ping();
  });
}

describe('test services in containers (the laptop path)', () => {
  const socketPath = `/tmp/gw-test-services-${randomBytes(5).toString('hex')}.sock`;
  let service: ChildProcess;
  let images: { postgres: string; redis: string };

  beforeAll(async () => {
    podman(['--version']);
    // Debian-built equivalents of the official images (cached after the first build; .ci/run builds them first).
    const built = spawnSync('bash', [join(repoRoot, 'images', 'build-test-services.sh')], {
      env: engineEnvironment,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`images/build-test-services.sh failed:\n${built.stderr}`);
    const [postgres = '', redis = ''] = built.stdout.trim().split('\n').slice(-2);
    images = { postgres, redis };
    service = spawn('podman', ['system', 'service', '--time=0', `unix://${socketPath}`], {
      env: engineEnvironment,
      stdio: 'ignore',
    });
    await apiReady(service, socketPath);
    // testcontainers reads its own settings from the process: the engine's socket, and no Ryuk (the setup removes
    // what it starts), as README "Tests" tells a Podman user.
    vi.stubEnv('DOCKER_HOST', `unix://${socketPath}`);
    vi.stubEnv('TESTCONTAINERS_RYUK_DISABLED', 'true');
  }, 240_000);

  afterAll(() => {
    vi.unstubAllEnvs();
    service?.kill('SIGTERM');
    rmSync(socketPath, { force: true });
  });

  it('starts Postgres and Redis when nothing answers at the defaults, and removes them afterwards', async () => {
    const defaults = {
      databaseUrl: `postgres://postgres@127.0.0.1:${await unusedPort()}/test`,
      redisUrl: `redis://127.0.0.1:${await unusedPort()}`,
    };
    const services: TestServices = await provideTestServices({
      environment: {
        GW_TEST_POSTGRES_IMAGE: images.postgres,
        GW_TEST_REDIS_IMAGE: images.redis,
        GW_TEST_CONTAINER_NETWORK: 'host',
      },
      defaults,
    });
    try {
      expect(services.containers.map(({ service, image }) => ({ service, image }))).toEqual([
        { service: 'postgres', image: images.postgres },
        { service: 'redis', image: images.redis },
      ]);
      expect(services.databaseUrl).not.toBe(defaults.databaseUrl);
      expect(services.redisUrl).not.toBe(defaults.redisUrl);
      for (const { id } of services.containers) expect(podman(['container', 'exists', id]).status).toBe(0);

      const db = new PgDb({ connectionString: services.databaseUrl, max: 1 });
      try {
        const { rows } = await db.query<{ database: string; sum: number }>(
          'SELECT current_database() AS database, 20 + 22 AS sum',
        );
        expect(rows).toEqual([{ database: 'test', sum: 42 }]);
      } finally {
        await db.close();
      }
      const redis = new Redis(services.redisUrl, { maxRetriesPerRequest: 1 });
      try {
        expect(await redis.ping()).toBe('PONG');
      } finally {
        redis.disconnect();
      }
    } finally {
      await services.stop();
    }
    for (const { id } of services.containers) expect(podman(['container', 'exists', id]).status).toBe(1);
  }, 120_000);
});

describe('where the suite finds Postgres and Redis', () => {
  it('keeps the fast path: servers that answer at the defaults are used and nothing is started', async () => {
    const local = { databaseUrl: testDbUrl(process.env), redisUrl: testRedisUrl(process.env) };
    const services = await provideTestServices({ environment: {}, defaults: local });
    expect(services).toMatchObject({ ...local, containers: [] });
  });

  it('uses the variables as given, without looking at the defaults', async () => {
    const given = {
      GW_TEST_DB_URL: `postgres://postgres@127.0.0.1:${await unusedPort()}/elsewhere`,
      GW_TEST_REDIS_URL: `redis://127.0.0.1:${await unusedPort()}/3`,
    };
    const services = await provideTestServices({ environment: given });
    expect(services).toMatchObject({ databaseUrl: given.GW_TEST_DB_URL, redisUrl: given.GW_TEST_REDIS_URL });
    expect(services.containers).toEqual([]);
  });
});
