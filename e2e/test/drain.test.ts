import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, startOpenAiSimulator, type SimulatorHandle } from '@gw/testkit';
import { startGatewayStack, type GatewayStack } from './gateway-stack.js';

// SIGTERM with calls still running past GW_DRAIN_TIMEOUT_MS (a rolling update while a long answer streams): each call
// ends in a form its client understands instead of a connection cut in the middle.
describe('drain deadline', () => {
  let stack: GatewayStack | undefined;
  const providers: SimulatorHandle[] = [];

  afterEach(async () => {
    await stack?.close();
    for (const provider of providers.splice(0)) await provider.close();
  });

  const slowReply = { text: Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ') };

  it('ends running streams with the error event each SDK raises, answers an unanswered call with a retryable 503, and exits 0', async () => {
    const openaiProvider = await startOpenAiSimulator({ apiKey: 'sk-openai-server' });
    const anthropicProvider = await startAnthropicSimulator({ apiKey: 'sk-ant-server' });
    providers.push(openaiProvider, anthropicProvider);
    stack = await startGatewayStack({ GW_DRAIN_TIMEOUT_MS: '1500' });
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
    const openai = new OpenAI({ apiKey: key, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
    const anthropic = new Anthropic({
      apiKey: key,
      baseURL: stack.gateway.url,
      maxRetries: 0,
      defaultHeaders: { 'x-gw-provider': 'anthropic' },
    });

    // Streams paced far beyond the deadline, and a call the provider takes ten seconds to answer.
    openaiProvider.script({ eventDelayMs: 200, reply: slowReply }, { latencyMs: 10_000 });
    anthropicProvider.script({ eventDelayMs: 200, reply: slowReply });
    const chatStream = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Say forty words.' }],
      stream: true,
    });
    const messagesStream = await anthropic.messages.create({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Say forty words.' }],
      stream: true,
    });
    const chatText = collect(chatStream, (chunk) => chunk.choices[0]?.delta.content ?? '');
    const messagesText = collect(messagesStream, (event) =>
      event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? event.delta.text : '',
    );
    const pending = fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Answer slowly.' }] }),
    });
    await openaiProvider.waitForRequests(2);
    await anthropicProvider.waitForRequests(1);

    const signalledAt = Date.now();
    const exited = stack.gateway.stop('SIGTERM');
    const [chat, messages, unanswered] = await Promise.all([chatText, messagesText, pending]);

    expect(chat.text.length).toBeGreaterThan(0);
    expect(chat.error).toBeInstanceOf(OpenAI.APIError);
    expect(chat.error?.message).toMatch(/shutting down/);
    expect(messages.text.length).toBeGreaterThan(0);
    expect(messages.error).toBeInstanceOf(Anthropic.APIError);
    expect(messages.error?.message).toMatch(/shutting down/);

    expect(unanswered.status).toBe(503);
    expect(unanswered.headers.get('x-should-retry')).toBe('true');
    expect(unanswered.headers.get('retry-after')).toBe('1');
    expect(((await unanswered.json()) as { error: { code: string } }).error.code).toBe('gateway_draining');

    // Well before the provider's ten seconds: the deadline ended the calls, nothing waited for them.
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(8_000);
  }, 30_000);

  it('exits at once when nothing is in flight, whatever connections clients hold open', async () => {
    stack = await startGatewayStack();
    const key = await stack.mintClientKey();
    // A keep-alive connection that served a request, and one that opened and never sent a byte (a TCP probe).
    expect((await fetch(`${stack.gateway.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );
    const { port, hostname } = new URL(stack.gateway.url);
    const silent = connect(Number(port), hostname);
    silent.on('error', () => undefined);
    await new Promise((resolve) => silent.once('connect', resolve));

    const signalledAt = Date.now();
    expect(await stack.gateway.stop('SIGTERM')).toBe(0);
    // The default drain deadline is 30 s: leaving at once means neither connection held the shutdown.
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    silent.destroy();
  }, 30_000);
});

/** Reads a stream to its end or its error: the text it delivered, and the error the SDK raised, if any. */
async function collect<T>(
  stream: AsyncIterable<T>,
  textOf: (item: T) => string,
): Promise<{ text: string; error: Error | null }> {
  let text = '';
  try {
    for await (const item of stream) text += textOf(item);
    return { text, error: null };
  } catch (error) {
    return { text, error: error as Error };
  }
}
