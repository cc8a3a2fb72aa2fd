import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteDb } from '@gw/platform/pglite';
import { adminRequest } from './gateway-stack.js';
import { startService, type RunningService } from './process.js';

// The README quick start: the gateway runs with no configuration on the embedded store and generates its admin token.
describe('quick start (embedded store, no configuration)', () => {
  let dataDir: string;
  let gateway: RunningService;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-quickstart-'));
    gateway = await startService('gateway/dist/main.js', { GW_DATA_DIR: dataDir, GW_PORT: '0', GW_HOST: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await gateway.stop('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers /livez and prints where it listens and the generated admin token once', async () => {
    expect((await fetch(`${gateway.url}/livez`)).status).toBe(200);
    const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
    expect(gateway.output()).toContain('listening on');
    expect(gateway.output().split(token).length - 1).toBe(1);
    expect((await stat(join(dataDir, 'admin-token'))).mode & 0o777).toBe(0o600);
  });

  it('mints a service key with the generated token whose raw value never reaches the store, then drains on SIGTERM', async () => {
    const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
    const minted = await adminRequest({ url: gateway.url, token }, 'POST', '/admin/service-keys', {
      name: 'quickstart',
      team: 'platform',
    });
    expect(minted.status).toBe(201);
    const key = minted.body.key as string;
    const me = await fetch(`${gateway.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);

    expect(await gateway.stop('SIGTERM')).toBe(0);
    const store = await PgliteDb.open(join(dataDir, 'gateway-store'));
    try {
      const { rows } = await store.query('SELECT * FROM gw_keys');
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(key);
    } finally {
      await store.close();
    }
  }, 60_000);
});
