import { describe, expect, it } from 'vitest';
import {
  chatSession,
  FakeStash,
  handlesIn,
  hmacKey,
  messagesOf,
  output,
  retrieveTool,
} from './__fixtures__/conversations.js';
import { runPipeline } from './run-pipeline.js';

const tap = output('tap-failures.txt');
const debugLog = output('express-debug-log.txt');
const endpoint = '/v1/chat/completions';
// A model without implicit prompt caching, so lane behaviour is seen without cache protection in the way.
const model = 'claude-sonnet-4-5';

async function optimize(request: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return runPipeline({ endpoint, request, capabilities: {}, ...extra }, { stash: new FakeStash(), hmacKey });
}

describe('lanes', () => {
  it('emits no handle when the request declares no tools, and says why', async () => {
    const result = await optimize(chatSession([tap, debugLog], { tools: false, model, question: 'Why?' }));
    expect(handlesIn(result.request)).toEqual([]);
    expect(result.suppressedKinds).toContainEqual({ kind: 'elide_tool_output', reason: 'no_retrieve' });
    expect(messagesOf(result.request)[3]?.content).not.toContain('elided');
  });

  it('replays handle-free pins wherever a tool is callable, and none without one', async () => {
    // The same test run twice: without a handle, the second copy becomes a reference to the first.
    const first = await optimize(chatSession([tap, tap, debugLog], { model, retrieve: false }), { pins: [] });
    const pinKinds = (pins: readonly Record<string, unknown>[] | undefined) =>
      (pins ?? []).filter((pin) => pin.messageIndex === 5).map((pin) => pin.kind);
    expect(pinKinds(first.pins)).toEqual(['dedupe_tool_result']);
    const second = await optimize(chatSession([tap, tap, debugLog, 'ok'], { model, retrieve: false }), {
      pins: first.pins,
    });
    expect(messagesOf(second.request)[5]?.content).toBe(messagesOf(first.request)[5]?.content);
    expect(pinKinds(second.pins)).toEqual(pinKinds(first.pins));
    const toolless = await optimize(chatSession([tap, tap, debugLog], { model, tools: false }), { pins: [] });
    expect(pinKinds(toolless.pins)).toEqual([]);
  });

  it('emits no handle under tool_choice "none" even with gw_retrieve declared', async () => {
    const result = await optimize(chatSession([tap, debugLog], { model, toolChoice: 'none', question: 'Why?' }));
    expect(handlesIn(result.request)).toEqual([]);
  });

  it('takes only an exact gw_retrieve declaration as proof; a look-alike schema proves nothing', async () => {
    const request = chatSession([tap, debugLog], { model, question: 'Why?' });
    const lookalike = structuredClone(retrieveTool);
    (lookalike.function.parameters.properties as Record<string, unknown>).path = { type: 'string' };
    const tools = [(request.tools as unknown[])[0], lookalike];
    const result = await optimize({ ...request, tools });
    expect(handlesIn(result.request)).toEqual([]);
    expect(handlesIn((await optimize(request)).request).length).toBeGreaterThan(0);
  });

  it('accepts the gateway capability retrieveEvidence, never a claim in metadata', async () => {
    const request = chatSession([tap, debugLog], { model, retrieve: false, question: 'Why?' });
    const claimed = await optimize(request, {
      metadata: { retrieveEvidence: true, clientCanRetrieve: true, capabilities: { retrieveEvidence: true } },
    });
    expect(handlesIn(claimed.request)).toEqual([]);
    const granted = await optimize(request, { capabilities: { retrieveEvidence: true } });
    expect(handlesIn(granted.request).length).toBeGreaterThan(0);
  });

  it('trims in place without a handle on a subscription seat', async () => {
    const result = await optimize(chatSession([tap, debugLog], { model, retrieve: false, question: 'Why?' }), {
      metadata: { billingMode: 'subscription' },
    });
    expect(handlesIn(result.request)).toEqual([]);
    expect(messagesOf(result.request)[3]?.content).toContain('(trimmed; not retrievable)');
  });

  it('follows requireReversibleElision: true skips every lane, false restores in-place trim on api-key lanes', async () => {
    const request = chatSession([tap, debugLog], { model, retrieve: false, question: 'Why?' });
    const strict = await optimize(request, {
      metadata: { billingMode: 'subscription' },
      settings: { requireReversibleElision: true },
    });
    expect(messagesOf(strict.request)[3]?.content).not.toContain('elided');
    expect(strict.suppressedKinds).toContainEqual({ kind: 'elide_tool_output', reason: 'no_retrieve' });
    const relaxed = await optimize(request, { metadata: { billingMode: 'api_key' }, requireReversibleElision: false });
    expect(messagesOf(relaxed.request)[3]?.content).toContain('(trimmed; not retrievable)');
    const apiKey = await optimize(request, { metadata: { billingMode: 'api_key' } });
    expect(messagesOf(apiKey.request)[3]?.content).not.toContain('elided');
  });

  it('uses the continuation path only once activated: handle-free, settled history only', async () => {
    const request = chatSession([tap, debugLog], { model, retrieve: false, question: 'Why?' });
    const inactive = await optimize(request, { capabilities: { agentContinuation: true } });
    expect(inactive.agentContinuationV1).toBe(false);
    const active = await optimize(request, {
      capabilities: { agentContinuation: true },
      agentContinuationActive: true,
      pins: [],
    });
    expect(active.agentContinuationV1).toBe(true);
    expect(handlesIn(active.request)).toEqual([]);
    expect(messagesOf(active.request)[3]?.content).toContain('(trimmed; not retrievable)');
    expect(active.pins?.length).toBeGreaterThan(2);
  });

  it('lets the connect hook optimize its single fresh output (singleOutput)', async () => {
    const request = chatSession([tap], { model });
    // Elsewhere the fresh output is the model's to read, byte for byte.
    expect(messagesOf((await optimize(request)).request)[3]?.content).toBe(tap);
    const single = await optimize(request, { capabilities: { singleOutput: true } });
    expect(messagesOf(single.request)[3]?.content).toContain('gw_retrieve');
  });
});
