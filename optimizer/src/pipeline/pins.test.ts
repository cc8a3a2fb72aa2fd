import { ManualClock } from '@gw/platform';
import { describe, expect, it } from 'vitest';
import { chatSession, FakeStash, hmacKey, messagesOf, output } from './__fixtures__/conversations.js';
import type { PipelineDeps, PipelineInput, PipelineResult } from './index.js';
import { runPipeline } from './run-pipeline.js';
import { TurnLog } from './turn-log.js';

const tap = output('tap-failures.txt');
const debugLog = output('express-debug-log.txt');
const npmAnsi = output('npm-install-verbose-ansi.txt');
const eslint = output('eslint-errors.txt');
const endpoint = '/v1/chat/completions';

async function turns(
  sequence: readonly Record<string, unknown>[],
  deps: PipelineDeps,
  extra: Partial<PipelineInput> = {},
): Promise<PipelineResult[]> {
  const results: PipelineResult[] = [];
  let pins: readonly unknown[] = [];
  for (const request of sequence) {
    const result = await runPipeline({ endpoint, request, pins, capabilities: {}, ...extra }, deps);
    pins = result.pins ?? [];
    results.push(result);
  }
  return results;
}

function kindsOf(pins: readonly unknown[] | undefined): string[] {
  return (pins ?? []).map((pin) => (pin as { kind: string }).kind);
}

/** The same session with every output changed a little: what a client that rewrites its history sends. */
function variant(texts: readonly string[], tag: string): string[] {
  return texts.map((text) => `${tag}\n${text}`);
}

describe('decision pins', () => {
  it('replays every earlier rewrite byte for byte across turns, deciding each output once when it settles', async () => {
    const outputs = [tap, debugLog, npmAnsi, eslint];
    const stash = new FakeStash();
    const sequence = outputs.map((_, index) => chatSession(outputs.slice(0, index + 1)));
    const results = await turns(sequence, { stash, hmacKey });
    // Turn 1: the only output is fresh: untouched, and no pin for it.
    expect(messagesOf(results[0].request)[3]?.content).toBe(tap);
    expect(kindsOf(results[0]?.pins)).toEqual(['prefix_watermark', 'pin_thrash_guard']);
    for (let turn = 1; turn < results.length; turn += 1) {
      const previousFreshStart = 2 + 2 * (turn - 1) + 1;
      const now = messagesOf(results[turn].request).slice(0, previousFreshStart);
      const before = messagesOf(results[turn - 1].request).slice(0, previousFreshStart);
      expect(JSON.stringify(now)).toBe(JSON.stringify(before.length === now.length ? before : now));
    }
    // Turn 3 and 4 carry turn 2's rewrite of the test output unchanged.
    const tapRewrite = messagesOf(results[1].request)[3]?.content;
    expect(tapRewrite).not.toBe(tap);
    expect(messagesOf(results[2].request)[3]?.content).toBe(tapRewrite);
    expect(messagesOf(results[3].request)[3]?.content).toBe(tapRewrite);
    // Each original was stashed once, when it settled; replays re-use the pinned handle.
    expect(stash.puts).toBe(3);
    expect(results[3]?.decisions.find((decision) => decision.kind === 'elide_tool_output')?.summary).toContain(
      'replayed from pins',
    );
    expect(kindsOf(results[3]?.pins).slice(-2)).toEqual(['prefix_watermark', 'pin_thrash_guard']);
  });

  it('asks the stash to re-persist each replayed handle, after the turn is answered', async () => {
    const stash = new FakeStash();
    const [first, second] = await turns([chatSession([tap, debugLog]), chatSession([tap, debugLog, npmAnsi])], {
      stash,
      hmacKey,
    });
    const handle = [...stash.stored.keys()][0];
    expect(handle).toBeDefined();
    expect(JSON.stringify(first?.request)).toContain(handle);
    expect(JSON.stringify(second?.request)).toContain(handle);
    // Off the request path: nothing was re-persisted while the turns were being answered.
    expect(stash.refreshed).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stash.refreshed).toEqual([handle]);
  });

  it('carries no content in pins: fingerprints and parameters only', async () => {
    const [, second] = await turns([chatSession([tap]), chatSession([tap, debugLog])], {
      stash: new FakeStash(),
      hmacKey,
    });
    const serialized = JSON.stringify(second?.pins);
    expect(serialized).not.toContain('Should add cors headers');
    expect(serialized.length).toBeLessThan(1_000);
    const [pin] = second?.pins ?? [];
    expect(pin).toMatchObject({
      v: 1,
      kind: 'elide_tool_output',
      messageIndex: 3,
      recipe: { r: 1, headLines: 20, tailLines: 20 },
    });
    expect((pin as { spanHash: string }).spanHash).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('discards a pin whose original bytes changed and decides that output afresh', async () => {
    const [, second] = await turns([chatSession([tap]), chatSession([tap, debugLog])], {
      stash: new FakeStash(),
      hmacKey,
    });
    const edited = chatSession([`${tap}\n# edited`, debugLog, npmAnsi]);
    const third = await runPipeline(
      { endpoint, request: edited, pins: second?.pins, capabilities: {} },
      { stash: new FakeStash(), hmacKey },
    );
    const tapPins = (third.pins ?? []).filter((pin) => (pin as { messageIndex?: number }).messageIndex === 3);
    expect(tapPins.map((pin) => pin.kind)).toEqual(['elide_tool_output', 'whitespace_trim']);
    for (const pin of tapPins) expect(second?.pins).not.toContain(pin);
    expect(messagesOf(third.request)[3]?.content).toContain('gw_retrieve');
  });

  it('returns a pin it declined (kill switch) without applying it', async () => {
    const [, second] = await turns([chatSession([tap]), chatSession([tap, debugLog])], {
      stash: new FakeStash(),
      hmacKey,
    });
    const settings = { strategies: [{ kind: 'elide_tool_output', enabled: false }] };
    const third = await runPipeline(
      { endpoint, request: chatSession([tap, debugLog, npmAnsi]), pins: second?.pins, capabilities: {}, settings },
      { stash: new FakeStash(), hmacKey },
    );
    expect(messagesOf(third.request)[3]?.content).toBe(tap);
    expect(third.pins).toContain(second?.pins?.[0]);
  });

  it('answers pins only when the request carried them, and returns them untouched on a no-retrieve lane', async () => {
    const withoutPins = await runPipeline(
      { endpoint, request: chatSession([tap, debugLog]), capabilities: {} },
      { stash: new FakeStash(), hmacKey },
    );
    expect(withoutPins.pins).toBeUndefined();
    const [, second] = await turns([chatSession([tap]), chatSession([tap, debugLog])], {
      stash: new FakeStash(),
      hmacKey,
    });
    const toolless = chatSession([tap, debugLog, npmAnsi], { tools: false });
    const noRetrieve = await runPipeline(
      { endpoint, request: toolless, pins: second?.pins, capabilities: {} },
      { stash: new FakeStash(), hmacKey },
    );
    expect(noRetrieve.pins).toEqual(second?.pins);
    expect(JSON.stringify(noRetrieve.request)).not.toContain('ctx_');
  });

  it('trips the thrash guard after two consecutive turns of more discards than replays, never after one', async () => {
    const base = [tap, debugLog];
    const sequence = ['a', 'b', 'c'].map((tag) => chatSession([...variant(base, tag), npmAnsi]));
    // Then the history holds still and the install log settles while the cooloff lasts.
    sequence.push(chatSession([...variant(base, 'c'), npmAnsi, eslint]));
    const results = await turns(sequence, { stash: new FakeStash(), hmacKey });
    const guardOf = (result: PipelineResult | undefined) =>
      result?.pins?.find((pin) => pin.kind === 'pin_thrash_guard');
    expect(results[1]?.suppressedKinds).toEqual([]);
    expect(guardOf(results[1])).toMatchObject({ strikes: 1, cooloff: 0 });
    expect(results[2]?.suppressedKinds).toContainEqual({ kind: 'elide_tool_output', reason: 'pin_thrash' });
    expect(guardOf(results[2])).toMatchObject({ strikes: 0, cooloff: 2 });
    // The cooloff lasts a few turns even once the history is stable again.
    expect(results[3]?.suppressedKinds).toContainEqual({ kind: 'log_fold', reason: 'pin_thrash' });
    expect(messagesOf(results[3].request)[7]?.content).not.toContain('gw_retrieve');
    expect(guardOf(results[3])).toMatchObject({ cooloff: 1 });
  });

  it('leaves history the provider already cached alone, and rewrites it once that cache has expired', async () => {
    const clock = new ManualClock();
    const stash = new FakeStash();
    const turnTimes = new TurnLog().forSession('session');
    const held = { stash, hmacKey, clock, turns: turnTimes, guard: (kind: string) => kind !== 'elide_tool_output' };
    const [, second] = await turns([chatSession([tap]), chatSession([tap, debugLog])], held);
    // Held back when it settled, the output keeps the bytes it was first sent with.
    expect(messagesOf(second.request)[3]?.content).toBe(tap);
    clock.advance(60_000);
    const third = await runPipeline(
      { endpoint, request: chatSession([tap, debugLog, npmAnsi]), pins: second?.pins, capabilities: {} },
      { stash, hmacKey, clock, turns: turnTimes },
    );
    expect(messagesOf(third.request)[3]?.content).toBe(tap);
    expect(third.suppressedKinds).toContainEqual({ kind: 'elide_tool_output', reason: 'prefix_stabilizer' });
    expect(messagesOf(third.request)[5]?.content).not.toBe(debugLog);
    clock.advance(6 * 60_000);
    const fourth = await runPipeline(
      { endpoint, request: chatSession([tap, debugLog, npmAnsi, eslint]), pins: third.pins, capabilities: {} },
      { stash, hmacKey, clock, turns: turnTimes },
    );
    expect(messagesOf(fourth.request)[3]?.content).toContain('gw_retrieve');
  });

  it('without pins on a caching upstream, holds handle rewrites back (cache_guard) unless handles are stable', async () => {
    const request = chatSession([tap, debugLog], { question: 'Why?' });
    const guarded = await runPipeline({ endpoint, request, capabilities: {} }, { stash: new FakeStash(), hmacKey });
    expect(guarded.suppressedKinds).toContainEqual({ kind: 'elide_tool_output', reason: 'cache_guard' });
    expect(JSON.stringify(guarded.request)).not.toContain('ctx_');
    const stable = await runPipeline(
      { endpoint, request, capabilities: {} },
      { stash: new FakeStash(), hmacKey, stableHandles: true },
    );
    expect(JSON.stringify(stable.request)).toContain('ctx_');
    const uncached = await runPipeline(
      { endpoint, request, capabilities: { providerPromptCache: false, providerPromptCacheKnown: true } },
      { stash: new FakeStash(), hmacKey },
    );
    expect(JSON.stringify(uncached.request)).toContain('ctx_');
  });
});
