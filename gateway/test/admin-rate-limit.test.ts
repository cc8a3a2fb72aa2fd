import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, bearer, startTestGateway, type TestGateway } from './helpers.js';

// 300 requests per minute per principal on /admin/v1/*, then 429 with Retry-After.
describe('Management API v1 rate limit', () => {
  let gateway: TestGateway;
  beforeEach(async () => {
    gateway = await startTestGateway();
  });
  afterEach(async () => {
    await gateway.close();
  });

  const me = (headers: Record<string, string>, url = '/admin/v1/me') =>
    gateway.app.inject({ method: 'GET', url, headers });

  it('answers 429 at request 301 within a minute for one principal and not for another', async () => {
    const { key } = await mintAdminKey(gateway.app, { scopes: ['keys:read'] });
    // The mint above was request 1 of the admin token's window.
    for (let request = 2; request <= 300; request += 1) {
      const response = await me(adminHeaders);
      if (response.statusCode !== 200) throw new Error(`request ${request} answered ${response.statusCode}`);
    }
    gateway.clock.advance(30_000);
    const limited = await me(adminHeaders);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('30');
    expect(limited.json()).toEqual({
      error: { code: 'rate_limited', message: expect.any(String), request_id: limited.headers['x-request-id'] },
    });
    // Another principal has its own window; legacy routes are not part of the v1 limit.
    expect((await me(bearer(key))).statusCode).toBe(200);
    expect((await me(adminHeaders, '/admin/me')).statusCode).toBe(200);

    gateway.clock.advance(30_000);
    expect((await me(adminHeaders)).statusCode).toBe(200);
  });
});
