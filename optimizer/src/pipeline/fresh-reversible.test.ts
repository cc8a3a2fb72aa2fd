import { describe, expect, it } from 'vitest';
import { isSalientLine } from '../strategies/salient-lines.js';
import { chatSession, FakeStash, handlesIn, hmacKey, messagesOf, output } from './__fixtures__/conversations.js';
import { classifyEvidence } from './evidence-class.js';
import { runPipeline } from './run-pipeline.js';
import type { PipelineInput } from './types.js';

const tap = output('tap-failures.txt');
const npmAnsi = output('npm-install-verbose-ansi.txt');
const endpoint = '/v1/chat/completions';

async function optimize(request: Record<string, unknown>, extra: Partial<PipelineInput> = {}, stash = new FakeStash()) {
  return runPipeline({ endpoint, request, pins: [], ...extra }, { stash, hmacKey, stableHandles: true });
}

const lease = {
  capabilities: {
    retrievalDiscovery: 'lease_live' as const,
    providerPromptCache: true,
    providerPromptCacheKnown: true,
  },
};

describe('fresh reversible trimming on a qualified lane', () => {
  it('compresses the fresh output behind a handle with a gw_retrieve hint, error lines verbatim, and reports the class', async () => {
    const stash = new FakeStash();
    const result = await optimize(chatSession([npmAnsi, tap], { retrieve: false }), lease, stash);
    const fresh = messagesOf(result.request)[5]?.content as string;
    expect(fresh.length).toBeLessThan(tap.length / 2);
    const [handle] = handlesIn({ content: fresh });
    expect(stash.stored.get(handle)).toBe(tap);
    expect(fresh.split('\n').filter((line) => line.includes('gw_retrieve'))).toHaveLength(1);
    for (const line of tap.split('\n').filter(isSalientLine).slice(0, 5)) expect(fresh).toContain(line);
    expect(result.evidenceClass).toBe('deferral_latched');
    expect(result.pins?.some((pin) => pin.messageIndex === 5 && pin.kind === 'elide_tool_output')).toBe(true);
  });

  it('replays that exact rewrite byte for byte on every later turn', async () => {
    const first = await optimize(chatSession([npmAnsi, tap], { retrieve: false }), lease);
    const second = await optimize(chatSession([npmAnsi, tap, 'ok'], { retrieve: false }), {
      ...lease,
      pins: first.pins,
    });
    const third = await optimize(chatSession([npmAnsi, tap, 'ok', 'done'], { retrieve: false }), {
      ...lease,
      pins: second.pins,
    });
    for (const later of [second, third]) {
      expect(messagesOf(later.request)[5]?.content).toBe(messagesOf(first.request)[5]?.content);
      expect(messagesOf(later.request)[3]?.content).toBe(messagesOf(first.request)[3]?.content);
    }
  });

  it('qualifies on an exact gw_retrieve declaration (direct) once the gateway sends the field', async () => {
    const result = await optimize(chatSession([npmAnsi, tap]), { capabilities: { retrievalDiscovery: 'none' } });
    expect(result.evidenceClass).toBe('direct');
    expect(messagesOf(result.request)[5]?.content).not.toBe(tap);
  });

  it('keeps the fresh turn byte for byte when the field is absent, as before it existed', async () => {
    const result = await optimize(chatSession([npmAnsi, tap]), { capabilities: { retrieveEvidence: true } });
    expect(messagesOf(result.request)[5]?.content).toBe(tap);
    expect(result).not.toHaveProperty('evidenceClass');
  });

  it.each([
    ['lease_lapsed', 'unlatched_deferred'],
    ['none', 'no_discovery'],
  ] as const)('keeps the fresh turn byte for byte on an unqualified lane (%s → %s)', async (discovery, evidence) => {
    const result = await optimize(chatSession([npmAnsi, tap], { retrieve: false }), {
      capabilities: { retrievalDiscovery: discovery },
    });
    expect(result.evidenceClass).toBe(evidence);
    expect(messagesOf(result.request)[5]?.content).toBe(tap);
  });

  it('keeps the fresh turn when a tool is forced or none is callable, whatever the lease', async () => {
    const forced = await optimize(
      chatSession([npmAnsi, tap], { retrieve: false, toolChoice: { type: 'function', function: { name: 'bash' } } }),
      lease,
    );
    expect(forced.evidenceClass).toBe('forced_handler');
    expect(messagesOf(forced.request)[5]?.content).toBe(tap);
    const toolless = await optimize(chatSession([npmAnsi, tap], { tools: false }), lease);
    expect(toolless.evidenceClass).toBe('toolless');
    expect(messagesOf(toolless.request)[5]?.content).toBe(tap);
  });

  it('trims a subscription seat in place, never the fresh turn, with no handle', async () => {
    const result = await optimize(chatSession([npmAnsi, tap, tap], { retrieve: false }), {
      metadata: { billingMode: 'subscription' },
      capabilities: { retrievalDiscovery: 'none' },
    });
    expect(handlesIn(result.request)).toEqual([]);
    expect(messagesOf(result.request)[7]?.content).toBe(tap);
  });

  it('needs a pinning session: without pins no later turn could replay the rewrite', async () => {
    const result = await runPipeline(
      { endpoint, request: chatSession([npmAnsi, tap], { retrieve: false }), ...lease },
      { stash: new FakeStash(), hmacKey, stableHandles: true },
    );
    expect(messagesOf(result.request)[5]?.content).toBe(tap);
  });

  it('keeps every byte of the fresh output when the stash cannot commit its original', async () => {
    const result = await optimize(chatSession([npmAnsi, tap], { retrieve: false }), lease, new FakeStash(false));
    expect(messagesOf(result.request)[5]?.content).toBe(tap);
  });
});

describe('the regression guard on fresh trims', () => {
  it('holds fresh trimming back when the guard closes its lane, while settled outputs are still trimmed', async () => {
    const guard = (kind: string) => kind !== 'fresh_trim';
    const request = chatSession([npmAnsi, tap], { retrieve: false });
    const result = await runPipeline(
      { endpoint, request, pins: [], ...lease },
      { stash: new FakeStash(), hmacKey, stableHandles: true, guard },
    );
    expect(messagesOf(result.request)[5]?.content).toBe(tap);
    expect(messagesOf(result.request)[3]?.content).not.toBe(npmAnsi);
    expect(result.suppressedKinds).toContainEqual({ kind: 'fresh_trim', reason: 'regret_guard' });
  });

  it('marks a fresh trim as fresh in the rewrites the guard learns from, and its replay as settled', async () => {
    const first = await optimize(chatSession([npmAnsi, tap], { retrieve: false }), lease);
    expect(first.rewrites.find((rewrite) => rewrite.messageIndex === 5)).toMatchObject({
      fresh: true,
      steps: expect.arrayContaining([expect.objectContaining({ replayed: false, handle: true })]),
    });
    const second = await optimize(chatSession([npmAnsi, tap, 'ok'], { retrieve: false }), {
      ...lease,
      pins: first.pins,
    });
    expect(second.rewrites.find((rewrite) => rewrite.messageIndex === 5)).toMatchObject({ fresh: false });
  });
});

describe('classifyEvidence', () => {
  const tools = { declared: true, retrieveDeclared: false, choiceNone: false };
  it.each([
    [{ ...tools, retrieveDeclared: true }, 'none', 'direct'],
    [tools, 'connector', 'direct'],
    [tools, 'lease_live', 'deferral_latched'],
    [tools, 'lease_lapsed', 'unlatched_deferred'],
    [tools, 'none', 'no_discovery'],
    [{ ...tools, declared: false }, 'lease_live', 'toolless'],
    [{ ...tools, retrieveDeclared: true, choiceNone: true }, 'connector', 'toolless'],
    [{ ...tools, retrieveDeclared: true, forcedTool: 'bash' }, 'lease_live', 'forced_handler'],
    [{ ...tools, retrieveDeclared: true, forcedTool: 'gw_retrieve' }, 'none', 'direct'],
  ] as const)('%o with %s is %s', (info, discovery, expected) => {
    expect(classifyEvidence(info, discovery)).toBe(expected);
  });
});
