import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPipeline } from '@gw/optimizer';
import { bearer } from './helpers.js';
import { startRetrievalStack, startTestOptimizer, type RetrievalStack, type TestOptimizer } from './mcp-support.js';

/** A long, repetitive test log with one failure: what an agent's `npm test` prints. */
function testLog(lines = 4_000): string {
  const body = Array.from({ length: lines }, (_, index) =>
    index === 2_500
      ? 'FAIL src/parser.test.ts › rejects a trailing comma'
      : `PASS src/case-${index}.test.ts (${index % 7} ms)`,
  );
  return `${body.join('\n')}\nTests: 1 failed, ${lines - 1} passed\n`;
}

describe('POST /connect/optimize-output with the real optimizer pipeline', () => {
  let optimizer: TestOptimizer;
  let stack: RetrievalStack;
  const optimize = (payload: Record<string, unknown>, key = stack.key) =>
    stack.gateway.app.inject({ method: 'POST', url: '/connect/optimize-output', headers: bearer(key), payload });

  beforeAll(async () => {
    optimizer = await startTestOptimizer({ runPipeline });
    stack = await startRetrievalStack(optimizer.url);
  });
  afterAll(async () => {
    await stack?.close();
    await optimizer?.close();
  });

  it('returns an explicit reversible read byte for byte unless retrieval is available', async () => {
    const output = testLog();
    for (const retrievalContext of [undefined, 'unavailable', 'unknown', 'yes please', 42]) {
      const response = await optimize({
        tool: 'Read',
        output,
        reversible: true,
        ...(retrievalContext === undefined ? {} : { retrievalContext }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ handled: true, output, changed: false, tokensSaved: 0, handles: [] });
    }
  });

  it('trims a reversible read with a handle the caller can fetch the original back with, and counts the saving', async () => {
    const output = testLog();
    const response = await optimize({
      tool: 'Bash',
      output,
      reversible: true,
      retrievalContext: 'available',
      intent: 'run the tests',
      model: 'gpt-4o',
    });
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({ handled: true, changed: true, tokensSaved: expect.any(Number) });
    expect(result.tokensSaved).toBeGreaterThan(0);
    expect(result.output.length).toBeLessThan(output.length);
    expect(result.output).toContain('FAIL src/parser.test.ts › rejects a trailing comma');
    expect(result.handles).toHaveLength(1);
    const original = await stack.gateway.app.inject({
      method: 'POST',
      url: '/connect/retrieve',
      headers: { ...bearer(stack.key), 'x-gw-retrieve-probe': '1' },
      payload: { handle: result.handles[0] },
    });
    expect(original.json()).toMatchObject({ status: 'ok', content: output });
    const savings = (
      await stack.gateway.app.inject({ method: 'GET', url: '/connect/savings', headers: bearer(stack.key) })
    ).json();
    expect(savings.hooks.month).toMatchObject({ tokensSaved: result.tokensSaved, events: 1 });
    expect(savings.hooks.month.savingsUsd).toBeGreaterThan(0);
  });

  it('gives other output only handle-free trimming, and accepts outputs far above the connect body limit', async () => {
    const output = `\u001b[32m${testLog(20_000)}\u001b[0m`;
    expect(output.length).toBeGreaterThan(256 * 1024);
    const response = await optimize({ tool: 'Bash', output, retrievalContext: 'available' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ handled: true, handles: [] });
    expect(response.json().output).not.toMatch(/ctx_[A-Za-z0-9_-]{24,}/);
  });

  it('fails open without an optimizer and refuses a body that is not a tool output', async () => {
    const bare = await startRetrievalStack(null);
    try {
      const response = await bare.gateway.app.inject({
        method: 'POST',
        url: '/connect/optimize-output',
        headers: bearer(bare.key),
        payload: { tool: 'Bash', output: 'hello\n', reversible: true, retrievalContext: 'available' },
      });
      expect(response.json()).toEqual({
        handled: true,
        output: 'hello\n',
        changed: false,
        tokensSaved: 0,
        handles: [],
      });
    } finally {
      await bare.close();
    }
    expect((await optimize({ output: 'x' })).statusCode).toBe(400);
    expect((await optimize({ tool: 'has space', output: 'x' })).statusCode).toBe(400);
  });
});
