import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '@gw/platform';
import { startIdentityProvider, type IdentityProviderHandle } from '@gw/testkit';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';
import { configureScim, groupSchema, oktaUser, patch, scim } from './scim-support.js';

export const publicUrl = 'http://gw.test';
export const clientId = 'gw-console';
export const clientSecret = 'console-secret-0123456789';
export const ada = 'ada@example.com';

export interface ConsoleWorld {
  gateway: TestGateway;
  idp: IdentityProviderHandle;
  adminsGroupId: string;
  adaId: string;
  close(): Promise<void>;
}

/**
 * A gateway whose console signs in with the testkit identity provider: Ada is provisioned by SCIM and a member of
 * the adminGroup. The gateway's clock starts at the real time, because the provider stamps tokens with it.
 */
export async function startConsoleWorld(env: Record<string, string> = {}): Promise<ConsoleWorld> {
  const idp = await startIdentityProvider();
  const gateway = await startTestGateway({
    clock: new ManualClock(Date.now()),
    env: { GW_PUBLIC_URL: publicUrl, ...env },
  });
  const base = env.GW_PUBLIC_URL ?? publicUrl;
  idp.registerClient({ clientId, clientSecret, redirectUris: [`${base}/admin/sso/callback`] });
  idp.signInAs({ sub: 'okta|ada', email: ada, name: 'Ada Lovelace' });
  await configureScim(gateway.app, { adminGroup: 'gw-admins' });
  const adaId = (await scim(gateway.app, 'POST', '/Users', oktaUser(ada))).json<{ id: string }>().id;
  const admins = await scim(gateway.app, 'POST', '/Groups', {
    schemas: [groupSchema],
    displayName: 'gw-admins',
    members: [{ value: adaId, display: ada }],
  });
  const configured = await gateway.app.inject({
    method: 'PUT',
    url: '/admin/v1/sso',
    headers: adminHeaders,
    payload: { issuer: idp.issuer, clientId, clientSecret },
  });
  if (configured.statusCode !== 200) throw new Error(`idp config: ${configured.statusCode} ${configured.body}`);
  return {
    gateway,
    idp,
    adminsGroupId: admins.json<{ id: string }>().id,
    adaId,
    close: async () => {
      await gateway.close();
      await idp.close();
    },
  };
}

/** `name=value` pairs of a response's Set-Cookie headers (attributes dropped), and the raw headers. */
export function cookiesOf(response: LightMyRequestResponse): { values: Map<string, string>; raw: string[] } {
  const header = response.headers['set-cookie'];
  const raw = Array.isArray(header) ? header : header ? [header] : [];
  const values = new Map<string, string>();
  for (const line of raw) {
    const pair = line.split(';')[0];
    const at = pair.indexOf('=');
    values.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return { values, raw };
}

export interface BrowserLeg {
  /** The callback URL the identity provider redirected the browser to. */
  callbackUrl: string;
  /** The flow cookie `/admin/sso/start` set. */
  flowCookie: string;
}

/** The browser's first two legs: start at the gateway, then the identity provider's authorization endpoint. */
export async function startSignIn(app: FastifyInstance, returnTo?: string): Promise<BrowserLeg> {
  const started = await app.inject({
    method: 'GET',
    url: `/admin/sso/start${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`,
  });
  if (started.statusCode !== 302) throw new Error(`start: ${started.statusCode} ${started.body}`);
  const flow = cookiesOf(started).values.get('gw_sso_flow') as string;
  const atProvider = await fetch(started.headers.location as string, { redirect: 'manual' });
  const callbackUrl = atProvider.headers.get('location') as string;
  return { callbackUrl, flowCookie: `gw_sso_flow=${flow}` };
}

/** The callback leg, as the browser sends it (path and query on the gateway, with the flow cookie). */
export function finishSignIn(app: FastifyInstance, leg: BrowserLeg, cookie = leg.flowCookie) {
  const url = new URL(leg.callbackUrl);
  return app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { cookie } });
}

export interface ConsoleBrowser {
  /** The Cookie header the browser sends from now on. */
  cookie: string;
  csrfToken: string;
}

/** A whole sign-in; throws unless it ended with a session. */
export async function signIn(app: FastifyInstance): Promise<ConsoleBrowser> {
  const finished = await finishSignIn(app, await startSignIn(app));
  if (finished.statusCode !== 303) throw new Error(`callback: ${finished.statusCode} ${finished.body}`);
  const values = cookiesOf(finished).values;
  const session = values.get('gw_console') as string;
  const csrfToken = values.get('gw_console_csrf') as string;
  return { cookie: `gw_console=${session}; gw_console_csrf=${csrfToken}`, csrfToken };
}

/** A state-changing console call as the console's script makes it. */
export function consoleWrite(browser: ConsoleBrowser, extra: Record<string, string> = {}) {
  return { cookie: browser.cookie, 'x-gw-csrf-token': browser.csrfToken, origin: publicUrl, ...extra };
}

export async function removeFromAdmins(world: ConsoleWorld): Promise<void> {
  const removed = await scim(
    world.gateway.app,
    'PATCH',
    `/Groups/${world.adminsGroupId}`,
    patch({ op: 'remove', path: `members[value eq "${world.adaId}"]` }),
  );
  if (removed.statusCode >= 300) throw new Error(`group patch: ${removed.statusCode} ${removed.body}`);
}

/** The auth lane of the audit trail, newest first: what `/admin/auth-events` serves, with each entry's reason. */
export async function authEntries(app: FastifyInstance) {
  const response = await app.inject({
    method: 'GET',
    url: '/admin/v1/audit/events?category=auth&limit=100',
    headers: adminHeaders,
  });
  return response.json<{
    data: Array<{
      action: string;
      subject: string | null;
      outcome: string;
      status: number | null;
      details: { reason?: string | null };
    }>;
  }>().data;
}
