import { describe, expect, it } from 'vitest';
import type { GuardrailVerdict, StoredGuardrailHook } from './guardrail.schema.js';
import { GuardrailHookFailure } from './guardrail-hook.client.js';
import { runGuardrails } from './run-guardrails.js';

const hook = (name: string, overrides: Partial<StoredGuardrailHook> = {}): StoredGuardrailHook => ({
  name,
  url: `https://hooks.example.com/${name}`,
  timeoutMs: 100,
  failMode: 'open',
  sendContent: false,
  hasBearer: false,
  sealedBearer: null,
  ...overrides,
});
const call = {
  requestId: 'r1',
  endpoint: '/v1/chat/completions',
  model: 'gpt-4o',
  stream: false,
  user: 'ada@example.com',
  team: 'compilers',
  keyId: 'key_1',
  keyType: 'client' as const,
};

function run(
  hooks: StoredGuardrailHook[],
  answers: Record<string, GuardrailVerdict | GuardrailHookFailure>,
  contentAllowed = true,
) {
  const asked: Array<{ name: string; body: unknown }> = [];
  const outcomes: string[] = [];
  const result = runGuardrails({
    hooks,
    call,
    body: { messages: [] },
    contentAllowed,
    bearerOf: () => null,
    callHook: async (target, sent) => {
      const name = target.url.split('/').pop() ?? '';
      asked.push({ name, body: sent.body });
      const answer = answers[name] ?? { action: 'allow' };
      if (answer instanceof GuardrailHookFailure) throw answer;
      return answer;
    },
    observe: (name, outcome) => outcomes.push(`${name}:${outcome}`),
  });
  return { result, asked, outcomes };
}

describe('runGuardrails', () => {
  it.each([
    ['every hook allows', [hook('a'), hook('b')], {}, null, ['a:allow', 'b:allow']],
    [
      'the first refusal wins and later hooks are not asked',
      [hook('a'), hook('b')],
      { a: { action: 'deny' as const, reason: 'no' } },
      { status: 403, code: 'guardrail_denied' },
      ['a:deny'],
    ],
    [
      'a refusal may ask for 400',
      [hook('a')],
      { a: { action: 'deny' as const, status: 400 as const } },
      { status: 400, code: 'guardrail_denied' },
      ['a:deny'],
    ],
    [
      'a failing open hook is skipped',
      [hook('a'), hook('b')],
      { a: new GuardrailHookFailure('timeout') },
      null,
      ['a:failed_open', 'b:allow'],
    ],
    [
      'a failing closed hook refuses with 503',
      [hook('a', { failMode: 'closed' })],
      { a: new GuardrailHookFailure('unreachable') },
      { status: 503, code: 'guardrail_unavailable' },
      ['a:failed_closed'],
    ],
  ])('%s', async (_label, hooks, answers, expected, outcomes) => {
    const { result, outcomes: seen } = run(hooks, answers);
    const denial = await result;
    if (expected === null) expect(denial).toBeNull();
    else expect(denial).toMatchObject(expected);
    expect(seen).toEqual(outcomes);
  });

  it('asks only the hooks for this endpoint, and sends the body only when asked for and allowed', async () => {
    const hooks = [
      hook('messages-only', { endpoints: ['/v1/messages'] }),
      hook('content', { sendContent: true }),
      hook('facts'),
    ];
    const allowed = run(hooks, {});
    await allowed.result;
    expect(allowed.asked).toEqual([
      { name: 'content', body: { messages: [] } },
      { name: 'facts', body: undefined },
    ]);
    const off = run(hooks, {}, false);
    await off.result;
    expect(off.asked.map((asked) => asked.body)).toEqual([undefined, undefined]);
  });
});
