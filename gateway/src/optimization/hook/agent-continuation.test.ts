import { describe, expect, it } from 'vitest';
import { MemoryCoord, ManualClock } from '@gw/platform';
import { coordWith } from '@gw/testkit';
import { ContinuationHolds, continuationHoldMs, isVerifiedContinuation } from './agent-continuation.js';

const call = { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"cmd":"ls"}' };
const output = { type: 'function_call_output', call_id: 'call_1', output: 'a.txt\nb.txt' };
const transcript = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o',
  input: [{ role: 'user', content: 'list' }, call, output],
  ...extra,
});

describe('isVerifiedContinuation', () => {
  it('accepts a transcript ending in a typed function-call output with no callable tool', () => {
    expect(isVerifiedContinuation(transcript())).toBe(true);
    expect(isVerifiedContinuation(transcript({ tools: [] }))).toBe(true);
    expect(
      isVerifiedContinuation(
        transcript({ tools: [{ type: 'function', name: 'shell', parameters: {} }], tool_choice: 'none' }),
      ),
    ).toBe(true);
    expect(
      isVerifiedContinuation({
        ...transcript(),
        input: [output, { ...output, output: [{ type: 'input_text', text: 'ok' }] }],
      }),
    ).toBe(true);
  });

  it('refuses a callable catalog, in tools or in an input item', () => {
    expect(isVerifiedContinuation(transcript({ tools: [{ type: 'function', name: 'shell', parameters: {} }] }))).toBe(
      false,
    );
    expect(
      isVerifiedContinuation(transcript({ tools: [{ type: 'function', name: 'shell' }], tool_choice: 'auto' })),
    ).toBe(false);
    expect(
      isVerifiedContinuation({
        model: 'gpt-4o',
        input: [{ type: 'additional_tools', tools: [{ type: 'function', name: 'shell' }] }, call, output],
      }),
    ).toBe(false);
    expect(isVerifiedContinuation(transcript({ tools: 'shell' }))).toBe(false);
  });

  it('refuses anything that does not end in a typed function result', () => {
    expect(isVerifiedContinuation({ model: 'gpt-4o', input: 'hello' })).toBe(false);
    expect(isVerifiedContinuation({ model: 'gpt-4o', input: [] })).toBe(false);
    expect(isVerifiedContinuation({ model: 'gpt-4o', input: [output, { role: 'user', content: 'and now?' }] })).toBe(
      false,
    );
    expect(isVerifiedContinuation({ model: 'gpt-4o', input: [{ ...output, call_id: '' }] })).toBe(false);
    expect(
      isVerifiedContinuation({ model: 'gpt-4o', input: [{ type: 'function_call_output', call_id: 'c', output: 7 }] }),
    ).toBe(false);
    expect(isVerifiedContinuation({ input: [output] })).toBe(false);
  });
});

describe('ContinuationHolds', () => {
  it('holds a session for the cooldown, then lets it be offered again', async () => {
    const clock = new ManualClock(0);
    const holds = new ContinuationHolds(new MemoryCoord({ clock }));
    expect(await holds.isHeld('gws_a')).toBe(false);
    await holds.hold('gws_a');
    expect(await holds.isHeld('gws_a')).toBe(true);
    expect(await holds.isHeld('gws_b')).toBe(false);
    clock.advance(continuationHoldMs);
    expect(await holds.isHeld('gws_a')).toBe(false);
  });

  it('reads an unreachable store as held, so the client’s bytes go out', async () => {
    const down = coordWith(new MemoryCoord({ clock: new ManualClock(0) }), {
      getValue: () => Promise.reject(new Error('redis down')),
    });
    expect(await new ContinuationHolds(down).isHeld('gws_a')).toBe(true);
  });
});
