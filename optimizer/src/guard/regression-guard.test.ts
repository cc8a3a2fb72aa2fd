import { describe, expect, it } from 'vitest';
import { ManualClock } from '@gw/platform';
import { GuardRequest, type GuardRequestInput } from './guard-request.js';
import { defaultGuardThresholds, resolveGuardThresholds, type GuardSettings } from './guard-thresholds.js';
import { RegressionGuard } from './regression-guard.js';
import type { SpanRewrite } from './span-rewrite.js';

const minute = 60_000;

function harness(thresholds = defaultGuardThresholds) {
  const clock = new ManualClock();
  const settings: { current: GuardSettings } = { current: { enabled: true, thresholds } };
  const regrets: string[] = [];
  const guard = new RegressionGuard({
    settings: () => settings.current,
    onRegret: (signal, kind) => regrets.push(`${signal}:${kind}`),
  });
  return { clock, settings, guard, regrets };
}

function openLane(h: ReturnType<typeof harness>, kind = 'elide_tool_output', tenant = 'acme'): void {
  for (let index = 0; index < 50; index += 1) h.guard.fire(tenant, kind, null, false, h.clock.now());
  for (let index = 0; index < 10; index += 1) h.guard.regret(tenant, kind, h.clock.now(), 'retrieve', h.clock.now());
}

function lane(h: ReturnType<typeof harness>, kind = 'elide_tool_output', tenant = 'acme') {
  return h.guard.snapshots(h.clock.now()).find((snapshot) => snapshot.kind === kind && snapshot.tenant === tenant);
}

describe('RegressionGuard verdicts', () => {
  it('allows a closed or unknown lane, suppresses an open one, per tenant', () => {
    const h = harness();
    expect(h.guard.verdict('acme', 'elide_tool_output', 'opt_1', h.clock.now())).toBe('allow');
    openLane(h);
    expect(h.guard.verdict('acme', 'elide_tool_output', 'opt_1', h.clock.now())).toBe('suppress_open');
    expect(h.guard.verdict('acme', 'log_fold', 'opt_1', h.clock.now())).toBe('allow');
    expect(h.guard.verdict('other-tenant', 'elide_tool_output', 'opt_1', h.clock.now())).toBe('allow');
  });

  it('lets about one in ten half-open requests probe, chosen by hashing the request', () => {
    const h = harness();
    openLane(h);
    h.clock.advance(10 * minute);
    const verdicts = Array.from({ length: 2_000 }, (_, index) =>
      h.guard.verdict('acme', 'elide_tool_output', `opt_${index}`, h.clock.now()),
    );
    const probes = verdicts.filter((verdict) => verdict === 'probe').length;
    expect(probes).toBeGreaterThan(160);
    expect(probes).toBeLessThan(240);
    expect(verdicts.filter((verdict) => verdict !== 'probe').every((verdict) => verdict === 'suppress_half_open')).toBe(
      true,
    );
    // The same request gets the same answer.
    const again = Array.from({ length: 2_000 }, (_, index) =>
      h.guard.verdict('acme', 'elide_tool_output', `opt_${index}`, h.clock.now()),
    );
    expect(again).toEqual(verdicts);
  });

  it('keeps counting but holds nothing back when switched off', () => {
    const h = harness();
    h.settings.current = { ...h.settings.current, enabled: false };
    openLane(h);
    expect(lane(h)?.state).toBe('open');
    expect(h.guard.verdict('acme', 'elide_tool_output', 'opt_1', h.clock.now())).toBe('allow');
  });

  it('takes new thresholds from the settings at once', () => {
    const h = harness();
    h.settings.current = {
      enabled: true,
      thresholds: resolveGuardThresholds({ minFired: 5, minRegrets: 2, lowTrafficMinFired: 3 }),
    };
    for (let index = 0; index < 5; index += 1) h.guard.fire('acme', 'log_fold', null, false, h.clock.now());
    h.guard.regret('acme', 'log_fold', h.clock.now(), 'tool_rerun', h.clock.now());
    h.guard.regret('acme', 'log_fold', h.clock.now(), 'tool_rerun', h.clock.now());
    expect(lane(h, 'log_fold')).toMatchObject({ state: 'open', reason: 'window', regretRate: 0.4 });
  });
});

describe('RegressionGuard fires and retrieves', () => {
  it('counts a rewrite once per window however many turns replay it', () => {
    const h = harness();
    for (let turn = 0; turn < 5; turn += 1) h.guard.fire('acme', 'elide_tool_output', 'ctx_a', false, h.clock.now());
    expect(lane(h)?.fired).toBe(1);
    h.clock.advance(30 * minute);
    h.guard.fire('acme', 'elide_tool_output', 'ctx_a', false, h.clock.now());
    expect(lane(h)?.fired).toBe(1);
  });

  it('charges a model retrieve to the strategies that elided behind the handle, once per window', () => {
    const h = harness();
    expect(h.guard.retrieved('ctx_unknown', h.clock.now())).toBe(false);
    h.guard.noteHandle('ctx_a', 'acme', ['json_array_summary', 'elide_tool_output'], h.clock.now());
    for (let index = 0; index < 3; index += 1) expect(h.guard.retrieved('ctx_a', h.clock.now())).toBe(true);
    expect(h.regrets).toEqual(['retrieve:json_array_summary', 'retrieve:elide_tool_output']);
    expect(lane(h, 'json_array_summary')?.regrets).toBe(1);
  });
});

const bashCall = '{"cmd":"npm test"}';

function rewrite(overrides: Partial<SpanRewrite> = {}): SpanRewrite {
  return {
    key: 'm2',
    messageIndex: 2,
    toolName: 'bash',
    toolInput: bashCall,
    handle: 'ctx_a',
    steps: [{ kind: 'elide_tool_output', replayed: false, handle: true }],
    ...overrides,
  };
}

function chat(messages: number): Record<string, unknown> {
  return {
    model: 'gpt-4o',
    messages: Array.from({ length: messages }, (_, index) => ({ role: 'user', content: `m${index}` })),
  };
}

function input(overrides: Partial<GuardRequestInput> = {}): GuardRequestInput {
  return {
    tenant: 'acme',
    sessionKey: 'acme\u0000ada\u0000s1',
    requestFingerprint: 'opt_1',
    request: chat(4),
    pins: undefined,
    calls: () => [],
    ...overrides,
  };
}

describe('GuardRequest (one /v1/optimize call)', () => {
  it('counts rewrites, notes handles and charges a re-run of a replaced call on the next turn', () => {
    const h = harness();
    new GuardRequest(h.guard, input(), h.clock.now()).settle({
      decisions: [],
      rewrites: [rewrite()],
      suppressedKinds: [],
    });
    expect(lane(h)?.fired).toBe(1);
    h.clock.advance(minute);
    const next = input({
      request: chat(6),
      requestFingerprint: 'opt_2',
      calls: () => [{ messageIndex: 4, name: 'bash', input: bashCall }],
    });
    new GuardRequest(h.guard, next, h.clock.now());
    expect(h.regrets).toEqual(['tool_rerun:elide_tool_output']);
    expect(h.guard.retrieved('ctx_a', h.clock.now())).toBe(true);
  });

  it('charges a fresh trim’s regrets to the fresh_trim lane as well as to the strategy', () => {
    const h = harness();
    const fresh = rewrite({
      handle: 'ctx_fresh',
      fresh: true,
      steps: [{ kind: 'file_outline', replayed: false, handle: true }],
    });
    new GuardRequest(h.guard, input(), h.clock.now()).settle({ decisions: [], rewrites: [fresh], suppressedKinds: [] });
    expect(lane(h, 'fresh_trim')?.fired).toBe(1);
    h.clock.advance(minute);
    // The model re-ran the very call whose fresh output was outlined, then read the original back.
    new GuardRequest(
      h.guard,
      input({
        request: chat(6),
        requestFingerprint: 'opt_2',
        calls: () => [{ messageIndex: 4, name: 'bash', input: bashCall }],
      }),
      h.clock.now(),
    );
    expect(h.regrets).toEqual(['tool_rerun:file_outline', 'tool_rerun:fresh_trim']);
    h.regrets.length = 0;
    expect(h.guard.retrieved('ctx_fresh', h.clock.now())).toBe(true);
    expect(h.regrets).toEqual(['retrieve:file_outline', 'retrieve:fresh_trim']);
  });

  it('does not count a settled rewrite or a replayed fresh trim on the fresh_trim lane', () => {
    const h = harness();
    new GuardRequest(h.guard, input(), h.clock.now()).settle({
      decisions: [],
      rewrites: [
        rewrite(),
        rewrite({
          key: 'm3',
          handle: 'ctx_b',
          fresh: true,
          steps: [{ kind: 'elide_tool_output', replayed: true, handle: true }],
        }),
      ],
      suppressedKinds: [],
    });
    expect(lane(h, 'fresh_trim')).toBeUndefined();
  });

  it('charges the cropped request retried unchanged in session', () => {
    const h = harness();
    const cropped = rewrite({ handle: null, steps: [{ kind: 'window_budget', replayed: false, handle: false }] });
    new GuardRequest(h.guard, input(), h.clock.now()).settle({
      decisions: [],
      rewrites: [cropped],
      suppressedKinds: [],
    });
    new GuardRequest(h.guard, input(), h.clock.now() + 2_000);
    expect(h.regrets).toEqual(['retry_after_crop:window_budget']);
  });

  it('charges a call of a pruned tool through the pruning seam', () => {
    const h = harness();
    new GuardRequest(h.guard, input(), h.clock.now()).settle({
      decisions: [],
      suppressedKinds: [],
      prunedTools: [{ kind: 'tool_prune', tools: ['web_search'] }],
    });
    new GuardRequest(
      h.guard,
      input({ request: chat(6), calls: () => [{ messageIndex: 5, name: 'web_search', input: '{}' }] }),
      h.clock.now(),
    );
    expect(h.regrets).toEqual(['pruned_tool_call:tool_prune']);
  });

  it('answers the pipeline hook consistently and emits one guard_suppressed decision per held-back kind', () => {
    const h = harness();
    openLane(h);
    const request = new GuardRequest(h.guard, input(), h.clock.now());
    expect([request.allow('elide_tool_output'), request.allow('elide_tool_output'), request.allow('log_fold')]).toEqual(
      [false, false, true],
    );
    const decisions = request.settle({
      decisions: [],
      suppressedKinds: [
        { kind: 'elide_tool_output', reason: 'regret_guard' },
        { kind: 'json_minify', reason: 'no_retrieve' },
      ],
    });
    expect(decisions).toEqual([
      {
        kind: 'guard_suppressed',
        summary: 'regression guard held back elide_tool_output (open)',
        estimatedTokensSaved: 0,
        estimatedSavingsUsd: 0,
      },
    ]);
  });

  it('notes the handles incoming pins carry, so a retrieve after a replica switch is still charged', () => {
    const h = harness();
    const pins = [
      { v: 1, kind: 'log_fold', messageIndex: 2, spanHash: 'x', recipe: { r: 1, handle: 'ctx_pinned' } },
      { kind: 'prefix_watermark' },
    ];
    new GuardRequest(h.guard, input({ pins }), h.clock.now());
    expect(h.guard.retrieved('ctx_pinned', h.clock.now())).toBe(true);
    expect(h.regrets).toEqual(['retrieve:log_fold']);
  });

  it('counts one fire per acting decision when the pipeline reports no rewrites', () => {
    const h = harness();
    const decision = { kind: 'stash_tool_output', summary: 's', estimatedTokensSaved: 10, estimatedSavingsUsd: 0 };
    new GuardRequest(h.guard, input(), h.clock.now()).settle({
      decisions: [decision, { ...decision, kind: 'noop', estimatedTokensSaved: 0 }],
      suppressedKinds: [],
    });
    expect(h.guard.snapshots(h.clock.now()).map((snapshot) => [snapshot.kind, snapshot.fired])).toEqual([
      ['stash_tool_output', 1],
    ]);
  });
});
