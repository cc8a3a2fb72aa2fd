import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminHeaders, bearer, gatewayPerTest, mintClientKey, testStores } from './helpers.js';

const deviceToken = () => randomBytes(32).toString('base64url');

describe.each(testStores)('developer seats on the connect API and the device page on %s', (_name, open) => {
  const gateway = gatewayPerTest({ open });
  const post = (url: string, key: string, payload?: unknown, headers: Record<string, string> = {}) =>
    gateway.app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(key), ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const seats = async () =>
    (await gateway.app.inject({ method: 'GET', url: '/admin/v1/fleet/seats', headers: adminHeaders })).json()
      .seats as Array<Record<string, unknown>>;

  it('records doctor checks by name and status only, and shows them with a compliance score', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'Ada@Example.com', team: 'platform' });
    const report = {
      clientVersion: '1.4.2',
      checks: [
        { name: 'gateway.reachable', status: 'pass', detail: '/home/ada/.config secret=hunter2' },
        { name: 'mcp.registered', status: 'fail' },
        { name: 'shell.hook', status: 'warn' },
        { name: 'desktop.policy', status: 'skip' },
        { name: 'mcp.registered', status: 'pass' },
      ],
    };
    const recorded = await post('/connect/health', key, report);
    expect(recorded.statusCode).toBe(200);
    expect(recorded.json()).toEqual({ status: 'ok', recorded: true });

    const [seat] = await seats();
    expect(seat).toMatchObject({
      tenant: null,
      user: 'ada@example.com',
      clientVersion: '1.4.2',
      checks: [
        { name: 'gateway.reachable', status: 'pass' },
        { name: 'mcp.registered', status: 'pass' },
        { name: 'shell.hook', status: 'warn' },
        { name: 'desktop.policy', status: 'skip' },
      ],
      score: 67,
      offboarded: false,
    });
    expect(JSON.stringify(await seats())).not.toContain('hunter2');

    const queried = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/fleet/seats/query',
      headers: adminHeaders,
      payload: { users: ['ADA@example.com', 'nobody@example.com'] },
    });
    expect(queried.statusCode).toBe(200);
    expect(queried.json().seats).toEqual({
      'ADA@example.com': [expect.objectContaining({ user: 'ada@example.com', score: 67 })],
      'nobody@example.com': null,
    });
  });

  it('answers 200 recorded:false to a body that is not a doctor report (truncated JSON and other types included), and 401 without a key', async () => {
    const { key } = await mintClientKey(gateway.app);
    for (const body of [
      { checks: 'all good' },
      { checks: [{ name: 'has spaces', status: 'pass' }] },
      { checks: [{ name: 'x', status: 'great' }] },
      undefined,
    ]) {
      const response = await post('/connect/health', key, body);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', recorded: false });
    }
    // Whatever the body: truncated JSON, a body of another type, an empty body declared as JSON.
    const truncated = await post('/connect/health', key, '{"checks": [{"name": "gateway.reach', {
      'content-type': 'application/json',
    });
    expect(truncated.statusCode).toBe(200);
    expect(truncated.json()).toEqual({ status: 'ok', recorded: false });
    for (const [contentType, payload] of [
      ['application/octet-stream', 'x'],
      ['application/json', ''],
      ['application/x-www-form-urlencoded', 'a=1'],
    ]) {
      const response = await post('/connect/health', key, payload, { 'content-type': contentType ?? '' });
      expect([response.statusCode, response.json()]).toEqual([200, { status: 'ok', recorded: false }]);
    }
    expect(await seats()).toEqual([]);
    const keyless = await gateway.app.inject({ method: 'POST', url: '/connect/health', payload: { checks: [] } });
    expect(keyless.statusCode).toBe(401);
    expect(keyless.json()).toMatchObject({ status: 'failure', code: 'missing_key' });
  });

  it('opens the device page and its health rollup with the device token alone, never showing the address', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    await post('/connect/health', key, {
      checks: [
        { name: 'gateway.reachable', status: 'pass' },
        { name: 'mcp.registered', status: 'fail' },
      ],
    });
    const token = deviceToken();
    const registered = await post('/connect/device-token', key, { token, ttlSeconds: 900 });
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toEqual({
      status: 'ok',
      ttlSeconds: 900,
      expiresAt: new Date(gateway.clock.now() + 900_000).toISOString(),
    });

    const health = await gateway.app.inject({ method: 'GET', url: `/device/health?dt=${token}` });
    expect(health.statusCode).toBe(200);
    expect(health.headers['cache-control']).toBe('no-store');
    expect(health.json()).toEqual({
      user: expect.stringMatching(/^[0-9a-f]{16}$/),
      checks: [
        { name: 'gateway.reachable', status: 'pass' },
        { name: 'mcp.registered', status: 'fail' },
      ],
      score: 50,
      clientVersion: null,
      reportedAt: new Date(gateway.clock.now()).toISOString(),
      offboarded: false,
    });
    expect(health.body).not.toContain('ada');

    const page = await gateway.app.inject({ method: 'GET', url: `/device?dt=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('Compliance score:</strong> 50%');
    expect(page.body).toContain('mcp.registered');
    expect(page.body).not.toContain('ada');
    expect(page.body).not.toContain('<script');
  });

  it('answers one static 401 for an absent, malformed, unknown, expired, replaced or revoked token', async () => {
    const { key } = await mintClientKey(gateway.app);
    const first = deviceToken();
    const second = deviceToken();
    await post('/connect/device-token', key, { token: first, ttlSeconds: 300 });
    await post('/connect/device-token', key, { token: second, ttlSeconds: 300 });
    const bodies = new Set<string>();
    const expectRefused = async (query: string) => {
      for (const url of [`/device/health${query}`, `/device${query}`]) {
        const response = await gateway.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(401);
        bodies.add(response.body);
      }
    };
    await expectRefused('');
    await expectRefused('?dt=short');
    await expectRefused(`?dt=${deviceToken()}`);
    await expectRefused(`?dt=${first}`); // replaced by the second registration
    expect((await gateway.app.inject({ method: 'GET', url: `/device/health?dt=${second}` })).statusCode).toBe(200);
    gateway.clock.advance(300_000);
    await expectRefused(`?dt=${second}`); // expired
    expect(bodies).toEqual(
      new Set([
        JSON.stringify({
          status: 'failure',
          code: 'device_token_invalid',
          message: 'A valid device token is required.',
        }),
      ]),
    );

    const third = deviceToken();
    await post('/connect/device-token', key, { token: third, ttlSeconds: 3_600 });
    const revoked = await gateway.app.inject({ method: 'DELETE', url: '/connect/device-token', headers: bearer(key) });
    expect(revoked.json()).toEqual({ status: 'ok', revoked: true });
    await expectRefused(`?dt=${third}`);
    const again = await gateway.app.inject({ method: 'DELETE', url: '/connect/device-token', headers: bearer(key) });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'ok', revoked: false });
  });

  it('never moves a live device token to another seat', async () => {
    const carol = await mintClientKey(gateway.app, { user: 'carol@example.com', team: 'platform' });
    const dave = await mintClientKey(gateway.app, { user: 'dave@example.com', team: 'platform' });
    await post('/connect/health', carol.key, { checks: [{ name: 'gateway.reachable', status: 'pass' }] });
    const token = deviceToken();
    expect((await post('/connect/device-token', carol.key, { token, ttlSeconds: 600 })).statusCode).toBe(200);
    const stolen = await post('/connect/device-token', dave.key, { token, ttlSeconds: 600 });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().code).toBe('device_token_taken');
    expect((await gateway.app.inject({ method: 'GET', url: `/device/health?dt=${token}` })).json().score).toBe(100);
    // The same seat may register it again (a retry), and an expired token is free to take.
    expect((await post('/connect/device-token', carol.key, { token, ttlSeconds: 600 })).statusCode).toBe(200);
    gateway.clock.advance(601_000);
    expect((await post('/connect/device-token', dave.key, { token, ttlSeconds: 600 })).statusCode).toBe(200);
  });

  it('takes an empty offboard whatever content type it declares', async () => {
    const { key } = await mintClientKey(gateway.app);
    const form = await gateway.app.inject({
      method: 'POST',
      url: '/connect/offboard',
      headers: { ...bearer(key), 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(form.statusCode).toBe(200);
    expect(form.json()).toEqual({ status: 'ok', recorded: true });
    const text = await gateway.app.inject({
      method: 'POST',
      url: '/connect/health',
      headers: { ...bearer(key), 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.json()).toEqual({ status: 'ok', recorded: false });
    const binary = await gateway.app.inject({
      method: 'POST',
      url: '/connect/offboard',
      headers: { ...bearer(key), 'content-type': 'application/octet-stream' },
      payload: 'x',
    });
    expect(binary.statusCode).toBe(415);
  });

  it('clamps the TTL to 300..3900 seconds and refuses a token that is not 43 base64url characters', async () => {
    const { key } = await mintClientKey(gateway.app);
    expect((await post('/connect/device-token', key, { token: deviceToken(), ttlSeconds: 5 })).json().ttlSeconds).toBe(
      300,
    );
    expect(
      (await post('/connect/device-token', key, { token: deviceToken(), ttlSeconds: 86_400 })).json().ttlSeconds,
    ).toBe(3_900);
    for (const body of [
      { token: 'a'.repeat(42), ttlSeconds: 600 },
      { token: `${'a'.repeat(42)}+`, ttlSeconds: 600 },
      { token: deviceToken() },
      { token: deviceToken(), ttlSeconds: '600' },
    ]) {
      const response = await post('/connect/device-token', key, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 'failure', code: 'invalid_request' });
    }
  });

  it('marks a seat offboarded, and re-enrolling (a new key for the developer) clears the mark', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    const offboard = await post('/connect/offboard', key);
    expect(offboard.statusCode).toBe(200);
    expect(offboard.json()).toEqual({ status: 'ok', recorded: true });
    expect((await seats())[0]).toMatchObject({
      user: 'ada@example.com',
      offboarded: true,
      offboardedAt: new Date(gateway.clock.now()).toISOString(),
    });
    gateway.clock.advance(60_000);
    await mintClientKey(gateway.app, { user: 'ADA@example.com', team: 'platform' });
    expect((await seats())[0]).toMatchObject({ offboarded: false, offboardedAt: null });
  });
});
