import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@gw/platform';
import {
  bashTool,
  chatSession,
  hmacKey,
  messagesOf,
  output,
  plainLog,
  retrieveTool,
} from './__fixtures__/conversations.js';
import { runPipeline } from './run-pipeline.js';
import { TurnLog } from './turn-log.js';
import type { PipelineInput, PipelineStash } from './types.js';

/** Like the real stash: the handle is a keyed digest of the content, so the same original mints the same handle. */
class DigestStash implements PipelineStash {
  async put(content: string): Promise<string> {
    return `ctx_${createHash('sha256').update(content).digest('base64url').slice(0, 32)}`;
  }
}

const outputs = [
  output('tap-failures.txt'),
  output('npm-install-verbose-ansi.txt'),
  output('express-debug-log.txt'),
  output('npm-view-fastify.txt'),
  output('read-file-response-js.txt'),
  output('eslint-errors.txt'),
  output('pino-log-head.txt'),
  plainLog,
  'ok',
];

type Lane = 'declared' | 'no_retrieve' | 'subscription' | 'connected';

function laneInput(lane: Lane): Partial<PipelineInput> {
  const cache = { providerPromptCache: true, providerPromptCacheKnown: true };
  if (lane === 'connected') return { capabilities: { ...cache, retrievalDiscovery: 'lease_live' } };
  if (lane === 'subscription') return { capabilities: cache, metadata: { billingMode: 'subscription' } };
  return { capabilities: cache };
}

interface Step {
  readonly output: number;
  /** The user speaks after this output (it settles within the turn). */
  readonly question: boolean;
  /** Seconds since the previous turn; over 300 the provider's cache has expired. */
  readonly gapSeconds: number;
}

const step = fc.record({
  output: fc.integer({ min: 0, max: outputs.length - 1 }),
  question: fc.boolean(),
  gapSeconds: fc.constantFrom(5, 30, 120, 400),
});

/**
 * Replays a generated session turn by turn as the gateway drives the optimizer (pins returned and sent back) and
 * checks the property the provider's prompt cache depends on: while the cache is warm, every message the previous
 * request had settled, and every message the optimizer had rewritten in it, comes back byte for byte.
 */
async function replay(lane: Lane, steps: readonly Step[]): Promise<void> {
  const clock = new ManualClock();
  const turns = new TurnLog().forSession('s1');
  const deps = { stash: new DigestStash(), hmacKey, clock, turns, stableHandles: true };
  let pins: Record<string, unknown>[] = [];
  let previous: { sent: Record<string, unknown>[]; original: Record<string, unknown>[]; settled: number } | null = null;
  // An append-only transcript: each turn adds a call and its output, and sometimes an answer and a new question.
  const messages = messagesOf(chatSession([])).slice();
  for (const [index, entry] of steps.entries()) {
    const id = `call_${index}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: `{"command":"step ${index}"}` } }],
    });
    messages.push({ role: 'tool', tool_call_id: id, content: outputs[entry.output] ?? 'ok' });
    if (entry.question)
      messages.push(
        { role: 'assistant', content: `Answer ${index}.` },
        { role: 'user', content: `Question ${index}?` },
      );
    const request = {
      model: 'gpt-4.1',
      messages: structuredClone(messages),
      tools: lane === 'declared' ? [bashTool, retrieveTool] : [bashTool],
    };
    if (index > 0) clock.advance(entry.gapSeconds * 1_000);
    const result = await runPipeline({ endpoint: '/v1/chat/completions', request, pins, ...laneInput(lane) }, deps);
    pins = result.pins ?? [];
    const sent = messagesOf(result.request);
    if (previous && entry.gapSeconds < 300) {
      for (let at = 0; at < previous.sent.length; at += 1) {
        const rewritten = JSON.stringify(previous.sent[at]) !== JSON.stringify(previous.original[at]);
        if (at < previous.settled || rewritten)
          expect(JSON.stringify(sent[at]), `turn ${index}, message ${at}`).toBe(JSON.stringify(previous.sent[at]));
      }
    }
    const original = messagesOf(request);
    // Settled: everything before the trailing run of non-assistant messages.
    let settled = original.length;
    while (settled > 0 && original[settled - 1]?.role !== 'assistant') settled -= 1;
    previous = { sent, original, settled };
  }
}

describe('replay stability over generated sessions', () => {
  it.each(['declared', 'no_retrieve', 'subscription', 'connected'] as const)(
    'keeps what the provider cached byte for byte on the %s lane',
    async (lane) => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 7 }), (steps) => replay(lane, steps)),
        { numRuns: 25 },
      );
    },
  );
});
