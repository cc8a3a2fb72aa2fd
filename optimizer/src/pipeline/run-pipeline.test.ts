import { afterEach, describe, expect, it, vi } from 'vitest';
import { ansiStrip } from '../strategies/ansi-strip.js';
import { chatSession, FakeStash, handlesIn, hmacKey, messagesOf, output } from './__fixtures__/conversations.js';
import { runPipeline } from './run-pipeline.js';

const tap = output('tap-failures.txt');
const debugLog = output('express-debug-log.txt');
const npmAnsi = output('npm-install-verbose-ansi.txt');
const eslint = output('eslint-errors.txt');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runPipeline', () => {
  it('is deterministic: the same input twice gives byte-identical JSON', async () => {
    const request = chatSession([tap, debugLog, npmAnsi], { question: 'Which tests fail?' });
    const input = { endpoint: '/v1/chat/completions', request, pins: [], capabilities: {} };
    const first = await runPipeline(input, { stash: new FakeStash(), hmacKey });
    const second = await runPipeline(input, { stash: new FakeStash(), hmacKey });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(first.decisions.length).toBeGreaterThan(0);
  });

  it('rewrites only tool output strings: every other value, key and key order is unchanged', async () => {
    const request = chatSession([tap, eslint, debugLog], { question: 'Which tests fail?' });
    const before = JSON.stringify(request);
    const result = await runPipeline(
      { endpoint: '/v1/chat/completions', request, capabilities: {} },
      { stash: new FakeStash(), hmacKey },
    );
    expect(JSON.stringify(request)).toBe(before);
    expect(Object.keys(result.request)).toEqual(Object.keys(request));
    const inMessages = messagesOf(request);
    const outMessages = messagesOf(result.request);
    outMessages.forEach((message, index) => {
      const original = inMessages[index];
      if (message === original) return;
      expect(message.role).toBe('tool');
      expect(Object.keys(message)).toEqual(Object.keys(original));
      expect({ ...message, content: original.content }).toEqual(original);
    });
    expect(outMessages[0]).toBe(inMessages[0]);
    expect(result.request.tools).toBe(request.tools);
  });

  it('never touches the fresh turn: the tool output the model is about to read stays byte for byte, with no pin', async () => {
    const request = chatSession([tap, debugLog, npmAnsi]);
    const result = await runPipeline(
      { endpoint: '/v1/chat/completions', request, pins: [], capabilities: {} },
      { stash: new FakeStash(), hmacKey },
    );
    const messages = messagesOf(result.request);
    // Escapes and trailing blanks included.
    expect(messages[7]?.content).toBe(npmAnsi);
    expect(messages[7]?.content).not.toContain('gw_retrieve');
    expect(messages[3]?.content).toContain('gw_retrieve');
    expect(result.pins?.some((pin) => pin.messageIndex === 7 && pin.kind !== 'prefix_watermark')).toBe(false);
  });

  it("keeps a continuation's fresh function result byte for byte", async () => {
    const request = chatSession([tap, npmAnsi], { retrieve: false });
    const input = {
      endpoint: '/v1/chat/completions',
      request,
      pins: [],
      capabilities: { agentContinuation: true },
      agentContinuationActive: true,
    };
    const result = await runPipeline(input, { stash: new FakeStash(), hmacKey });
    expect(result.agentContinuationV1).toBe(true);
    expect(messagesOf(result.request)[5]?.content).toBe(npmAnsi);
  });

  it('stashes the original and leaves a handle the stash can resolve', async () => {
    const stash = new FakeStash();
    const request = chatSession([tap], { question: 'Which tests fail?' });
    const result = await runPipeline(
      { endpoint: '/v1/chat/completions', request, pins: [], capabilities: {} },
      { stash, hmacKey },
    );
    const [handle] = handlesIn(result.request);
    expect(handle).toBeDefined();
    expect(stash.stored.get(handle)).toBe(tap);
    expect(result.decisions.map((decision) => decision.kind)).toContain('elide_tool_output');
    expect(result.estimatedTokensSaved).toBeGreaterThan(3_000);
  });

  it("keeps a span's bytes when the stash cannot commit: without a handle not even a cleanup applies", async () => {
    const request = chatSession([npmAnsi, tap], { question: 'Which tests fail?', model: 'claude-sonnet-4-5' });
    const result = await runPipeline(
      { endpoint: '/v1/chat/completions', request, capabilities: {} },
      { stash: new FakeStash(false), hmacKey },
    );
    expect(handlesIn(result.request)).toEqual([]);
    // Colours, escapes and trailing blanks stay: a needle is quoted byte for byte and nothing could bring it back.
    expect(messagesOf(result.request)[3]?.content).toBe(npmAnsi);
    expect(messagesOf(result.request)[5]?.content).toBe(tap);
    expect(result.decisions).toEqual([]);
  });

  it('skips a strategy that throws, records it, and still answers', async () => {
    vi.spyOn(ansiStrip, 'plan').mockImplementation(() => {
      throw new Error('boom');
    });
    const request = chatSession([npmAnsi, tap], { question: 'Why?', model: 'claude-sonnet-4-5' });
    // The test run's shape strategy is off so the generic elision acts, as it does for any long output.
    const result = await runPipeline(
      { endpoint: '/v1/chat/completions', request, capabilities: {}, disabledKinds: ['test_log_failures'] },
      { stash: new FakeStash(), hmacKey },
    );
    expect(result.failedKinds).toEqual(['ansi_strip']);
    expect(result.decisions.map((decision) => decision.kind)).toContain('elide_tool_output');
  });

  it('narrows to enabledKinds and honours kill switches by model, user and team', async () => {
    const request = chatSession([tap, npmAnsi], { question: 'Why?', model: 'claude-sonnet-4-5' });
    const base = {
      endpoint: '/v1/chat/completions',
      request,
      capabilities: {},
      metadata: { user: 'u-1', team: 't-1' },
      disabledKinds: ['test_log_failures'],
    };
    const narrowed = await runPipeline(
      { ...base, enabledKinds: ['elide_tool_output'] },
      { stash: new FakeStash(), hmacKey },
    );
    expect(narrowed.decisions.map((decision) => decision.kind)).toEqual(['elide_tool_output']);
    const strategies = [
      { kind: 'elide_tool_output', enabled: false },
      { kind: 'elide_tool_output', enabled: true, team: 't-1' },
      { kind: 'elide_tool_output', enabled: false, user: 'u-1', model: 'claude-sonnet-4-5' },
    ];
    const killed = await runPipeline({ ...base, settings: { strategies } }, { stash: new FakeStash(), hmacKey });
    expect(killed.decisions.map((decision) => decision.kind)).not.toContain('elide_tool_output');
    const otherUser = await runPipeline(
      { ...base, metadata: { user: 'u-2', team: 't-1' }, settings: { strategies } },
      { stash: new FakeStash(), hmacKey },
    );
    expect(otherUser.decisions.map((decision) => decision.kind)).toContain('elide_tool_output');
  });

  it('reports the regression guard holding a kind back', async () => {
    const request = chatSession([tap], { question: 'Why?' });
    const result = await runPipeline(
      { endpoint: '/v1/chat/completions', request, capabilities: {} },
      { stash: new FakeStash(), hmacKey, guard: (kind) => kind !== 'elide_tool_output' },
    );
    expect(result.suppressedKinds).toContainEqual({ kind: 'elide_tool_output', reason: 'regret_guard' });
    expect(handlesIn(result.request)).toEqual([]);
  });

  it('prices savings with the given per-token price', async () => {
    const request = chatSession([tap], { question: 'Why?' });
    const result = await runPipeline(
      { endpoint: '/v1/chat/completions', request, pins: [], capabilities: {} },
      { stash: new FakeStash(), hmacKey, pricePerToken: 0.000002 },
    );
    const [decision] = result.decisions;
    expect(decision?.estimatedSavingsUsd).toBeCloseTo((decision?.estimatedTokensSaved ?? 0) * 0.000002, 8);
  });

  it('returns a body it cannot read unchanged', async () => {
    const request = { model: 'x', prompt: 'legacy completion' };
    const result = await runPipeline(
      { endpoint: '/v1/completions', request, pins: [] },
      { stash: new FakeStash(), hmacKey },
    );
    expect(result.request).toBe(request);
    expect(result.pins).toEqual([]);
  });
});
