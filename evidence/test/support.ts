import { ManualClock, createLogger } from '@gw/platform';
import { createIsolatedPgDb, createMemoryPgliteDb, testDbUrl, type TestDb } from '@gw/testkit';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { buildApp } from '../src/app.js';
import { evidenceMigrationsDirectory, migrateEvidence } from '../src/migrations.js';
import type { OutputVault } from '../src/remediation/output-vault.js';

export const adminToken = 'evidence-admin-token-0123456789';
export const adminHeaders = { authorization: `Bearer ${adminToken}` };

export const evidenceStores: ReadonlyArray<readonly [name: string, open: () => Promise<TestDb>]> = [
  ['Postgres', () => createIsolatedPgDb(testDbUrl(process.env))],
  ['PGlite', () => createMemoryPgliteDb([{ service: 'evidence', directory: evidenceMigrationsDirectory }])],
];

export interface TestEvidence {
  app: FastifyInstance;
  clock: ManualClock;
  store: TestDb;
}

/** A fresh store and evidence service for each test of the enclosing `describe`. */
export function evidencePerTest(
  open: () => Promise<TestDb> = evidenceStores[0][1],
  options: { outputVault?: OutputVault; deliveredCheckKeys?: Readonly<Record<string, string>> } = {},
): () => TestEvidence {
  let current: TestEvidence | undefined;
  beforeEach(async () => {
    const store = await open();
    await migrateEvidence(store.db);
    const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
    const app = await buildApp({
      db: store.db,
      logger: createLogger({ name: 'evidence-test', level: 'silent' }),
      adminToken,
      clock,
      outputVault: options.outputVault ?? null,
      ...(options.deliveredCheckKeys ? { deliveredCheckKeys: options.deliveredCheckKeys } : {}),
    });
    await app.ready();
    current = { app, clock, store };
  });
  afterEach(async () => {
    await current?.app.close();
    await current?.store.dispose();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('the service runs only inside a test');
    return current;
  };
}

/** An organization with a connector bearer for `source`. */
export async function provisionOrg(app: FastifyInstance, source = 'jamf'): Promise<{ orgId: string; token: string }> {
  const org = await app.inject({
    method: 'POST',
    url: '/admin/orgs',
    headers: adminHeaders,
    payload: { name: 'Acme', gatewayUrl: 'https://gw.acme.example' },
  });
  const orgId = org.json<{ id: string }>().id;
  const minted = await app.inject({
    method: 'POST',
    url: `/admin/orgs/${orgId}/evidence-connectors/${source}/rotate`,
    headers: adminHeaders,
  });
  return { orgId, token: minted.json<{ token: string }>().token };
}
