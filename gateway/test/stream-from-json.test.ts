import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithSdks, spendRowOf, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

// A provider that answers `stream: true` with one JSON body (some OpenAI-compatible servers do): the client asked for
// a stream and gets one, which its SDK assembles into the same answer, on every lane.
const completion = {
  id: 'chatcmpl-json-1',
  object: 'chat.completion',
  created: 1_764_000_000,
  model: 'gpt-4.1',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Checking the weather.',
        tool_calls: [
          { id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 31, completion_tokens: 17, total_tokens: 48 },
};
const message = {
  id: 'msg_json_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-20250514',
  content: [
    { type: 'text', text: 'Checking the weather.' },
    { type: 'tool_use', id: 'toolu_01json', name: 'get_weather', input: { city: 'Oslo' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 29, output_tokens: 15 },
};
const weatherTool = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('a stream answered with JSON', () => {
  let fixture: InferenceFixture;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    fixture = await startInferenceFixture();
    ({ openai, anthropic } = await listenWithSdks(fixture));
  });
  afterAll(async () => {
    await fixture.close();
  });

  for (const provider of ['openai', 'anthropic'] as const) {
    const script = () =>
      provider === 'openai' ? fixture.openai.script({ body: completion }) : fixture.anthropic.script({ body: message });
    const headers = { 'x-gw-provider': provider };

    it(`re-tells it as chat.completion.chunk events for a chat client (${provider} provider)`, async () => {
      script();
      const stream = openai.chat.completions.stream(
        {
          model: provider === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-20250514',
          messages: [{ role: 'user', content: 'Weather in Oslo?' }],
          tools: [{ type: 'function', function: weatherTool }],
          stream_options: { include_usage: true },
        },
        { headers },
      );
      const final = await stream.finalChatCompletion();
      const [choice] = final.choices;
      expect(choice?.message.content).toBe('Checking the weather.');
      expect(choice?.message.tool_calls?.[0]).toMatchObject({
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
      });
      expect(choice?.finish_reason).toBe('tool_calls');
      expect(final.usage?.prompt_tokens).toBe(provider === 'openai' ? 31 : 29);
    });

    it(`re-tells it as Messages events for a Messages client (${provider} provider)`, async () => {
      script();
      const { data, response } = await anthropic.messages
        .create(
          {
            model: provider === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-20250514',
            max_tokens: 256,
            stream: true,
            messages: [{ role: 'user', content: 'Weather in Oslo?' }],
            tools: [
              {
                name: weatherTool.name,
                description: weatherTool.description,
                input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema,
              },
            ],
          },
          { headers },
        )
        .withResponse();
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      // The whole answer was known when it was re-told: framed by its length, not chunked.
      expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
      const types: string[] = [];
      for await (const event of data) types.push(event.type);
      expect(types[0]).toBe('message_start');
      expect(types.at(-1)).toBe('message_stop');
      const row = await spendRowOf(fixture.gateway, {
        headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') },
      });
      expect(row).toMatchObject({
        status: 200,
        outcome: 'success',
        stream: true,
        provider,
        prompt_tokens: provider === 'openai' ? 31 : 29,
        completion_tokens: provider === 'openai' ? 17 : 15,
      });
    });

    it(`assembles to the same answer with the Anthropic SDK's stream helper (${provider} provider)`, async () => {
      script();
      const final = await anthropic.messages
        .stream(
          {
            model: provider === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-20250514',
            max_tokens: 256,
            messages: [{ role: 'user', content: 'Weather in Oslo?' }],
            tools: [{ name: weatherTool.name, input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema }],
          },
          { headers },
        )
        .finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'text', text: 'Checking the weather.' });
      expect(final.content[1]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Oslo' } });
      expect(final.stop_reason).toBe('tool_use');
      expect(final.usage.output_tokens).toBe(provider === 'openai' ? 17 : 15);
    });
  }

  it('answers a stream request the provider answered with something that is not an answer with 502, marked upstream', async () => {
    for (const body of ['<html>maintenance</html>', {}]) {
      fixture.openai.script({ body });
      const response = await fetch(`${openai.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fixture.clientKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(502);
      expect(response.headers.get('x-gw-error-source')).toBe('upstream');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_upstream_response');
    }
  });
});
