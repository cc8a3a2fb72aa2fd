import { describe, expect, it } from 'vitest';
import {
  callSignature,
  SessionSignals,
  type SessionMemory,
  type ToolCallFact,
  type TurnFacts,
} from './session-signals.js';

const window = 30 * 60_000;
const t0 = Date.UTC(2026, 0, 15, 12);

function memory(overrides: Partial<SessionMemory> = {}): SessionMemory {
  return { at: t0, messageCount: 4, replaced: new Map(), crop: null, pruned: new Map(), ...overrides };
}

function turn(messageCount: number, calls: ToolCallFact[], fingerprint = 'next'): TurnFacts {
  return { messageCount, calls: () => calls, fingerprint: () => fingerprint };
}

describe('SessionSignals', () => {
  it('charges a replaced result whose call is re-run with the same arguments, JSON layout aside', () => {
    const signals = new SessionSignals();
    const replaced = new Map([
      [callSignature('bash', '{"cmd":"npm test"}'), [{ kind: 'elide_tool_output', firedAt: t0 - 1 }]],
    ]);
    signals.remember('s', memory({ replaced }));
    const calls = [
      { messageIndex: 2, name: 'bash', input: '{"cmd":"npm test"}' }, // the old call: not new
      { messageIndex: 5, name: 'bash', input: '{ "cmd": "npm test" }' },
      { messageIndex: 7, name: 'bash', input: '{"cmd":"npm test"}' }, // the same re-run twice counts once
    ];
    expect(signals.detect('s', turn(8, calls), t0 + 1_000, window)).toEqual([
      { kind: 'elide_tool_output', firedAt: t0 - 1, signal: 'tool_rerun' },
    ]);
  });

  it('does not charge different arguments, whitespace inside strings, or a shorter (compacted) history', () => {
    const signals = new SessionSignals();
    signals.remember(
      's',
      memory({
        replaced: new Map([[callSignature('bash', '{"cmd":"npm test"}'), [{ kind: 'log_fold', firedAt: t0 }]]]),
      }),
    );
    expect(
      signals.detect('s', turn(6, [{ messageIndex: 5, name: 'bash', input: '{"cmd":"npm  test"}' }]), t0, window),
    ).toEqual([]);
    expect(
      signals.detect('s', turn(3, [{ messageIndex: 2, name: 'bash', input: '{"cmd":"npm test"}' }]), t0, window),
    ).toEqual([]);
  });

  it('charges the same request retried after a window crop, and only the same one', () => {
    const signals = new SessionSignals();
    signals.remember(
      's',
      memory({ crop: { fingerprint: 'abc', messageCount: 4, kinds: [{ kind: 'window_budget', firedAt: t0 }] } }),
    );
    expect(signals.detect('s', turn(4, [], 'abc'), t0 + 5_000, window)).toEqual([
      { kind: 'window_budget', firedAt: t0, signal: 'retry_after_crop' },
    ]);
    expect(signals.detect('s', turn(4, [], 'other'), t0 + 5_000, window)).toEqual([]);
    expect(signals.detect('s', turn(6, [], 'abc'), t0 + 5_000, window)).toEqual([]);
  });

  it('charges a call of a tool that pruning dropped (the seam for a pruning strategy)', () => {
    const signals = new SessionSignals();
    signals.remember('s', memory({ pruned: new Map([['web_search', [{ kind: 'tool_prune', firedAt: t0 }]]]) }));
    expect(signals.detect('s', turn(6, [{ messageIndex: 5, name: 'web_search', input: '{}' }]), t0, window)).toEqual([
      { kind: 'tool_prune', firedAt: t0, signal: 'pruned_tool_call' },
    ]);
  });

  it('ignores a memory older than the window and sessions it never saw', () => {
    const signals = new SessionSignals();
    signals.remember(
      's',
      memory({ crop: { fingerprint: 'abc', messageCount: 4, kinds: [{ kind: 'window_budget', firedAt: t0 }] } }),
    );
    expect(signals.detect('s', turn(4, [], 'abc'), t0 + window + 1, window)).toEqual([]);
    expect(signals.detect('other', turn(4, [], 'abc'), t0, window)).toEqual([]);
  });

  it('stays bounded, forgetting the oldest sessions first', () => {
    const signals = new SessionSignals(2);
    for (const key of ['a', 'b', 'c']) signals.remember(key, memory());
    expect([signals.has('a'), signals.has('b'), signals.has('c')]).toEqual([false, true, true]);
  });
});
