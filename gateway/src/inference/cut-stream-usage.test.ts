import { describe, expect, it } from 'vitest';
import { usageOfCutStream } from './cut-stream-usage.js';

describe('usageOfCutStream', () => {
  it('estimates the prompt at four characters a token and the output at one token per content event', () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(400) }] };
    const usage = usageOfCutStream(undefined, body, 7);
    expect(usage.inputTokens).toBe(Math.ceil(JSON.stringify(body).length / 4));
    expect(usage.outputTokens).toBe(7);
    expect(usage).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('keeps what the provider did report over the estimate', () => {
    const reported = {
      inputTokens: 1234,
      outputTokens: 20,
      cacheReadTokens: 1000,
      cacheWriteTokens: 5,
      reasoningTokens: 3,
    };
    expect(usageOfCutStream(reported, { messages: [] }, 4)).toEqual(reported);
    expect(usageOfCutStream({ ...reported, outputTokens: 2 }, { messages: [] }, 9).outputTokens).toBe(9);
  });
});
