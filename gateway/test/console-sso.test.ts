import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminHeaders, startTestGateway } from './helpers.js';
import {
  ada,
  authEntries,
  consoleWrite,
  cookiesOf,
  finishSignIn,
  publicUrl,
  removeFromAdmins,
  signIn,
  startConsoleWorld,
  startSignIn,
  type ConsoleWorld,
} from './console-sso-support.js';

const skipStep = { step: 'enrollment-link', skipped: true };

describe('console sign-in with the identity provider', () => {
  let world: ConsoleWorld;
  beforeEach(async () => {
    world = await startConsoleWorld();
  });
  afterEach(async () => {
    await world.close();
  });
  const app = () => world.gateway.app;

  it('signs an administrator in with the code flow and PKCE, and the session is an admin principal', async () => {
    const started = await app().inject({ method: 'GET', url: '/admin/sso/start?returnTo=/console/keys' });
    expect(started.statusCode).toBe(302);
    const authorization = new URL(started.headers.location as string);
    expect(authorization.origin).toBe(world.idp.issuer);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'gw-console',
      redirect_uri: `${publicUrl}/admin/sso/callback`,
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    expect(authorization.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const flow = cookiesOf(started).values.get('gw_sso_flow') as string;
    const atProvider = await fetch(authorization.href, { redirect: 'manual' });
    const callback = new URL(atProvider.headers.get('location') as string);
    const finished = await app().inject({
      method: 'GET',
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: `gw_sso_flow=${flow}` },
    });
    expect(finished.statusCode).toBe(303);
    expect(finished.headers.location).toBe(`${publicUrl}/console/keys`);
    const { raw, values } = cookiesOf(finished);
    const sessionLine = raw.find((line) => line.startsWith('gw_console=')) as string;
    expect(sessionLine).toMatch(/HttpOnly/);
    expect(sessionLine).toMatch(/SameSite=Lax/);
    expect(sessionLine).toMatch(/Max-Age=28800/);
    expect(sessionLine).not.toMatch(/Secure/);
    expect(raw.find((line) => line.startsWith('gw_console_csrf='))).not.toMatch(/HttpOnly/);
    const cookie = `gw_console=${values.get('gw_console')}`;

    const me = await app().inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ actor: `sso:${ada}`, deploymentOwner: true });
    const session = await app().inject({ method: 'GET', url: '/admin/sso/session', headers: { cookie } });
    expect(session.json()).toMatchObject({ user: ada, role: 'owner' });
    const probe = await app().inject({ method: 'GET', url: '/admin/auth', headers: { cookie } });
    expect(probe.json()).toEqual({
      ssoConfigured: true,
      ssoRequired: true,
      signInUrl: `${publicUrl}/admin/sso/start`,
      issuer: world.idp.issuer,
      session: { user: ada, role: 'owner' },
    });
    const [entry] = await authEntries(app());
    expect(entry).toMatchObject({ action: 'console_sign_in', subject: ada, outcome: 'success' });
    const legacyFeed = await app().inject({
      method: 'GET',
      url: `/admin/auth-events?user=${ada}`,
      headers: adminHeaders,
    });
    expect(legacyFeed.json<{ events: Array<{ code: string; user: string }> }>().events).toEqual([
      expect.objectContaining({ code: 'console_sign_in', user: ada, status: 303 }),
    ]);
    // The store holds the session's hash only.
    const { rows } = await world.gateway.deps.db.query<{ id_hash: string }>('SELECT id_hash FROM gw_console_sessions');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(values.get('gw_console')?.split('.')[0]);
  });

  it('refuses a replayed state, and a callback in a browser that did not start the sign-in', async () => {
    const leg = await startSignIn(app());
    expect((await finishSignIn(app(), leg)).statusCode).toBe(303);
    const replayed = await finishSignIn(app(), leg);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toMatchObject({ error: { code: 'sso_callback_invalid' } });
    expect(cookiesOf(replayed).values.get('gw_console')).toBeUndefined();

    const other = await startSignIn(app());
    const elsewhere = await finishSignIn(app(), other, 'gw_sso_flow=someone-elses-binder');
    expect(elsewhere.statusCode).toBe(400);
    // A code sent back naming another issuer (a mix-up between providers) is refused too.
    const mixedUp = await startSignIn(app());
    const url = new URL(mixedUp.callbackUrl);
    url.searchParams.set('iss', 'https://another-provider.example');
    expect((await finishSignIn(app(), { ...mixedUp, callbackUrl: url.href })).statusCode).toBe(400);
    const reasons = (await authEntries(app())).map((entry) => entry.details.reason);
    expect(reasons).toEqual(expect.arrayContaining(['state_replayed', 'browser_mismatch', 'issuer_mismatch']));
  });

  it('limits how many sign-ins one address may start a minute', async () => {
    for (let started = 0; started < 30; started += 1)
      expect((await app().inject({ method: 'GET', url: '/admin/sso/start' })).statusCode).toBe(302);
    const limited = await app().inject({ method: 'GET', url: '/admin/sso/start' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
  });

  it.each([
    ['a wrong nonce', { nonce: 'not-the-nonce-this-sign-in-sent' }, 'nonce_mismatch'],
    ['an expired ID token', { expiresIn: -600 }, 'token_expired'],
    ['an ID token for another audience', { audience: 'another-client' }, 'audience_mismatch'],
    ['an ID token from another issuer', { issuer: 'https://elsewhere.example' }, 'claim_mismatch'],
  ])('refuses %s: 401 and no session', async (_name, tampering, reason) => {
    const leg = await startSignIn(app());
    world.idp.tamperNextIdToken(tampering);
    const finished = await finishSignIn(app(), leg);
    expect(finished.statusCode).toBe(401);
    expect(finished.json()).toMatchObject({ error: { code: 'sso_token_invalid' } });
    expect(cookiesOf(finished).values.get('gw_console')).toBeUndefined();
    const [entry] = await authEntries(app());
    expect(entry).toMatchObject({ action: 'console_sign_in_refused', outcome: 'failure', status: 401 });
    expect(entry?.details.reason).toBe(reason);
    const { rows } = await world.gateway.deps.db.query('SELECT 1 FROM gw_console_sessions');
    expect(rows).toHaveLength(0);
  });

  it('refuses the next request of a user removed from the admin group, and ends the session', async () => {
    const browser = await signIn(app());
    expect(
      (await app().inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: browser.cookie } })).statusCode,
    ).toBe(200);
    await removeFromAdmins(world);
    const refused = await app().inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: browser.cookie } });
    expect(refused.statusCode).toBe(401);
    const { rows } = await world.gateway.deps.db.query<{ revoked_reason: string }>(
      'SELECT revoked_reason FROM gw_console_sessions',
    );
    expect(rows).toEqual([{ revoked_reason: 'role_lost' }]);
    const refusedEntry = (await authEntries(app())).find((entry) => entry.action === 'console_session_refused');
    expect(refusedEntry).toMatchObject({ subject: ada, status: 401, details: { reason: 'role_lost' } });
    // Signing in again is refused too: the directory grants no role.
    const again = await finishSignIn(app(), await startSignIn(app()));
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ error: { code: 'sso_not_admin' } });
  });

  it('refuses a state-changing call without the CSRF token or from another origin', async () => {
    const browser = await signIn(app());
    const put = (headers: Record<string, string>) =>
      app().inject({ method: 'PUT', url: '/admin/v1/settings/setup', headers, payload: skipStep });
    const bare = await put({ cookie: browser.cookie });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({ error: { code: 'csrf_failed' } });
    expect((await put(consoleWrite(browser, { 'x-gw-csrf-token': 'forged' }))).statusCode).toBe(403);
    expect((await put(consoleWrite(browser, { origin: 'https://evil.example' }))).statusCode).toBe(403);
    expect((await put(consoleWrite(browser, { 'sec-fetch-site': 'cross-site' }))).statusCode).toBe(403);
    const legacy = await app().inject({
      method: 'PUT',
      url: '/admin/wizard-step',
      headers: { cookie: browser.cookie },
      payload: skipStep,
    });
    expect(legacy.statusCode).toBe(403);
    const allowed = await put(consoleWrite(browser));
    expect(allowed.statusCode).toBe(200);
    const [written] = (
      await app().inject({ method: 'GET', url: '/admin/v1/audit/events?category=settings', headers: adminHeaders })
    ).json<{ data: Array<{ actor: string; outcome: string }> }>().data;
    expect(written).toMatchObject({ actor: `sso:${ada}`, outcome: 'success' });
    expect((await authEntries(app())).filter((entry) => entry.action === 'console_csrf_refused')).toHaveLength(5);
  });

  it('signs out: the session is revoked and the cookie no longer works', async () => {
    const browser = await signIn(app());
    const withoutToken = await app().inject({
      method: 'POST',
      url: '/admin/sso/logout',
      headers: { cookie: browser.cookie },
    });
    expect(withoutToken.statusCode).toBe(403);
    const out = await app().inject({ method: 'POST', url: '/admin/sso/logout', headers: consoleWrite(browser) });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ signedOut: true });
    expect(cookiesOf(out).raw.find((line) => line.startsWith('gw_console='))).toMatch(/Max-Age=0/);
    const after = await app().inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: browser.cookie } });
    expect(after.statusCode).toBe(401);
    const actions = (await authEntries(app())).map((entry) => entry.action).sort();
    expect(actions).toEqual(['console_csrf_refused', 'console_session_refused', 'console_sign_in', 'console_sign_out']);
  });

  it('rotates the session on a new sign-in and ends it after the idle timeout', async () => {
    const first = await signIn(app());
    const leg = await startSignIn(app());
    const second = await finishSignIn(app(), leg, `${leg.flowCookie}; ${first.cookie}`);
    expect(second.statusCode).toBe(303);
    expect(
      (await app().inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: first.cookie } })).statusCode,
    ).toBe(401);
    const fresh = `gw_console=${cookiesOf(second).values.get('gw_console')}`;
    world.gateway.clock.advance(29 * 60_000);
    expect((await app().inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: fresh } })).statusCode).toBe(
      200,
    );
    world.gateway.clock.advance(30 * 60_000 + 1);
    expect((await app().inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: fresh } })).statusCode).toBe(
      401,
    );
  });

  it('ends a session used all along at its absolute timeout', async () => {
    const third = await signIn(app());
    // Used every twenty minutes, so never idle, until eight hours after sign-in.
    for (let step = 1; step < 24; step += 1) {
      world.gateway.clock.advance(20 * 60_000);
      const me = await app().inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: third.cookie } });
      expect(me.statusCode).toBe(200);
    }
    world.gateway.clock.advance(20 * 60_000);
    expect(
      (await app().inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: third.cookie } })).statusCode,
    ).toBe(401);
  });

  it('answers 503 and signs nobody in while the identity provider is down', async () => {
    const leg = await startSignIn(app());
    world.idp.failKeyDiscovery(true);
    const finished = await finishSignIn(app(), leg);
    expect(finished.statusCode).toBe(503);
    expect(finished.json()).toMatchObject({ error: { code: 'identity_provider_unavailable' } });
    expect(cookiesOf(finished).values.get('gw_console')).toBeUndefined();
    world.gateway.deps.consoleSso.discovery.forget();
    const start = await app().inject({ method: 'GET', url: '/admin/sso/start' });
    expect(start.statusCode).toBe(503);
    expect((await authEntries(app()))[0]?.details.reason).toBe('identity_provider_unavailable');
  });
});

describe('a console cookie from another deployment', () => {
  it('is refused, on another store and on the same store under another deployment id', async () => {
    const world = await startConsoleWorld({ GW_DEPLOYMENT_ID: 'dep_alpha' });
    const elsewhere = await startTestGateway({ env: { GW_PUBLIC_URL: publicUrl } });
    const sameStore = await startTestGateway({
      db: world.gateway.deps.db,
      clock: world.gateway.clock,
      env: { GW_PUBLIC_URL: publicUrl, GW_DEPLOYMENT_ID: 'dep_beta' },
    });
    try {
      const browser = await signIn(world.gateway.app);
      const me = (target: typeof elsewhere) =>
        target.app.inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: browser.cookie } });
      expect((await me(world.gateway)).statusCode).toBe(200);
      expect((await me(elsewhere)).statusCode).toBe(401);
      expect((await me(sameStore)).statusCode).toBe(401);
      const refused = (await authEntries(sameStore.app)).find((entry) => entry.action === 'console_session_refused');
      expect(refused?.details.reason).toBe('foreign_cookie');
    } finally {
      await sameStore.close();
      await elsewhere.close();
      await world.close();
    }
  });
});

describe('console sign-in behind TLS', () => {
  it('sets Secure __Host- cookies when the public URL is https', async () => {
    const world = await startConsoleWorld({ GW_PUBLIC_URL: 'https://gw.example.com' });
    try {
      const app = world.gateway.app;
      const started = await app.inject({ method: 'GET', url: '/admin/sso/start' });
      const flowLine = cookiesOf(started).raw.find((line) => line.startsWith('__Host-gw_sso_flow=')) as string;
      expect(flowLine).toMatch(/; Path=\/; .*HttpOnly; Secure/);
      const atProvider = await fetch(started.headers.location as string, { redirect: 'manual' });
      const callback = new URL(atProvider.headers.get('location') as string);
      expect(callback.origin).toBe('https://gw.example.com');
      const finished = await app.inject({
        method: 'GET',
        url: `${callback.pathname}${callback.search}`,
        headers: { cookie: flowLine.split(';')[0] },
      });
      expect(finished.statusCode).toBe(303);
      const { raw, values } = cookiesOf(finished);
      expect(raw.find((line) => line.startsWith('__Host-gw_console='))).toMatch(/HttpOnly; Secure/);
      expect(raw.find((line) => line.startsWith('__Host-gw_console_csrf='))).toMatch(/Secure/);
      const cookie = `__Host-gw_console=${values.get('__Host-gw_console')}`;
      const me = await app.inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie } });
      expect(me.json()).toMatchObject({ actor: `sso:${ada}` });
    } finally {
      await world.close();
    }
  });
});
