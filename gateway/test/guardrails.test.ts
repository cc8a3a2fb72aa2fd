import { startGuardrailHook, type GuardrailHookHandle } from '@gw/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminHeaders } from './helpers.js';
import { spendRows, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

const hookBearer = 'guardrail-bearer-0123456789';

describe('guardrail hooks in the admission stage', () => {
  let fixture: InferenceFixture;
  let hook: GuardrailHookHandle;
  const admin = (method: 'GET' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    fixture.gateway.app.inject({ method, url, headers: adminHeaders, ...(payload ? { payload } : {}) });
  const setHooks = async (hooks: Array<Record<string, unknown>>) => {
    const response = await admin('PUT', '/admin/v1/settings/guardrails', { hooks });
    expect(response.statusCode).toBe(200);
    return response;
  };
  const chat = (content = 'summarise the design doc', endpoint = '/v1/chat/completions') =>
    fixture.gateway.app.inject({
      method: 'POST',
      url: endpoint,
      headers: fixture.auth,
      payload:
        endpoint === '/v1/messages'
          ? { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content }] }
          : { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] },
    });

  beforeAll(async () => {
    hook = await startGuardrailHook();
    fixture = await startInferenceFixture();
  });
  afterAll(async () => {
    await fixture?.close();
    await hook?.close();
  });
  beforeEach(async () => {
    hook.decide(() => ({ action: 'allow' }));
    await setHooks([]);
    await admin('PUT', '/admin/v1/settings', { contentMode: 'full' });
  });

  it('asks no one when no hook is configured', async () => {
    const before = hook.requests.length;
    expect((await chat()).statusCode).toBe(200);
    expect(hook.requests.length).toBe(before);
  });

  it('sends the call’s facts with the bearer, never the body unless the hook asks for it, and lets an allowed call through', async () => {
    const saved = await setHooks([{ name: 'policy', url: `${hook.url}/check`, bearer: hookBearer }]);
    expect(saved.json().hooks).toEqual([
      {
        name: 'policy',
        url: `${hook.url}/check`,
        timeoutMs: 1000,
        failMode: 'open',
        sendContent: false,
        hasBearer: true,
      },
    ]);
    expect(saved.body).not.toContain(hookBearer);
    const before = hook.requests.length;
    expect((await chat()).statusCode).toBe(200);
    const received = hook.requests[before];
    expect(received?.headers.authorization).toBe(`Bearer ${hookBearer}`);
    expect(received?.json).toMatchObject({
      endpoint: '/v1/chat/completions',
      model: 'gpt-4o-mini',
      stream: false,
      user: 'ada@example.com',
      team: 'compilers',
      keyType: 'client',
    });
    expect(received?.json).not.toHaveProperty('body');
    // A later write that leaves the bearer out keeps it.
    await setHooks([{ name: 'policy', url: `${hook.url}/check`, sendContent: true }]);
    expect((await admin('GET', '/admin/v1/settings/guardrails')).json().hooks[0]).toMatchObject({
      hasBearer: true,
      sendContent: true,
    });
  });

  it('refuses a denied call in the caller’s envelope before any model call, and records it', async () => {
    await setHooks([{ name: 'pii', url: hook.url, sendContent: true }]);
    hook.decide((call) =>
      JSON.stringify(call.body ?? '').includes('passport')
        ? { action: 'deny', reason: 'personal data in the prompt', status: 400 }
        : { action: 'allow' },
    );
    const providerCalls = fixture.openai.requests.length;
    const refused = await chat('my passport number is X123');
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['x-should-retry']).toBe('false');
    expect(refused.json().error).toMatchObject({
      code: 'guardrail_denied',
      message: 'Refused by the guardrail "pii": personal data in the prompt',
    });
    expect(fixture.openai.requests.length).toBe(providerCalls);
    const messages = await chat('my passport number is X123', '/v1/messages');
    expect(messages.statusCode).toBe(400);
    expect(messages.json()).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('personal data in the prompt') },
    });
    const rows = await spendRows(fixture.gateway);
    expect(rows.filter((row) => row.error_code === 'guardrail_denied' && row.outcome === 'rejected')).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain('passport');
    expect((await chat('a harmless question')).statusCode).toBe(200);
  });

  it('sends no body while the content mode is off, whatever the hook asks', async () => {
    await setHooks([{ name: 'pii', url: hook.url, sendContent: true }]);
    await admin('PUT', '/admin/v1/settings', { contentMode: 'off' });
    const before = hook.requests.length;
    expect((await chat('my passport number is X123')).statusCode).toBe(200);
    expect(hook.requests[before]?.json).not.toHaveProperty('body');
  });

  it('judges a hook that gives no verdict by its fail mode', async () => {
    hook.decide(() => 'hang');
    await setHooks([{ name: 'slow', url: hook.url, timeoutMs: 100, failMode: 'open' }]);
    expect((await chat()).statusCode).toBe(200);
    await setHooks([{ name: 'slow', url: hook.url, timeoutMs: 100, failMode: 'closed' }]);
    const closed = await chat();
    expect(closed.statusCode).toBe(503);
    expect(closed.json().error).toMatchObject({
      code: 'guardrail_unavailable',
      message: expect.stringContaining('timeout'),
    });
    hook.decide(() => ({ httpStatus: 500 }));
    expect((await chat()).json().error.message).toContain('bad_status');
    const metrics = (await fixture.gateway.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/gw_guardrail_decisions_total\{hook="slow",outcome="failed_closed"\} 2/);
  });

  it('validates what it stores', async () => {
    const cases: Array<Record<string, unknown>> = [
      { hooks: [{ name: 'Bad Name', url: hook.url }] },
      { hooks: [{ name: 'a', url: 'ftp://example.com/hook' }] },
      {
        hooks: [
          { name: 'a', url: hook.url },
          { name: 'a', url: hook.url },
        ],
      },
      { hooks: [{ name: 'a', url: hook.url, timeoutMs: 60_000 }] },
      { hooks: [{ name: 'a', url: hook.url, bearer: 'short' }] },
    ];
    for (const payload of cases) {
      const refused = await admin('PUT', '/admin/v1/settings/guardrails', payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('invalid_request');
    }
  });
});
