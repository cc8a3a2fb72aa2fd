import { describe, expect, it } from 'vitest';
import { knownModels } from '../providers/pricing/known-models.js';
import { estimateCall } from './estimate-call.js';

describe('estimateCall (strict reservations)', async () => {
  it('reserves prompt tokens plus max_tokens at the model price', async () => {
    const estimate = await estimateCall(
      { model: 'gpt-4.1', max_tokens: 1_000, messages: [{ role: 'user', content: 'hello there' }] },
      knownModels['gpt-4.1'],
    );
    expect(estimate.tokens).toBeGreaterThan(1_000);
    expect(estimate.tokens).toBeLessThan(1_020);
    // 1000 output tokens at $8/M is $0.008; the prompt adds a little.
    expect(estimate.costMicros).toBeGreaterThan(8_000);
    expect(estimate.costMicros).toBeLessThan(8_100);
  });

  it.each([
    ['max_completion_tokens', { max_completion_tokens: 50 }, 50],
    ['max_output_tokens', { max_output_tokens: 70 }, 70],
    ['a limit above the ceiling is clamped to it', { max_tokens: 500_000 }, 64_000],
    ['no limit: the default output estimate', {}, 1_024],
  ])('bounds output by %s', async (_name, fields, output) => {
    const estimate = await estimateCall(
      { model: 'claude-sonnet-4-5', messages: [], ...fields },
      knownModels['claude-sonnet-4-5'],
    );
    expect(estimate.tokens).toBe(output);
  });

  it('takes the model default, then the deployment default, and never more than the ceiling', async () => {
    const facts = knownModels['claude-sonnet-4-5'];
    expect((await estimateCall({ messages: [] }, { ...facts, defaultOutputTokens: 300 })).tokens).toBe(300);
    expect((await estimateCall({ messages: [] }, facts, 2_000)).tokens).toBe(2_000);
    expect((await estimateCall({ messages: [] }, { ...facts, maxOutputTokens: 100 }, 2_000)).tokens).toBe(100);
    expect((await estimateCall({ messages: [], max_tokens: 50 }, { ...facts, defaultOutputTokens: 300 })).tokens).toBe(
      50,
    );
  });

  it('prices cache writes: the dearest input rate', async () => {
    const estimate = await estimateCall(
      { messages: [{ role: 'user', content: 'x'.repeat(4_000) }], max_tokens: 1 },
      knownModels['claude-sonnet-4-5'],
    );
    const input = estimate.tokens - 1;
    expect(estimate.costMicros).toBeGreaterThanOrEqual(Math.ceil(input * 3.75 + 15));
  });

  it('costs nothing for an unknown model (its actual cost is 0 too) but still counts tokens', async () => {
    expect(await estimateCall({ prompt: 'hi', max_tokens: 10 }, undefined)).toMatchObject({ costMicros: 0 });
    expect((await estimateCall({ prompt: 'hi', max_tokens: 10 }, undefined)).tokens).toBeGreaterThanOrEqual(10);
  });
});
