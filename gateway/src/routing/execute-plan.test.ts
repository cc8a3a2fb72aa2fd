import { describe, expect, it } from 'vitest';
import { backoffMs, executePlan, type Attempt, type PlanContext } from './execute-plan.js';
import { parseRoutingConfig, type TargetNode } from './routing-config.js';

function scripted(outcomes: Record<string, Array<number | null>>, retryAfterMs: number | null = null) {
  const calls: string[] = [];
  const run = async (target: TargetNode): Promise<Attempt<string>> => {
    calls.push(target.provider);
    const queue = outcomes[target.provider] ?? [];
    const status = queue.length > 0 ? (queue.shift() as number | null) : 200;
    return { status, retryAfterMs, result: `${target.provider}:${status}`, discard: async () => undefined };
  };
  return { calls, run };
}

const context = (overrides: Partial<PlanContext> = {}): PlanContext & { waits: number[] } => {
  const waits: number[] = [];
  return {
    conversationKey: null,
    random: () => 0.5,
    sleep: async (ms) => void waits.push(ms),
    maxRetryWaitMs: 30_000,
    waits,
    ...overrides,
  };
};

describe('executePlan', () => {
  it('falls back in order on configured status codes and network failures', async () => {
    const plan = parseRoutingConfig({
      mode: 'fallback',
      onStatusCodes: [503],
      targets: [{ provider: 'a' }, { provider: 'b' }, { provider: 'c' }],
    });
    const { calls, run } = scripted({ a: [503], b: [null] });
    const execution = await executePlan(plan, run, context());
    expect(calls).toEqual(['a', 'b', 'c']);
    expect(execution.attempt.result).toBe('c:200');
    expect(execution.attempts).toBe(3);
  });

  it('does not fall back on a status outside onStatusCodes', async () => {
    const plan = parseRoutingConfig({
      mode: 'fallback',
      onStatusCodes: [503],
      targets: [{ provider: 'a' }, { provider: 'b' }],
    });
    const { calls, run } = scripted({ a: [400] });
    expect((await executePlan(plan, run, context())).attempt.result).toBe('a:400');
    expect(calls).toEqual(['a']);
  });

  it('retries a target on its codes honouring Retry-After, capped', async () => {
    const plan = parseRoutingConfig({ provider: 'a', retry: { attempts: 2, onStatusCodes: [429] } });
    const { calls, run } = scripted({ a: [429, 429] }, 90_000);
    const ctx = context();
    const execution = await executePlan(plan, run, ctx);
    expect(calls).toEqual(['a', 'a', 'a']);
    expect(execution.attempt.status).toBe(200);
    expect(ctx.waits).toEqual([30_000, 30_000]);
  });

  it('uses jittered exponential backoff when the provider gives no hint', async () => {
    const plan = parseRoutingConfig({
      provider: 'a',
      retry: { attempts: 3, on_status_codes: [503], use_retry_after_header: false },
    });
    const { run } = scripted({ a: [503, 503, 503] }, 5_000);
    const ctx = context({ random: () => 1 });
    await executePlan(plan, run, ctx);
    expect(ctx.waits).toEqual([250, 500, 1000]);
    expect(backoffMs(0, () => 0, 30_000)).toBe(125);
  });

  it('reads the Portkey spelling: strategy, override_params, nested targets', async () => {
    const plan = parseRoutingConfig({
      strategy: { mode: 'fallback', on_status_codes: [429] },
      targets: [
        { virtual_key: 'primary', override_params: { model: 'gpt-4.1' } },
        { strategy: { mode: 'loadbalance' }, targets: [{ provider: 'b', weight: 1 }] },
      ],
    });
    expect(plan).toMatchObject({
      kind: 'group',
      mode: 'fallback',
      onStatusCodes: [429],
      targets: [
        { kind: 'target', provider: 'primary', model: 'gpt-4.1' },
        { kind: 'group', mode: 'loadbalance' },
      ],
    });
    const { calls, run } = scripted({ primary: [429] });
    await executePlan(plan, run, context());
    expect(calls).toEqual(['primary', 'b']);
  });

  it('keeps a conversation on one loadbalance target and spreads keyless requests by weight', async () => {
    const plan = parseRoutingConfig({
      mode: 'loadbalance',
      targets: [
        { provider: 'a', weight: 1 },
        { provider: 'b', weight: 1 },
      ],
    });
    const picks = new Set<string>();
    for (let turn = 0; turn < 20; turn += 1) {
      const { calls, run } = scripted({});
      await executePlan(plan, run, context({ conversationKey: 'conversation-1' }));
      picks.add(calls[0]);
    }
    expect(picks.size).toBe(1);
    const { calls: low, run: runLow } = scripted({});
    await executePlan(plan, runLow, context({ random: () => 0.1 }));
    const { calls: high, run: runHigh } = scripted({});
    await executePlan(plan, runHigh, context({ random: () => 0.9 }));
    expect([low[0], high[0]]).toEqual(['a', 'b']);
  });

  it('rejects configs carrying credentials and malformed ones', () => {
    expect(() => parseRoutingConfig({ provider: 'a', api_key: 'sk-x' })).toThrow(/credentials/);
    expect(() => parseRoutingConfig({ targets: [{ provider: 'a', override_params: { authorization: 'x' } }] })).toThrow(
      /credentials/,
    );
    expect(() => parseRoutingConfig({ mode: 'fallback', targets: [] })).toThrow(/invalid|targets/);
    expect(() => parseRoutingConfig({ model: 'x' })).toThrow(/names a provider/);
  });
});
