import { ManualClock } from '@gw/platform';
import { describe, expect, it } from 'vitest';
import { chatSession, FakeStash, hmacKey, messagesOf, plainLog } from './__fixtures__/conversations.js';
import { minSavedShareWhenCached, settlePolicy, statelessMinSavedShare } from './decide-spans.js';
import type { RunContext } from './run-context.js';
import { runPipeline } from './run-pipeline.js';
import { TurnLog } from './turn-log.js';

function contextOf(cacheMode: 'protect' | 'none', pinning: boolean, modelTurns = 6): RunContext {
  return { cacheMode, pinning, view: { modelTurns } } as unknown as RunContext;
}

describe('settlePolicy', () => {
  it('asks for any saving when nothing upstream caches or the cache expired since the last turn', () => {
    expect(settlePolicy(contextOf('none', true), false).minSavedShare).toBe(0);
    expect(settlePolicy(contextOf('protect', true), true).minSavedShare).toBe(0);
  });

  it('asks a warm cached session for a share that pays back over the turns it has had, and a fixed one without pins', () => {
    expect(settlePolicy(contextOf('protect', true, 6), false).minSavedShare).toBe(minSavedShareWhenCached(6));
    expect(settlePolicy(contextOf('protect', false, 6), false).minSavedShare).toBe(statelessMinSavedShare);
  });
});

describe('deciding settled history', () => {
  const endpoint = '/v1/chat/completions';
  const capabilities = { providerPromptCache: true, providerPromptCacheKnown: true };

  async function secondTurn(gapMs: number) {
    const clock = new ManualClock();
    const deps = { stash: new FakeStash(), hmacKey, clock, turns: new TurnLog().forSession('session') };
    const first = await runPipeline({ endpoint, request: chatSession([plainLog]), pins: [], capabilities }, deps);
    clock.advance(gapMs);
    return runPipeline({ endpoint, request: chatSession([plainLog, 'ok']), pins: first.pins, capabilities }, deps);
  }

  it('leaves a newly settled output as first sent when eliding it would not pay back before the session likely ends', async () => {
    const warm = await secondTurn(30_000);
    expect(messagesOf(warm.request)[3]?.content).toBe(plainLog);
  });

  it('batches the rewrite when the provider cache expired meanwhile: everything is written again anyway', async () => {
    const cold = await secondTurn(6 * 60_000);
    expect(messagesOf(cold.request)[3]?.content).toContain('gw_retrieve');
    expect(cold.pins?.some((pin) => pin.kind === 'elide_tool_output' && pin.messageIndex === 3)).toBe(true);
  });
});
