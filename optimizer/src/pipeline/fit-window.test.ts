import { describe, expect, it } from 'vitest';
import { chatSession, FakeStash, handlesIn, hmacKey, messagesOf, output } from './__fixtures__/conversations.js';
import { countTokensExact } from '../tokens/count-tokens.js';
import { runPipeline } from './run-pipeline.js';

const listing = output('read-file-listing.txt');
const endpoint = '/v1/chat/completions';

/** Fourteen short code listings: each below every per-output threshold, together over a small window. */
function session(): Record<string, unknown> {
  const part = listing.slice(0, 1_800);
  return chatSession(
    Array.from({ length: 14 }, (_, index) => `${part}\n// copy ${index}`),
    { model: 'claude-sonnet-4-5' },
  );
}

describe('window_budget', () => {
  it('cuts the oldest settled outputs until the transcript fits, never the system prompt, tools or fresh turn', async () => {
    const request = session();
    const result = await runPipeline(
      { endpoint, request, capabilities: {}, metadata: { modelContextTokens: 6_000 } },
      { stash: new FakeStash(), hmacKey },
    );
    const messages = messagesOf(result.request);
    const original = messagesOf(request);
    const stubbed = messages
      .filter((message, index) => message.content !== original[index]?.content)
      .map((message) => messages.indexOf(message));
    expect(stubbed.length).toBeGreaterThan(0);
    expect(stubbed[0]).toBe(3);
    expect(stubbed).toEqual(stubbed.slice().sort((a, b) => a - b));
    expect(messages[0]).toBe(original[0]);
    expect(messages[messages.length - 1]).toBe(original[original.length - 1]);
    expect(result.request.tools).toBe(request.tools);
    expect(result.decisions.map((decision) => decision.kind)).toContain('window_budget');
    expect(handlesIn(result.request).length).toBe(stubbed.length);
    const text = messages.map((message) => (typeof message.content === 'string' ? message.content : '')).join('\n');
    expect(countTokensExact(text)).toBeLessThanOrEqual(5_700);
  });

  it('uses the lower client budget when it is below the model window', async () => {
    const request = session();
    const roomy = await runPipeline(
      { endpoint, request, capabilities: {}, metadata: { modelContextTokens: 200_000 } },
      { stash: new FakeStash(), hmacKey },
    );
    expect(roomy.decisions.map((decision) => decision.kind)).not.toContain('window_budget');
    const tight = await runPipeline(
      {
        endpoint,
        request,
        capabilities: { clientContextBudgetTokens: 6_000 },
        metadata: { modelContextTokens: 200_000 },
      },
      { stash: new FakeStash(), hmacKey },
    );
    expect(tight.decisions.map((decision) => decision.kind)).toContain('window_budget');
  });

  it('on an api-key lane without retrieval it does not drop content, unless one-shot batch lines allow it', async () => {
    const request = { ...session(), tools: [] };
    const skipped = await runPipeline(
      { endpoint, request, capabilities: {}, metadata: { modelContextTokens: 6_000 } },
      { stash: new FakeStash(), hmacKey },
    );
    expect(skipped.suppressedKinds).toContainEqual({ kind: 'window_budget', reason: 'no_retrieve' });
    const batch = await runPipeline(
      {
        endpoint,
        request,
        capabilities: { allowIrreversibleWindowFit: true },
        metadata: { modelContextTokens: 6_000 },
      },
      { stash: new FakeStash(), hmacKey },
    );
    expect(JSON.stringify(batch.request)).toContain('(trimmed; not retrievable)');
  });

  it('pins a stub cut from an output, so the next turn replays it byte for byte', async () => {
    // Trailing blanks on every line: a cleanup would only touch them once a handle holds the original (ADR 0008).
    const padded = (index: number) => `${listing.slice(0, 1_800).replace(/\n/g, '  \n')}\n// copy ${index}`;
    const outputs = Array.from({ length: 14 }, (_, index) => padded(index));
    const input = { endpoint, capabilities: {}, metadata: { modelContextTokens: 6_000 } };
    const first = await runPipeline(
      { ...input, request: chatSession(outputs, { model: 'claude-sonnet-4-5' }), pins: [] },
      { stash: new FakeStash(), hmacKey },
    );
    const stubPins = (first.pins ?? []).filter((pin) => pin.messageIndex === 3).map((pin) => pin.kind);
    expect(stubPins).toEqual(['window_budget']);
    const next = await runPipeline(
      { ...input, request: chatSession([...outputs, 'ok'], { model: 'claude-sonnet-4-5' }), pins: first.pins },
      { stash: new FakeStash(), hmacKey },
    );
    expect(messagesOf(next.request)[3]).toEqual(messagesOf(first.request)[3]);
  });
});
