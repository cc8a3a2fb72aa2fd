import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, startGatewayOnSwitchableStore } from './helpers.js';

// Inputs at the edge of what the store and the router accept: each answer stays in the v1 envelope, never a 500.
describe('admin plane edges', () => {
  let stack: Awaited<ReturnType<typeof startGatewayOnSwitchableStore>>;
  beforeAll(async () => {
    stack = await startGatewayOnSwitchableStore();
  });
  afterAll(async () => {
    await stack.close();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    stack.gateway.app.inject({
      method,
      url,
      headers: { ...adminHeaders, 'x-request-id': 'req-edge' },
      ...(payload ? { payload } : {}),
    });

  const auditRows = async () =>
    (
      await stack.store.db.query<{ action: string; outcome: string; target: string | null }>(
        "SELECT action, outcome, target FROM gw_audit_events WHERE category <> 'auth' ORDER BY created_at",
      )
    ).rows;

  it('answers a NUL the store cannot hold with 400, and still records the refused write', async () => {
    const minted = await call('POST', '/admin/v1/keys', { user: 'nul@example.com', team: 't', label: 'a\u0000b' });
    expect(minted.statusCode).toBe(400);
    expect(minted.json()).toMatchObject({ error: { code: 'invalid_request', request_id: 'req-edge' } });
    const read = await call('GET', '/admin/v1/keys/%00');
    expect(read.statusCode).toBeLessThan(500);
    expect((await auditRows()).some((row) => row.outcome === 'failure')).toBe(true);
  });

  it('serves a path parameter as long as an e-mail address may be, and answers an undecodable URL in the envelope', async () => {
    const user = `${'a'.repeat(64)}@${'b'.repeat(40)}.example.com`;
    expect((await call('POST', '/admin/v1/keys', { user, team: 't' })).statusCode).toBe(201);
    const exported = await call('GET', `/admin/v1/users/${encodeURIComponent(user)}/export`);
    expect(exported.statusCode).toBe(200);
    const bad = await call('GET', '/admin/v1/keys/%ff');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['x-request-id']).toBe('req-edge');
    expect(bad.json().error).toMatchObject({ code: 'invalid_request', request_id: 'req-edge' });
  });

  it('answers 503 unavailable while the store is down, and serves again when it is back', async () => {
    stack.db.down = true;
    try {
      const down = await call('GET', '/admin/v1/keys');
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toBe('1');
      expect(down.json().error).toMatchObject({ code: 'unavailable', request_id: 'req-edge' });
    } finally {
      stack.db.down = false;
    }
    expect((await call('GET', '/admin/v1/keys')).statusCode).toBe(200);
  });
});
