import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createLogger } from '@gw/platform';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { buildApp as buildEvidence, migrateEvidence, OutputVault } from '@gw/evidence';

export const evidenceToken = 'evidence-admin-token-for-the-gateway';

export interface TestEvidence {
  app: FastifyInstance;
  url: string;
  store: TestDb;
  close(): Promise<void>;
}

/** What a gateway is given to reach the test's evidence service, as an operator would set it. */
export const evidenceEnv = (evidence: Pick<TestEvidence, 'url'>) => ({
  GW_ENDPOINT_CONTROL_URL: evidence.url,
  GW_ENDPOINT_CONTROL_ADMIN_TOKEN: evidenceToken,
});

/** The real evidence service on an ephemeral port, as the gateway reaches it in a deployment. */
export async function startEvidence(
  options: { contentKey?: string; deliveredCheckKeys?: Readonly<Record<string, string>> } = {},
): Promise<TestEvidence> {
  const store = await createMemoryPgliteDb();
  await migrateEvidence(store.db);
  const app = await buildEvidence({
    db: store.db,
    logger: createLogger({ name: 'evidence-test', level: 'silent' }),
    adminToken: evidenceToken,
    outputVault: options.contentKey ? new OutputVault(options.contentKey) : null,
    // Tests only: the vendor key of the test's policy-push signer instead of the keys pinned in the image.
    ...(options.deliveredCheckKeys ? { deliveredCheckKeys: options.deliveredCheckKeys } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    url,
    store,
    close: async () => {
      await app.close();
      await store.dispose();
    },
  };
}

/** A loopback port nothing listens on: one the system just handed out and took back. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
