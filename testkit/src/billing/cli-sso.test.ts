import { randomBytes } from 'node:crypto';
import { billingError, cliSsoPollResponse, cliSsoStartResponse, type CliSsoPollResponse } from '@gw/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startBillingSimulator,
  type BillingSimulatorHandle,
  type BillingSimulatorOptions,
} from './billing-simulator.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');
const TEN_MINUTES_MS = 10 * 60 * 1000;
const USER_CODE = 'WDJB-MJHT';
const DIRECTORY = {
  'ada@acme.example': { teams: ['platform', 'payments'], defaultTeam: 'platform' },
  'grace@acme.example': { teams: ['research'], role: 'team_admin', subject: 'okta|00u1grace' },
};

let simulator: BillingSimulatorHandle;
let clock = START;

async function start(options: BillingSimulatorOptions = {}): Promise<BillingSimulatorHandle> {
  clock = START;
  simulator = await startBillingSimulator({ now: () => clock, directory: DIRECTORY, ...options });
  return simulator;
}

afterEach(async () => {
  await simulator.close();
});

function newSessionId(): string {
  return `cli_${randomBytes(16).toString('base64url')}`;
}

function machine(path: string, body: unknown, token = simulator.deploymentToken): Promise<Response> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: text,
  });
}

function startRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sessionId: newSessionId(),
    userCode: USER_CODE,
    expiresAt: new Date(clock + TEN_MINUTES_MS).toISOString(),
    ...overrides,
  };
}

/** Starts a login the way the gateway does; the session id and the activation URL billing answered. */
async function startLogin(overrides: Record<string, unknown> = {}): Promise<{ sessionId: string; browserUrl: string }> {
  const request = startRequest(overrides);
  const response = await machine('/v1/cli-sso/start', request);
  expect(response.status).toBe(200);
  return {
    sessionId: request.sessionId as string,
    browserUrl: cliSsoStartResponse.parse(await response.json()).browserUrl,
  };
}

async function poll(sessionId: string): Promise<CliSsoPollResponse> {
  const response = await machine('/v1/cli-sso/poll', { sessionId });
  expect(response.status).toBe(200);
  return cliSsoPollResponse.parse(await response.json());
}

/** What a browser submits from the activation form. */
function authorize(fields: Record<string, string>): Promise<Response> {
  return fetch(`${simulator.url}/sso/cli/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return billingError.parse(await response.json()).error;
}

describe('POST /v1/cli-sso/start', () => {
  it('records the session and answers an activation URL on the simulator that does not carry the user code', async () => {
    await start();
    const request = startRequest();
    const response = await machine('/v1/cli-sso/start', request);

    expect(response.status).toBe(200);
    const { browserUrl } = cliSsoStartResponse.parse(await response.json());
    expect(browserUrl).toBe(`${simulator.url}/sso/cli/activate/${request.sessionId as string}`);
    expect(browserUrl).not.toContain('WDJB');
    expect(simulator.cliSessions).toEqual([request]);
    expect(await poll(request.sessionId as string)).toEqual({ status: 'pending' });
  });

  it('refuses a session id that was already started with 409 session_exists', async () => {
    await start();
    const request = startRequest();
    await machine('/v1/cli-sso/start', request);
    const repeat = await machine('/v1/cli-sso/start', { ...request, userCode: 'BCDF-GHJK' });

    expect(repeat.status).toBe(409);
    expect((await errorOf(repeat)).code).toBe('session_exists');
    expect(simulator.cliSessions).toEqual([request]);
  });

  it.each([
    ['a lowercase user code', { userCode: 'wdjb-mjht' }, /^userCode: /],
    ['a user code with vowels', { userCode: 'ABCD-EFGH' }, /^userCode: /],
    ['a session id without the cli_ prefix', { sessionId: 'sess_0123456789012345678901' }, /^sessionId: /],
    ['an expiry that is not an instant', { expiresAt: 'in ten minutes' }, /^expiresAt: /],
    ['a field the contract does not know', { pollSecret: 'secret' }, /^pollSecret: /],
  ])('rejects a start with %s with 400 invalid_request naming the field', async (_case, overrides, message) => {
    await start();
    const response = await machine('/v1/cli-sso/start', startRequest(overrides));

    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(message);
    expect(simulator.cliSessions).toEqual([]);
  });

  it('rejects a body that is not JSON with 400 invalid_request', async () => {
    await start();
    const response = await machine('/v1/cli-sso/start', '{"sessionId":');

    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({ code: 'invalid_request', message: 'body is not JSON' });
  });
});

describe('POST /v1/cli-sso/poll', () => {
  it('answers an unknown session with 404 not_found', async () => {
    await start();
    const response = await machine('/v1/cli-sso/poll', { sessionId: newSessionId() });

    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('not_found');
  });

  it('rejects a poll body with an unknown field with 400 invalid_request naming it', async () => {
    await start();
    const { sessionId } = await startLogin();
    const response = await machine('/v1/cli-sso/poll', { sessionId, pollSecret: 'x' });

    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^pollSecret: /);
  });

  it('answers denied expired once the simulator clock reaches expiresAt, even after a verified sign-in', async () => {
    await start();
    const { sessionId } = await startLogin();
    simulator.approveCliLogin(sessionId, { email: 'ada@acme.example', teams: ['platform'] });
    clock = START + TEN_MINUTES_MS - 1;
    expect((await poll(sessionId)).status).toBe('verified');

    clock = START + TEN_MINUTES_MS;
    expect(await poll(sessionId)).toEqual({ status: 'denied', reason: 'expired' });
  });

  it.each([
    ['/v1/cli-sso/start', 'a missing bearer', null],
    ['/v1/cli-sso/start', 'an unknown token', 'adt_unknownunknownunknownunknown0000'],
    ['/v1/cli-sso/poll', 'a missing bearer', null],
    ['/v1/cli-sso/poll', 'an unknown token', 'adt_unknownunknownunknownunknown0000'],
  ])('%s rejects %s with 401 invalid_deployment_token', async (path, _case, token) => {
    await start();
    const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
    const response = await fetch(`${simulator.url}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(startRequest()),
    });

    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('invalid_deployment_token');
    expect(simulator.cliSessions).toEqual([]);
  });
});

describe('the CLI login browser pages', () => {
  it('verifies a developer who types the code and an email in the directory, then shows the callback page', async () => {
    await start();
    const { sessionId, browserUrl } = await startLogin();
    const page = await fetch(browserUrl);

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/sso/cli/authorize">');
    expect(html).toContain(`<input type="hidden" name="id" value="${sessionId}">`);
    expect(html).toMatch(/name="user_code"/);
    expect(html).toMatch(/name="email"/);
    expect(await poll(sessionId)).toEqual({ status: 'pending' });

    const authorized = await authorize({ id: sessionId, user_code: USER_CODE, email: 'ada@acme.example' });
    expect(authorized.status).toBe(302);
    expect(authorized.headers.get('location')).toBe('/sso/cli/callback?status=ok');

    const callback = await fetch(new URL(authorized.headers.get('location') ?? '', simulator.url));
    expect(callback.status).toBe(200);
    expect(await callback.text()).toContain('You can close this window');

    const answer = await poll(sessionId);
    expect(answer).toEqual({
      status: 'verified',
      identity: { subject: expect.stringMatching(/^sub_[0-9a-f]{24}$/), email: 'ada@acme.example' },
      teams: ['platform', 'payments'],
      defaultTeam: 'platform',
      role: 'developer',
      keyLifetimeHours: 720,
    });
  });

  it('takes the directory’s role and subject and the configured key lifetime, matching the email without regard to case', async () => {
    await start({ cliKeyLifetimeHours: 12 });
    const { sessionId } = await startLogin();
    await authorize({ id: sessionId, user_code: 'wdjbmjht', email: ' Grace@ACME.example ' });

    expect(await poll(sessionId)).toEqual({
      status: 'verified',
      identity: { subject: 'okta|00u1grace', email: 'grace@acme.example' },
      teams: ['research'],
      defaultTeam: null,
      role: 'team_admin',
      keyLifetimeHours: 12,
    });
  });

  it('answers a wrong code with 400 and the form again, keeps the session pending, then accepts the right code', async () => {
    await start();
    const { sessionId } = await startLogin();
    const wrong = await authorize({ id: sessionId, user_code: 'BCDF-GHJK', email: 'ada@acme.example' });

    expect(wrong.status).toBe(400);
    const html = await wrong.text();
    expect(html).toContain('wrong code');
    expect(html).toContain('action="/sso/cli/authorize"');
    expect(await poll(sessionId)).toEqual({ status: 'pending' });

    const right = await authorize({ id: sessionId, user_code: 'wdjb-mjht', email: 'ada@acme.example' });
    expect(right.status).toBe(302);
    expect((await poll(sessionId)).status).toBe('verified');
  });

  it('denies the session access_denied on the fifth wrong code and refuses the right code afterwards', async () => {
    await start();
    const { sessionId } = await startLogin();
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect((await authorize({ id: sessionId, user_code: 'BCDF-GHJK', email: 'ada@acme.example' })).status).toBe(400);
    }
    const fifth = await authorize({ id: sessionId, user_code: 'BCDF-GHJK', email: 'ada@acme.example' });

    expect(fifth.status).toBe(403);
    expect(await fifth.text()).toContain('Too many wrong codes');
    expect(await poll(sessionId)).toEqual({ status: 'denied', reason: 'access_denied' });
    expect((await authorize({ id: sessionId, user_code: USER_CODE, email: 'ada@acme.example' })).status).toBe(409);
    expect(await poll(sessionId)).toEqual({ status: 'denied', reason: 'access_denied' });
  });

  it('denies an email that is not in the directory no_company with a 403 page', async () => {
    await start();
    const { sessionId } = await startLogin();
    const response = await authorize({ id: sessionId, user_code: USER_CODE, email: 'mallory@elsewhere.example' });

    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await poll(sessionId)).toEqual({ status: 'denied', reason: 'no_company' });
  });

  it('sees directory changes made between sign-ins', async () => {
    await start({ directory: {} });
    simulator.setDirectoryEntry('Linus@Acme.example', { teams: ['kernel'], role: 'owner' });
    const added = await startLogin();
    await authorize({ id: added.sessionId, user_code: USER_CODE, email: 'linus@acme.example' });
    expect(await poll(added.sessionId)).toMatchObject({ status: 'verified', teams: ['kernel'], role: 'owner' });

    simulator.removeDirectoryEntry('linus@acme.example');
    const removed = await startLogin();
    await authorize({ id: removed.sessionId, user_code: USER_CODE, email: 'linus@acme.example' });
    expect(await poll(removed.sessionId)).toEqual({ status: 'denied', reason: 'no_company' });
  });

  it('answers 404 pages for an unknown session and for one past its expiry on the simulator clock', async () => {
    await start();
    const unknown = await fetch(`${simulator.url}/sso/cli/activate/${newSessionId()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');

    const { sessionId, browserUrl } = await startLogin();
    clock = START + TEN_MINUTES_MS;
    expect((await fetch(browserUrl)).status).toBe(404);
    expect((await authorize({ id: sessionId, user_code: USER_CODE, email: 'ada@acme.example' })).status).toBe(404);
    expect(await poll(sessionId)).toEqual({ status: 'denied', reason: 'expired' });
  });

  it('answers 404 for an activation path that is not a session, without echoing it into the page', async () => {
    await start();
    const response = await fetch(`${simulator.url}/sso/cli/activate/%3Cscript%3E`);

    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('<script');
  });
});

describe('CLI login test controls', () => {
  it('approves a session without the browser, with defaults and with overrides', async () => {
    await start();
    const first = await startLogin();
    const second = await startLogin();
    simulator.approveCliLogin(first.sessionId, { email: 'ci@acme.example', teams: [] });
    simulator.approveCliLogin(second.sessionId, {
      email: 'ci@acme.example',
      teams: ['ops'],
      defaultTeam: 'ops',
      role: 'admin',
      subject: 'sub_ci',
      keyLifetimeHours: 24,
    });

    expect(await poll(first.sessionId)).toMatchObject({
      status: 'verified',
      teams: [],
      defaultTeam: null,
      role: 'developer',
      keyLifetimeHours: 720,
    });
    expect(await poll(second.sessionId)).toEqual({
      status: 'verified',
      identity: { subject: 'sub_ci', email: 'ci@acme.example' },
      teams: ['ops'],
      defaultTeam: 'ops',
      role: 'admin',
      keyLifetimeHours: 24,
    });
  });

  it('denies a session with the reason given, replacing an earlier approval', async () => {
    await start();
    const { sessionId, browserUrl } = await startLogin();
    simulator.approveCliLogin(sessionId, { email: 'ada@acme.example', teams: ['platform'] });
    simulator.denyCliLogin(sessionId, 'revoked');

    expect(await poll(sessionId)).toEqual({ status: 'denied', reason: 'revoked' });
    expect((await fetch(browserUrl)).status).toBe(409);
  });

  it('refuses an unknown session, an identity the contract rejects and a bad key lifetime', async () => {
    await start();
    const { sessionId } = await startLogin();

    expect(() => simulator.approveCliLogin(newSessionId(), { email: 'ada@acme.example', teams: [] })).toThrow(
      /no CLI login session/,
    );
    expect(() => simulator.approveCliLogin(sessionId, { email: 'not-an-email', teams: [] })).toThrow(/identity\.email/);
    expect(() =>
      simulator.approveCliLogin(sessionId, { email: 'ada@acme.example', teams: [], keyLifetimeHours: 0 }),
    ).toThrow(/keyLifetimeHours/);
    expect(() => simulator.setDirectoryEntry('ada@acme.example', { teams: [''] })).toThrow(/teams\.0/);
    await expect(startBillingSimulator({ cliKeyLifetimeHours: 1.5 })).rejects.toThrow(/cliKeyLifetimeHours/);
    expect(await poll(sessionId)).toEqual({ status: 'pending' });
  });
});

describe('CLI login and the rest of the simulator', () => {
  it('lets failNext fail the /v1/cli-sso routes but not the browser pages', async () => {
    await start();
    simulator.failNext(1);
    const failed = await machine('/v1/cli-sso/start', startRequest());
    expect(failed.status).toBe(503);
    expect((await errorOf(failed)).code).toBe('service_unavailable');
    expect(simulator.cliSessions).toEqual([]);

    const { sessionId, browserUrl } = await startLogin();
    simulator.failNext(1);
    expect((await fetch(browserUrl)).status).toBe(200);
    expect((await machine('/v1/cli-sso/poll', { sessionId })).status).toBe(503);
    expect(await poll(sessionId)).toEqual({ status: 'pending' });
  });

  it('answers a wrong method with 405 and records paths and statuses without bodies', async () => {
    await start();
    const wrongMethod = await fetch(`${simulator.url}/v1/cli-sso/poll`, {
      headers: { authorization: `Bearer ${simulator.deploymentToken}` },
    });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');

    const { sessionId } = await startLogin();
    await authorize({ id: sessionId, user_code: USER_CODE, email: 'ada@acme.example' });
    expect(simulator.requests).toEqual([
      { method: 'GET', path: '/v1/cli-sso/poll', status: 405 },
      { method: 'POST', path: '/v1/cli-sso/start', status: 200 },
      { method: 'POST', path: '/sso/cli/authorize', status: 302 },
    ]);
  });
});
