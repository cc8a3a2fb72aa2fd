import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startIdentityProvider, type IdentityProviderHandle } from '@gw/testkit';
import { startGatewayStack, type GatewayStack } from './gateway-stack.js';

const scimBearer = 'e2e-scim-bearer-0123456789abcdef';
const ada = 'ada@example.com';

/** A SCIM call as the identity provider's provisioning client makes it. */
async function scim(stack: GatewayStack, path: string, body: unknown): Promise<{ id: string }> {
  const response = await fetch(`${stack.gateway.url}/scim/v2${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${scimBearer}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`SCIM ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/**
 * A real browser (Debian's headless chromium) signs an administrator in to the console of a real gateway process with
 * the testkit identity provider, then makes a console change with the CSRF token and signs out.
 */
describe('console sign-in in a headless browser', () => {
  let stack: GatewayStack;
  let idp: IdentityProviderHandle;
  let browser: Browser;

  beforeAll(async () => {
    idp = await startIdentityProvider();
    stack = await startGatewayStack();
    idp.registerClient({
      clientId: 'gw-console',
      clientSecret: 'console-secret-0123456789',
      redirectUris: [`${stack.gateway.url}/admin/sso/callback`],
    });
    idp.signInAs({ sub: 'okta|ada', email: ada, name: 'Ada Lovelace' });
    expect(
      (await stack.admin('PUT', '/admin/v1/sso/scim', { bearerToken: scimBearer, adminGroup: 'gw-admins' })).status,
    ).toBe(200);
    const user = await scim(stack, '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: ada,
      active: true,
    });
    await scim(stack, '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'gw-admins',
      members: [{ value: user.id }],
    });
    const configured = await stack.admin('PUT', '/admin/v1/sso', {
      issuer: idp.issuer,
      clientId: 'gw-console',
      clientSecret: 'console-secret-0123456789',
    });
    expect(configured.status).toBe(200);
    // Root in a container has no user namespace for chromium's sandbox.
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await idp?.close();
  });

  it('signs in through the identity provider, changes a setting with the CSRF token, and signs out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The console lands on a page of the gateway's own origin (the API explorer here: API answers forbid scripts).
    const landed = await page.goto(`${stack.gateway.url}/admin/sso/start?returnTo=/docs`);
    expect(landed?.status()).toBe(200);
    expect(page.url().startsWith(`${stack.gateway.url}/docs`)).toBe(true);
    const signedIn: unknown = await page.evaluate(async () => (await fetch('/admin/sso/session')).json());
    expect(signedIn).toMatchObject({ user: ada, role: 'owner' });

    const cookies = await context.cookies(stack.gateway.url);
    const session = cookies.find((cookie) => cookie.name === 'gw_console');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookies.find((cookie) => cookie.name === 'gw_sso_flow')).toBeUndefined();

    // The console's script: a change needs the CSRF token it reads from its own readable cookie.
    const statuses = await page.evaluate(async () => {
      // This runs in the page; the e2e project compiles without the DOM library, so the page's document is typed here.
      const { document } = globalThis as unknown as { document: { cookie: string } };
      const csrf = /(?:^|; )gw_console_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const change = (headers: Record<string, string>) =>
        fetch('/admin/v1/settings/setup', {
          method: 'PUT',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ step: 'enrollment-link', skipped: true }),
        }).then((response) => response.status);
      const withoutToken = await change({});
      const withToken = await change({ 'x-gw-csrf-token': csrf });
      const signedOut = await fetch('/admin/sso/logout', { method: 'POST', headers: { 'x-gw-csrf-token': csrf } });
      const after = await fetch('/admin/sso/session');
      return { withoutToken, withToken, signedOut: signedOut.status, after: after.status };
    });
    expect(statuses).toEqual({ withoutToken: 403, withToken: 200, signedOut: 200, after: 401 });
    const events = await stack.admin('GET', '/admin/v1/audit/events?category=auth');
    const actions = (events.body.data as Array<{ action: string }>).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['console_sign_in', 'console_csrf_refused', 'console_sign_out']));
    await context.close();
    // A real browser and a real gateway process on a shared machine: generous, never a timing assertion.
  }, 120_000);
});
