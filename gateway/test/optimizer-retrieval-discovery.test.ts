import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@gw/platform';
import { runPipeline, type RunPipeline } from '@gw/optimizer';
import type { OptimizeCapabilities } from '@gw/contracts';
import { optimizerToken, startTestOptimizer, type TestOptimizer } from './mcp-support.js';
import { listenWithSdks, spendRowOf, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

const shellTool: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'shell',
    description: 'Run a command',
    parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
  },
};
// A bulky, repetitive test log: the kind of fresh tool output a qualified lane compresses behind a handle.
const testLog = [
  ...Array.from(
    { length: 600 },
    (_, index) => `  PASS test/unit/module-${index}.test.ts > case ${index} (${index % 9} ms)`,
  ),
  '  FAIL test/unit/parser.test.ts > rejects a bad header',
  'Tests: 1 failed, 600 passed, 601 total',
].join('\n');

let conversation = 0;
function toolTurn(output: string): OpenAI.ChatCompletionMessageParam[] {
  conversation += 1;
  return [
    { role: 'user', content: `conversation ${conversation}: run the unit tests` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"cmd":"npm test"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: output },
  ];
}

// The gateway decides qualification (connector, live or lapsed retrieval lease, none) and sends it as the
// `retrievalDiscovery` capability; the real optimizer answers the evidence class, which lands on the spend row.
describe('retrieval discovery: the gateway’s verdict on the capability, the evidence class on the row', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 9));
  const seen: Array<OptimizeCapabilities | undefined> = [];
  let optimizer: TestOptimizer;
  let fixture: InferenceFixture;
  let baseUrl: string;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    const watched: RunPipeline = (input, deps) => {
      seen.push(input.capabilities);
      return runPipeline(input, deps);
    };
    optimizer = await startTestOptimizer({ runPipeline: watched });
    fixture = await startInferenceFixture({
      env: { GW_OPTIMIZER_URL: optimizer.url, GW_OPTIMIZER_TOKEN: optimizerToken },
      clock,
    });
    ({ baseUrl, openai, anthropic } = await listenWithSdks(fixture));
  });

  afterAll(async () => {
    await fixture?.close();
    await optimizer?.close();
  });

  beforeEach(() => {
    seen.length = 0;
    fixture.openai.reset();
  });

  const chat = async (
    messages: OpenAI.ChatCompletionMessageParam[],
    tools: OpenAI.ChatCompletionTool[] = [shellTool],
  ) => {
    const { response } = await openai.chat.completions
      .create({ model: 'gpt-4o', messages, ...(tools.length > 0 ? { tools } : {}) })
      .withResponse();
    return spendRowOf(fixture.gateway, { headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') } });
  };
  const heartbeat = () => fetch(`${baseUrl}/connect/mcp-heartbeat`, { method: 'POST', headers: fixture.auth });

  it('a key with no retrieval on record: none, and the class follows the tools', async () => {
    expect(await chat([{ role: 'user', content: 'hello' }], [])).toMatchObject({ evidence_class: 'toolless' });
    expect(await chat(toolTurn('ok'))).toMatchObject({ evidence_class: 'no_discovery' });
    expect(seen.map((capabilities) => capabilities?.retrievalDiscovery)).toEqual(['none', 'none']);
    expect(seen.every((capabilities) => capabilities?.retrieveEvidence === false)).toBe(true);
  });

  it('a connected session is retrieve-capable from its first request: fresh output behind a handle, tools added at the marker', async () => {
    expect((await heartbeat()).status).toBe(200);
    const messages = toolTurn(testLog);
    const row = await chat(messages);
    expect(seen[0]).toMatchObject({ retrievalDiscovery: 'lease_live', retrieveEvidence: true });
    expect(row).toMatchObject({ evidence_class: 'deferral_latched', optimization_status: 'applied' });
    const sent = fixture.openai.requests[0]?.json as {
      messages: Array<{ content: unknown }>;
      tools: Array<{ function: { name: string } }>;
    };
    const fresh = String(sent.messages[2]?.content);
    expect(fresh).toMatch(/ctx_[A-Za-z0-9_-]{24,}/);
    expect(fresh).toContain('FAIL test/unit/parser.test.ts > rejects a bad header');
    expect(fresh.length).toBeLessThan(testLog.length / 2);
    // The first request carrying a marker is the first to get the two retrieval tool definitions.
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(['shell', 'gw_retrieve', 'gw_recall']);
  });

  it('a lease older than six hours is lapsed: unlatched, and the fresh output goes out as sent', async () => {
    expect((await heartbeat()).status).toBe(200);
    clock.advance(6 * 3_600_000);
    const messages = toolTurn(testLog);
    const row = await chat(messages);
    expect(seen[0]).toMatchObject({ retrievalDiscovery: 'lease_lapsed', retrieveEvidence: false });
    expect(row).toMatchObject({ evidence_class: 'unlatched_deferred' });
    const sent = fixture.openai.requests[0]?.json as { messages: Array<{ content: unknown }>; tools: unknown[] };
    expect(sent.messages[2]?.content).toBe(testLog);
    expect(sent.tools).toHaveLength(1);
  });

  it('a hosted connector aimed at the gateway’s own /mcp is retrieval declared directly; another server is not', async () => {
    const ask = async (url: string) => {
      const { response } = await anthropic.beta.messages
        .create(
          {
            model: 'claude-haiku-4-5',
            max_tokens: 64,
            messages: [{ role: 'user', content: `conversation ${++conversation}` }],
            mcp_servers: [{ type: 'url', name: 'gw', url }],
            betas: ['mcp-client-2025-04-04'],
          },
          { headers: { 'x-gw-provider': 'anthropic' } },
        )
        .withResponse();
      return spendRowOf(fixture.gateway, { headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') } });
    };
    expect(await ask(`${baseUrl}/mcp`)).toMatchObject({ evidence_class: 'direct' });
    expect(seen[0]).toMatchObject({ retrievalDiscovery: 'connector', retrieveEvidence: true });
    expect(await ask('https://tools.example.org/mcp')).toMatchObject({ evidence_class: 'toolless' });
    expect(seen[1]?.retrievalDiscovery).toBe('lease_lapsed');
  });
});
