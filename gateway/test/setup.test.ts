import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';
import { signIn, startConsoleWorld, type ConsoleWorld } from './console-sso-support.js';

interface SetupBody {
  complete: boolean;
  next: string | null;
  steps: Array<{ id: string; state: string; detail: string; skippedBy: string | null }>;
}

const stateOf = (body: SetupBody) => Object.fromEntries(body.steps.map((step) => [step.id, step.state]));

describe('first-run setup', () => {
  let gateway: TestGateway;
  beforeEach(async () => {
    gateway = await startTestGateway();
  });
  afterEach(async () => {
    await gateway.close();
  });
  const read = async () =>
    (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/settings/setup', headers: adminHeaders })
    ).json<SetupBody>();
  const call = (method: 'PUT' | 'POST', url: string, payload: Record<string, unknown>) =>
    gateway.app.inject({ method, url, headers: adminHeaders, payload });

  it('derives each step from the store that holds it, so work done anywhere shows and setup resumes there', async () => {
    const fresh = await read();
    expect(fresh).toMatchObject({ complete: false, next: 'admin-sign-in' });
    expect(fresh.steps.map((step) => step.id)).toEqual([
      'admin-sign-in',
      'provider-key',
      'routing-default',
      'identity-provider',
      'enrollment-link',
    ]);
    expect(new Set(Object.values(stateOf(fresh)))).toEqual(new Set(['pending']));

    expect(
      (
        await call('PUT', '/admin/v1/providers/primary/key', {
          type: 'openai',
          apiKey: 'sk-test-0000',
          baseUrl: 'http://127.0.0.1:9',
        })
      ).statusCode,
    ).toBe(200);
    expect((await call('PUT', '/admin/v1/routing', { defaultProvider: 'primary' })).statusCode).toBe(200);
    expect((await call('POST', '/admin/v1/enrollment/links', { team: 'platform' })).statusCode).toBe(201);
    const progressed = await read();
    expect(stateOf(progressed)).toEqual({
      'admin-sign-in': 'pending',
      'provider-key': 'done',
      'routing-default': 'done',
      'identity-provider': 'pending',
      'enrollment-link': 'done',
    });
    expect(progressed.next).toBe('admin-sign-in');
    expect(progressed.steps.find((step) => step.id === 'routing-default')?.detail).toBe('default provider primary');
  });

  it('skips a step idempotently, takes a skip back, and serves the legacy wizard routes', async () => {
    const skip = (skipped: boolean) => call('PUT', '/admin/v1/settings/setup', { step: 'identity-provider', skipped });
    const first = (await skip(true)).json<SetupBody>();
    const again = (await skip(true)).json<SetupBody>();
    expect(stateOf(first)['identity-provider']).toBe('skipped');
    expect(again).toEqual(first);
    expect(first.steps.find((step) => step.id === 'identity-provider')?.skippedBy).toBe('admin-token');
    const legacy = await gateway.app.inject({ method: 'GET', url: '/admin/wizard-state', headers: adminHeaders });
    expect(legacy.headers.deprecation).toBe('true');
    expect(legacy.headers.link).toBe('</admin/v1/settings/setup>; rel="successor-version"');
    expect(legacy.json()).toEqual(first);
    const back = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/wizard-step',
      headers: adminHeaders,
      payload: { step: 'identity-provider', skipped: false },
    });
    expect(stateOf(back.json<SetupBody>())['identity-provider']).toBe('pending');
    expect((await call('PUT', '/admin/v1/settings/setup', { step: 'no-such-step', skipped: true })).statusCode).toBe(
      400,
    );
  });
});

describe('first-run setup with console sign-in', () => {
  let world: ConsoleWorld;
  beforeEach(async () => {
    world = await startConsoleWorld();
  });
  afterEach(async () => {
    await world.close();
  });

  it('marks the sign-in and identity-provider steps done once an administrator signed in', async () => {
    const read = async () =>
      (
        await world.gateway.app.inject({ method: 'GET', url: '/admin/v1/settings/setup', headers: adminHeaders })
      ).json<SetupBody>();
    expect(stateOf(await read())).toMatchObject({ 'admin-sign-in': 'pending', 'identity-provider': 'done' });
    const browser = await signIn(world.gateway.app);
    expect(stateOf(await read())['admin-sign-in']).toBe('done');
    // The console reads it with its session too.
    const viaSession = await world.gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/settings/setup',
      headers: { cookie: browser.cookie },
    });
    expect(viaSession.statusCode).toBe(200);
  });
});
