import { afterEach, describe, expect, it } from 'vitest';
import { adminHeaders, bearer, startTestGateway, type TestGateway } from './helpers.js';
import { startBilledGateway } from './billing-fixture.js';
import { everyStoredRow } from './inference-helpers.js';

interface Started {
  id: string;
  browser_url: string;
  user_code: string;
  poll_secret: string;
  interval: number;
  expires_in: number;
}

describe('CLI login', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup(directory: Record<string, { teams: string[]; defaultTeam?: string }> = {}) {
    const billed = await startBilledGateway({ billing: { directory } });
    cleanups.push(() => billed.close());
    return billed;
  }

  const start = async (gateway: TestGateway, ip = '203.0.113.7') =>
    gateway.app.inject({ method: 'POST', url: '/sso/cli/start', remoteAddress: ip });
  const poll = (gateway: TestGateway, session: Started, headers: Record<string, string> = {}) =>
    gateway.app.inject({
      method: 'GET',
      url: `/sso/cli/poll/${session.id}`,
      headers: { 'x-gw-poll-secret': session.poll_secret, ...headers },
    });

  it('signs a developer in through the browser and hands the CLI its client key once', async () => {
    const { gateway, billing } = await setup({ 'ada@example.com': { teams: ['compilers'] } });
    const started = await start(gateway);
    expect(started.statusCode).toBe(200);
    const session = started.json<Started>();
    expect(session).toMatchObject({
      id: expect.stringMatching(/^cli_/),
      user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/),
      interval: 5,
      expires_in: 600,
    });
    expect(session.browser_url.startsWith(billing.url)).toBe(true);
    expect(session.browser_url).not.toContain(session.user_code);

    expect((await poll(gateway, session)).json()).toEqual({ status: 'pending', interval: 5 });
    expect((await gateway.app.inject({ method: 'GET', url: `/sso/cli/poll/${session.id}` })).json()).toMatchObject({
      status: 'failure',
      code: 'invalid_request',
    });
    expect((await poll(gateway, { ...session, poll_secret: 'x'.repeat(43) })).json()).toMatchObject({
      status: 'failure',
      code: 'cli_login_not_found',
    });

    // The developer's browser: the activation page, then the code and the SSO identity.
    const page = await fetch(session.browser_url);
    expect(page.status).toBe(200);
    const authorized = await fetch(`${billing.url}/sso/cli/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id: session.id, user_code: session.user_code, email: 'ada@example.com' }).toString(),
    });
    expect(authorized.status).toBe(302);

    const completed = await poll(gateway, session);
    expect(completed.statusCode).toBe(200);
    const result = completed.json();
    expect(result).toMatchObject({
      status: 'complete',
      key: expect.stringMatching(/^ark_/),
      user: 'ada@example.com',
      team: 'compilers',
      role: 'developer',
      expiresAt: new Date(Date.UTC(2026, 10, 26, 12) + 720 * 3_600_000).toISOString(),
    });
    expect((await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(result.key) })).statusCode).toBe(
      200,
    );
    // One key per login: the session is over.
    expect((await poll(gateway, session)).statusCode).toBe(404);

    const keys = (await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: adminHeaders })).json();
    expect(JSON.stringify(keys)).toContain('cli-login');
    const audit = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/events?category=keys', headers: adminHeaders })
    ).json();
    expect(audit.data.map((entry: { action: string }) => entry.action)).toContain('cli-login.mint');
    expect(await everyStoredRow(gateway)).not.toContain(session.poll_secret);
  });

  it('asks which team when several are open, and refuses one outside them', async () => {
    const { gateway, billing } = await setup();
    const session = (await start(gateway)).json<Started>();
    billing.approveCliLogin(session.id, {
      email: 'Grace@Example.com',
      teams: ['compilers', 'runtime'],
      defaultTeam: 'runtime',
    });
    expect((await poll(gateway, session)).json()).toEqual({
      status: 'select_team',
      teams: ['compilers', 'runtime'],
      defaultTeam: 'runtime',
    });
    const outside = await poll(gateway, session, { 'x-gw-team': 'finance' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ code: 'team_not_allowed' });
    expect((await poll(gateway, session, { 'x-gw-team': 'runtime' })).json()).toMatchObject({
      status: 'complete',
      user: 'grace@example.com',
      team: 'runtime',
    });
  });

  it('mints nothing for a refused sign-in or a revoked developer', async () => {
    const { gateway, billing } = await setup();
    const refused = (await start(gateway)).json<Started>();
    billing.denyCliLogin(refused.id, 'no_company');
    const answer = await poll(gateway, refused);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ status: 'failure', code: 'cli_login_denied' });

    await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/users/revoked',
      headers: adminHeaders,
      payload: { email: 'mallory@example.com' },
    });
    const revoked = (await start(gateway)).json<Started>();
    billing.approveCliLogin(revoked.id, { email: 'Mallory@example.com', teams: ['compilers'] });
    const blocked = await poll(gateway, revoked);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ code: 'user_deactivated' });
    const keys = (await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: adminHeaders })).json();
    expect(JSON.stringify(keys)).not.toContain('mallory');
  });

  it('ends a session after ten minutes', async () => {
    const { gateway, billing, clock } = await setup();
    const session = (await start(gateway)).json<Started>();
    billing.approveCliLogin(session.id, { email: 'ada@example.com', teams: ['compilers'] });
    clock.advance(10 * 60_000);
    expect((await poll(gateway, session)).json()).toMatchObject({ code: 'cli_login_not_found' });
  });

  it('rate-limits starts per address and answers 503 while billing is down', async () => {
    const { gateway, billing } = await setup();
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await start(gateway)).statusCode).toBe(200);
    const limited = await start(gateway);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await start(gateway, '198.51.100.9')).statusCode).toBe(200);

    billing.failNext(1, 503, '/v1/cli-sso/start');
    const down = await start(gateway, '192.0.2.44');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'failure', code: 'billing_unavailable' });
  });

  it('counts starts per client behind a trusted proxy, and believes no forwarded header from anyone else', async () => {
    const billed = await startBilledGateway({ env: { GW_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' } });
    cleanups.push(() => billed.close());
    const viaIngress = (client: string, from = '10.1.2.3') =>
      billed.gateway.app.inject({
        method: 'POST',
        url: '/sso/cli/start',
        remoteAddress: from,
        headers: { 'x-forwarded-for': client },
      });
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await viaIngress('203.0.113.7')).statusCode).toBe(200);
    expect((await viaIngress('203.0.113.7')).statusCode).toBe(429);
    // Another developer behind the same ingress has a budget of their own.
    expect((await viaIngress('203.0.113.8')).statusCode).toBe(200);
    // An untrusted peer cannot borrow a fresh address: its own is what counts.
    for (let attempt = 0; attempt < 10; attempt += 1) await viaIngress(`198.51.100.${attempt}`, '192.0.2.50');
    expect((await viaIngress('198.51.100.99', '192.0.2.50')).statusCode).toBe(429);
  });

  it('is not offered by a gateway without billing', async () => {
    const gateway = await startTestGateway();
    cleanups.push(() => gateway.close());
    const answer = await start(gateway);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ status: 'failure', code: 'cli_login_not_configured' });
  });
});
