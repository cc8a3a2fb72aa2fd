import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimited, startAnthropicSimulator, startOpenAiSimulator, type SimulatorHandle } from '@gw/testkit';
import { startGatewayStack, type GatewayStack } from './gateway-stack.js';

// The official SDKs pointed at the gateway, each against each provider family behind it.
const weatherTool = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('official SDKs through the gateway', () => {
  let stack: GatewayStack;
  let openaiProvider: SimulatorHandle;
  let anthropicProvider: SimulatorHandle;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    openaiProvider = await startOpenAiSimulator({ apiKey: 'sk-openai-server' });
    anthropicProvider = await startAnthropicSimulator({ apiKey: 'sk-ant-server' });
    stack = await startGatewayStack();
    expect(
      (
        await stack.admin('PUT', '/admin/v1/providers/openai/key', {
          apiKey: 'sk-openai-server',
          baseUrl: openaiProvider.baseURL,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await stack.admin('PUT', '/admin/v1/providers/anthropic/key', {
          apiKey: 'sk-ant-server',
          baseUrl: anthropicProvider.url,
        })
      ).status,
    ).toBe(200);
    expect((await stack.admin('PUT', '/admin/v1/routing', { defaultProvider: 'openai' })).status).toBe(200);
    const key = await stack.mintClientKey();
    openai = new OpenAI({ apiKey: key, baseURL: `${stack.gateway.url}/v1`, maxRetries: 2 });
    anthropic = new Anthropic({ apiKey: key, baseURL: stack.gateway.url, maxRetries: 2 });
  }, 90_000);

  afterAll(async () => {
    await stack?.close();
    await openaiProvider?.close();
    await anthropicProvider?.close();
  });

  for (const provider of ['openai', 'anthropic'] as const) {
    const model = provider === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-5';

    describe(`OpenAI SDK → ${provider} provider`, () => {
      const options = { headers: { 'x-gw-provider': provider } };

      it('completes, streams and calls tools', async () => {
        const completion = await openai.chat.completions.create(
          { model, messages: [{ role: 'user', content: 'hello' }] },
          options,
        );
        expect(completion.choices[0]?.message.content).toContain('Simulated reply');
        expect(completion.usage?.total_tokens).toBeGreaterThan(0);

        const stream = await openai.chat.completions.create(
          {
            model,
            stream: true,
            stream_options: { include_usage: true },
            messages: [{ role: 'user', content: 'stream it' }],
          },
          options,
        );
        let text = '';
        let usage: OpenAI.CompletionUsage | null | undefined;
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta.content ?? '';
          usage = chunk.usage ?? usage;
        }
        expect(text).toContain('Simulated reply');
        expect(usage?.prompt_tokens).toBeGreaterThan(0);

        const tools = [{ type: 'function' as const, function: weatherTool }];
        const called = await openai.chat.completions.create(
          { model, tools, messages: [{ role: 'user', content: 'call tool get_weather with {"city":"Oslo"}' }] },
          options,
        );
        expect(called.choices[0]?.finish_reason).toBe('tool_calls');
        expect(
          JSON.parse(
            called.choices[0]?.message.tool_calls?.[0]?.type === 'function'
              ? called.choices[0].message.tool_calls[0].function.arguments
              : '{}',
          ),
        ).toEqual({ city: 'Oslo' });

        const runner = openai.chat.completions.stream(
          { model, tools, messages: [{ role: 'user', content: 'call tool get_weather with {"city":"Rome"}' }] },
          options,
        );
        const final = await runner.finalChatCompletion();
        const call = final.choices[0]?.message.tool_calls?.[0];
        expect(call?.type === 'function' ? JSON.parse(call.function.arguments) : null).toEqual({ city: 'Rome' });
      });
    });

    describe(`Anthropic SDK → ${provider} provider`, () => {
      const options = { headers: { 'x-gw-provider': provider } };

      it('completes, streams and calls tools', async () => {
        const message = await anthropic.messages.create(
          { model, max_tokens: 200, messages: [{ role: 'user', content: 'hello' }] },
          options,
        );
        expect(message.content[0]?.type === 'text' ? message.content[0].text : '').toContain('Simulated reply');
        expect(message.usage.output_tokens).toBeGreaterThan(0);

        const stream = anthropic.messages.stream(
          { model, max_tokens: 200, messages: [{ role: 'user', content: 'stream it' }] },
          options,
        );
        const streamed = await stream.finalMessage();
        expect(streamed.content[0]?.type === 'text' ? streamed.content[0].text : '').toContain('Simulated reply');

        const tools = [
          {
            name: weatherTool.name,
            description: weatherTool.description,
            input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema,
          },
        ];
        const called = await anthropic.messages.create(
          {
            model,
            max_tokens: 200,
            tools,
            messages: [{ role: 'user', content: 'call tool get_weather with {"city":"Oslo"}' }],
          },
          options,
        );
        expect(called.stop_reason).toBe('tool_use');
        const block = called.content.find((entry) => entry.type === 'tool_use');
        expect(block?.type === 'tool_use' ? block.input : null).toEqual({ city: 'Oslo' });

        const toolStream = anthropic.messages.stream(
          {
            model,
            max_tokens: 200,
            tools,
            messages: [{ role: 'user', content: 'call tool get_weather with {"city":"Rome"}' }],
          },
          options,
        );
        const finalToolMessage = await toolStream.finalMessage();
        const streamedBlock = finalToolMessage.content.find((entry) => entry.type === 'tool_use');
        expect(streamedBlock?.type === 'tool_use' ? streamedBlock.input : null).toEqual({ city: 'Rome' });
      });
    });
  }

  it('lets the OpenAI SDK retry our relayed 429 (retry-after-ms) and 503', async () => {
    openaiProvider.script(rateLimited({ retryAfterMs: 20 }), { status: 503 });
    const before = openaiProvider.requests.length;
    const completion = await openai.chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'retry me' }],
    });
    expect(completion.choices[0]?.message.content).toContain('Simulated reply');
    expect(openaiProvider.requests.length - before).toBe(3);
  });

  it('surfaces a relayed 529 to the Anthropic SDK as its overloaded error after its own retries', async () => {
    anthropicProvider.failNext(3, { status: 529 });
    await expect(
      anthropic.messages.create(
        { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] },
        { headers: { 'x-gw-provider': 'anthropic' } },
      ),
    ).rejects.toThrow(/overloaded|529/i);
  });

  it('raises a mid-stream provider error in each SDK', async () => {
    openaiProvider.script({ midStreamError: { afterEvents: 2 } });
    const stream = await openai.chat.completions.create({
      model: 'gpt-4.1',
      stream: true,
      messages: [{ role: 'user', content: 'long answer' }],
    });
    await expect(
      (async () => {
        for await (const _chunk of stream) {
          // drain
        }
      })(),
    ).rejects.toThrow();

    anthropicProvider.script({ midStreamError: { afterEvents: 3 } });
    await expect(
      anthropic.messages
        .stream(
          { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'long answer' }] },
          { headers: { 'x-gw-provider': 'anthropic' } },
        )
        .finalMessage(),
    ).rejects.toThrow();
  });

  it('relays the catch-all to the OpenAI SDK readable, whatever encoding the SDK accepts', async () => {
    const before = openaiProvider.requests.length;
    const model = await openai.models.retrieve('gpt-4o', { headers: { forwarded: 'for=192.0.2.60' } });
    expect(model).toMatchObject({ id: 'gpt-4o', object: 'model' });
    const sent = openaiProvider.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['accept-encoding']).toBe('identity');
    expect(sent[0]?.headers.forwarded).toBeUndefined();
    await expect(openai.models.retrieve('no-such-model')).rejects.toMatchObject({ status: 404 });
  });
});
