import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithSdks, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

// A chat client's `response_format` on an Anthropic-family provider: the answer is the JSON it asked for, as content,
// read by the OpenAI SDK's own structured-output helper, streaming or not.
describe('response_format across families', () => {
  let fixture: InferenceFixture;
  let client: OpenAI;
  const headers = { 'x-gw-provider': 'anthropic' };
  const weather = {
    type: 'json_schema' as const,
    json_schema: {
      name: 'weather',
      strict: true,
      schema: {
        type: 'object',
        properties: { city: { type: 'string' }, celsius: { type: 'number' } },
        required: ['city', 'celsius'],
        additionalProperties: false,
      },
    },
  };

  beforeAll(async () => {
    fixture = await startInferenceFixture();
    ({ openai: client } = await listenWithSdks(fixture));
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('answers a json_schema request with the JSON as content, which the SDK parses', async () => {
    const completion = await client.chat.completions.parse(
      {
        model: 'claude-sonnet-4-20250514',
        messages: [{ role: 'user', content: 'Weather in Oslo as JSON.' }],
        response_format: weather,
      },
      { headers },
    );
    const [choice] = completion.choices;
    expect(choice?.finish_reason).toBe('stop');
    expect(choice?.message.tool_calls ?? []).toEqual([]);
    expect(choice?.message.parsed).toEqual({ city: 'sample', celsius: 1 });
    // The provider was asked for the forced tool, not told to hope for JSON.
    const sent = fixture.anthropic.requests.at(-1)?.json as {
      tools: Array<{ name: string; input_schema: unknown }>;
      tool_choice: unknown;
    };
    expect(sent.tool_choice).toEqual({ type: 'tool', name: 'json_response' });
    expect(sent.tools).toEqual([
      expect.objectContaining({ name: 'json_response', input_schema: weather.json_schema.schema }),
    ]);
  });

  it('streams the JSON as content deltas that the SDK assembles and parses', async () => {
    const stream = client.chat.completions.stream(
      {
        model: 'claude-sonnet-4-20250514',
        messages: [{ role: 'user', content: 'Weather in Oslo as JSON.' }],
        response_format: weather,
      },
      { headers },
    );
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.choices[0]?.message.parsed).toEqual({ city: 'sample', celsius: 1 });
  });

  it('answers json_object with a JSON object, and leaves a request with its own tools to them', async () => {
    const object = await client.chat.completions.create(
      {
        model: 'claude-sonnet-4-20250514',
        messages: [{ role: 'user', content: 'Any JSON object.' }],
        response_format: { type: 'json_object' },
      },
      { headers },
    );
    expect(typeof JSON.parse(object.choices[0]?.message.content ?? 'null')).toBe('object');

    const tool = {
      type: 'function' as const,
      function: {
        name: 'lookup',
        parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      },
    };
    await client.chat.completions.create(
      {
        model: 'claude-sonnet-4-20250514',
        messages: [{ role: 'user', content: 'call tool lookup' }],
        tools: [tool],
        response_format: { type: 'json_object' },
      },
      { headers },
    );
    const sent = fixture.anthropic.requests.at(-1)?.json as { tools: Array<{ name: string }>; tool_choice?: unknown };
    expect(sent.tools.map((entry) => entry.name)).toEqual(['lookup']);
    expect(sent.tool_choice).toBeUndefined();
  });

  it("answers with the forced tool's input alone, whatever the model says around it, streaming or not", async () => {
    const chatty = {
      reply: {
        text: 'Sure, here it is:',
        toolCalls: [
          { name: 'json_response', arguments: { city: 'Oslo', celsius: 3 } },
          { name: 'json_response', arguments: { city: 'Bergen', celsius: 5 } },
        ],
        finishReason: 'tool_calls' as const,
      },
    };
    fixture.anthropic.script(chatty, chatty);
    const whole = await client.chat.completions.parse(
      {
        model: 'claude-sonnet-4-20250514',
        messages: [{ role: 'user', content: 'Weather in Oslo as JSON.' }],
        response_format: weather,
      },
      { headers },
    );
    expect(whole.choices[0]?.message.parsed).toEqual({ city: 'Oslo', celsius: 3 });
    const streamed = await client.chat.completions
      .stream(
        {
          model: 'claude-sonnet-4-20250514',
          messages: [{ role: 'user', content: 'Weather in Oslo as JSON.' }],
          response_format: weather,
        },
        { headers },
      )
      .finalChatCompletion();
    expect(streamed.choices[0]?.message.parsed).toEqual({ city: 'Oslo', celsius: 3 });
  });
});
