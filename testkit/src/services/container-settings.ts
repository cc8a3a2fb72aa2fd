// How the test services' containers are started, from gw's variables (README "Tests"). The engine itself is found by
// testcontainers from its own variables (DOCKER_HOST, TESTCONTAINERS_RYUK_DISABLED, …), read from the process.

export type ContainerNetwork = 'bridge' | 'host';

export interface ContainerSettings {
  postgresImage: string;
  redisImage: string;
  /**
   * `bridge` (default): the engine's network, the service's port published on an ephemeral host port, which works
   * with Docker Desktop and Podman machines. `host`: the host's network, the service listening on a free loopback
   * port (Linux only; rootful Podman inside a CI container, where no bridge is wanted).
   */
  network: ContainerNetwork;
}

export interface ServiceContainer {
  service: 'postgres' | 'redis';
  image: string;
  /** The engine's container id. */
  id: string;
}

export function containerSettingsFrom(environment: Record<string, string | undefined>): ContainerSettings {
  const network = environment.GW_TEST_CONTAINER_NETWORK ?? 'bridge';
  if (network !== 'bridge' && network !== 'host')
    throw new Error(`GW_TEST_CONTAINER_NETWORK is "${network}": use bridge (the default) or host`);
  return {
    postgresImage: environment.GW_TEST_POSTGRES_IMAGE ?? 'docker.io/library/postgres:16',
    redisImage: environment.GW_TEST_REDIS_IMAGE ?? 'docker.io/library/redis:7',
    network,
  };
}
