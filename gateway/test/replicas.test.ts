import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedPgDb, createIsolatedRedisCoords, testDbUrl, testRedisUrl } from '@gw/testkit';
import { adminHeaders, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';

// Two gateway replicas sharing one Postgres schema and one Redis, as in a real deployment.
describe('two replicas', () => {
  let isolated: Awaited<ReturnType<typeof createIsolatedPgDb>>;
  let coords: ReturnType<typeof createIsolatedRedisCoords>;
  let first: TestGateway;
  let second: TestGateway;

  beforeAll(async () => {
    isolated = await createIsolatedPgDb(testDbUrl(process.env));
    coords = createIsolatedRedisCoords(testRedisUrl(process.env));
    first = await startTestGateway({ db: isolated.db, coord: coords.replica() });
    second = await startTestGateway({ db: isolated.db, coord: coords.replica() });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await coords.dispose();
    await isolated.dispose();
  });

  const me = (gateway: TestGateway, key: string) =>
    gateway.app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${key}` } });

  it('refuses a revoked key on the very next request on every replica', async () => {
    const { key, record } = await mintClientKey(first.app);
    expect((await me(first, key)).statusCode).toBe(200);
    expect((await me(second, key)).statusCode).toBe(200);
    const revoked = await first.app.inject({
      method: 'DELETE',
      url: `/admin/v1/keys/${record.id}`,
      headers: adminHeaders,
    });
    expect(revoked.statusCode).toBe(200);
    expect((await me(second, key)).json()).toMatchObject({ code: 'key_revoked' });
    expect((await me(first, key)).json()).toMatchObject({ code: 'key_revoked' });
  });

  it('refuses a rotated key on every replica and accepts its successor', async () => {
    const { key, record } = await mintClientKey(second.app);
    expect((await me(first, key)).statusCode).toBe(200);
    const rotated = await second.app.inject({
      method: 'POST',
      url: `/admin/v1/keys/${record.id}/rotate`,
      headers: adminHeaders,
    });
    const fresh = rotated.json().key as string;
    expect((await me(first, key)).json()).toMatchObject({ code: 'key_unknown' });
    expect((await me(first, fresh)).statusCode).toBe(200);
    expect((await me(second, fresh)).statusCode).toBe(200);
  });

  it('shares the auth-failure guard across replicas', async () => {
    const bad = (attempt: number) => `ark_bad${'y'.repeat(30)}${attempt}`;
    for (let attempt = 0; attempt < 30; attempt += 1) await me(attempt % 2 === 0 ? first : second, bad(attempt));
    const throttled = await me(first, bad(99));
    expect(throttled.statusCode).toBe(429);
  });
});
