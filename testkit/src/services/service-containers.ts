import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { PgDb } from '@gw/platform/postgres';
import type { ContainerSettings, ServiceContainer } from './container-settings.js';
import { freeLoopbackPort } from '../core/free-port.js';

// Postgres and Redis as throwaway containers. Both images are used as the official ones behave (the Debian-built
// ones of images/build-test-services.sh match them): `postgres` takes its port from PGPORT and accepts the postgres
// user without a password (POSTGRES_HOST_AUTH_METHOD=trust), `redis-server` takes its settings as arguments.

export interface RunningService {
  container: ServiceContainer;
  url: string;
  stop(): Promise<void>;
}

/** Marks the suite's containers, so a run that was killed leaves ones that are easy to find and remove. */
const label = 'dev.gw.test-service';
const startupTimeoutMs = 120_000;

export async function startPostgres(settings: ContainerSettings): Promise<RunningService> {
  const onHost = settings.network === 'host';
  const port = onHost ? await freeLoopbackPort() : 5432;
  const definition = new GenericContainer(settings.postgresImage)
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust', PGPORT: String(port) })
    // Test data needs no durability; the official image's entry point passes these to the server.
    .withCommand(['postgres', '-c', `listen_addresses=${onHost ? '127.0.0.1' : '*'}`, '-c', 'fsync=off'])
    .withLabels({ [label]: 'postgres' })
    // The official image first runs a socket-only server to initialise; only the real one answers on TCP.
    .withWaitStrategy(Wait.forSuccessfulCommand(`pg_isready --quiet --host 127.0.0.1 --port ${port}`))
    .withStartupTimeout(startupTimeoutMs);
  const started = await (onHost ? definition.withNetworkMode('host') : definition.withExposedPorts(port)).start();
  const address = onHost ? `127.0.0.1:${port}` : `${started.getHost()}:${started.getMappedPort(port)}`;
  const service = running(started, 'postgres', settings.postgresImage, `postgres://postgres@${address}/test`);
  try {
    await createDatabase(`postgres://postgres@${address}/postgres`, 'test');
  } catch (error) {
    await service.stop();
    throw error;
  }
  return service;
}

export async function startRedis(settings: ContainerSettings): Promise<RunningService> {
  const onHost = settings.network === 'host';
  const port = onHost ? await freeLoopbackPort() : 6379;
  const definition = new GenericContainer(settings.redisImage)
    .withCommand([
      'redis-server',
      '--port',
      String(port),
      '--bind',
      onHost ? '127.0.0.1' : '0.0.0.0',
      '--protected-mode',
      'no',
      '--save',
      '',
      '--appendonly',
      'no',
    ])
    .withLabels({ [label]: 'redis' })
    .withWaitStrategy(Wait.forSuccessfulCommand(`redis-cli -p ${port} ping | grep -q PONG`))
    .withStartupTimeout(startupTimeoutMs);
  const started = await (onHost ? definition.withNetworkMode('host') : definition.withExposedPorts(port)).start();
  const address = onHost ? `127.0.0.1:${port}` : `${started.getHost()}:${started.getMappedPort(port)}`;
  return running(started, 'redis', settings.redisImage, `redis://${address}`);
}

function running(
  started: StartedTestContainer,
  service: ServiceContainer['service'],
  image: string,
  url: string,
): RunningService {
  return {
    container: { service, image, id: started.getId() },
    url,
    stop: async () => void (await started.stop({ remove: true, removeVolumes: true })),
  };
}

/** The suite's database, `test` as on a CI server (the official image's POSTGRES_DB would cover only that image). */
async function createDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new PgDb({ connectionString: adminUrl, max: 1 });
  try {
    const existing = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (existing.rows.length === 0) await admin.exec(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
}
