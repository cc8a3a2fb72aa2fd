import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, startOpenAiSimulator, type SimulatorHandle } from '@gw/testkit';
import { adminHeaders, mintClientKey, mintServiceKey, startTestGateway, type TestGateway } from './helpers.js';
import { optimizerToken, startTestOptimizer, type TestOptimizer } from './mcp-support.js';
import { openAiServerKey, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

// The response cache through the whole stack: the real optimizer service holds the entries, the official OpenAI SDK
// asks, and what each answer says (x-gw-cache, x-gw-provider, x-gw-target) and what reached the providers is checked.
describe('response cache: one route, one lane, one caller per entry', () => {
  let optimizer: TestOptimizer;
  let fixture: InferenceFixture;
  let second: SimulatorHandle;
  let baseUrl: string;
  let client: OpenAI;
  const writes: Array<Promise<unknown>> = [];

  beforeAll(async () => {
    optimizer = await startTestOptimizer({
      runPipeline: async (input) => ({
        request: input.request,
        decisions: [],
        estimatedTokensSaved: 0,
        suppressedKinds: [],
        strategyTimingsMs: {},
      }),
    });
    fixture = await startInferenceFixture({
      env: { GW_OPTIMIZER_URL: optimizer.url, GW_OPTIMIZER_TOKEN: optimizerToken },
    });
    second = await startOpenAiSimulator({ apiKey: openAiServerKey });
    const put = await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/p2/key',
      headers: adminHeaders,
      payload: { type: 'openai', apiKey: openAiServerKey, baseUrl: second.baseURL },
    });
    expect(put.statusCode, put.body).toBe(200);
    // Cache write-backs leave the request path; the test waits for each one to be answered before asking again.
    const hook = fixture.gateway.deps.optimizer;
    if (!hook) throw new Error('the optimizer hook is configured');
    const write = hook.cache.bind(hook);
    hook.cache = (body) => {
      const pending = write(body);
      writes.push(pending.catch(() => undefined));
      return pending;
    };
    baseUrl = await fixture.gateway.app.listen({ port: 0, host: '127.0.0.1' });
    client = new OpenAI({ apiKey: fixture.clientKey, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await fixture?.close();
    await second?.close();
    await optimizer?.close();
  });

  beforeEach(async () => {
    await Promise.all(writes.splice(0));
    fixture.openai.reset();
    second.reset();
  });

  const written = () => Promise.all(writes.splice(0));
  let prompt = 0;
  const freshPrompt = () => [{ role: 'user' as const, content: `question ${++prompt} of a cache test` }];

  async function ask(body: Record<string, unknown>, headers: Record<string, string> = {}, sdk: OpenAI = client) {
    const { data, response } = await sdk.chat.completions
      .create({ model: 'gpt-4o', messages: freshPrompt(), ...body } as OpenAI.ChatCompletionCreateParamsNonStreaming, {
        headers,
      })
      .withResponse();
    return {
      data,
      cache: response.headers.get('x-gw-cache'),
      provider: response.headers.get('x-gw-provider'),
      target: response.headers.get('x-gw-target'),
    };
  }

  it('serves a deterministic repeat from the cache and names the provider and model that produced it', async () => {
    const messages = freshPrompt();
    const first = await ask({ messages, temperature: 0 });
    expect(first.cache).toBe('miss');
    await written();
    const again = await ask({ messages, temperature: 0 });
    expect(again).toMatchObject({ cache: 'hit', provider: 'openai', target: 'openai/gpt-4o' });
    expect(again.data.choices[0]?.message.content).toBe(first.data.choices[0]?.message.content);
    expect(fixture.openai.requests).toHaveLength(1);
  });

  it('never answers another provider or routing config target with an entry of the default route', async () => {
    const messages = freshPrompt();
    await ask({ messages, temperature: 0 });
    await written();
    const byHeader = await ask({ messages, temperature: 0 }, { 'x-gw-provider': 'p2' });
    expect(byHeader).toMatchObject({ cache: 'miss', provider: 'p2', target: 'p2/gpt-4o' });
    await written();
    const byConfig = await ask(
      { messages, temperature: 0 },
      {
        'x-gw-config': JSON.stringify({ targets: [{ provider: 'openai', override_params: { model: 'gpt-4o-mini' } }] }),
      },
    );
    expect(byConfig).toMatchObject({ cache: 'miss', provider: 'openai', target: 'openai/gpt-4o-mini' });
    expect(second.requests).toHaveLength(1);
    expect(fixture.openai.requests).toHaveLength(2);
  });

  it('keys every parameter that changes the answer: max tokens, stop, tools, response format, seed', async () => {
    const messages = freshPrompt();
    await ask({ messages, temperature: 0 });
    await written();
    const variants = [
      { max_tokens: 5 },
      { stop: ['\n'] },
      { response_format: { type: 'json_object' } },
      { seed: 7 },
      {
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
        tool_choice: 'none',
      },
    ];
    for (const variant of variants) expect((await ask({ messages, temperature: 0, ...variant })).cache).toBe('miss');
    expect(fixture.openai.requests).toHaveLength(1 + variants.length);
  });

  it('bypasses sampled requests unless the caller opts in per request or in the routing config', async () => {
    const messages = freshPrompt();
    expect((await ask({ messages, temperature: 1.2 })).cache).toBe('bypass');
    await written();
    expect((await ask({ messages, temperature: 1.2 })).cache).toBe('bypass');
    expect(fixture.openai.requests).toHaveLength(2);

    const optIn = { 'x-gw-cache-mode': 'simple' };
    expect((await ask({ messages, temperature: 1.2 }, optIn)).cache).toBe('miss');
    await written();
    expect((await ask({ messages, temperature: 1.2 }, optIn)).cache).toBe('hit');

    const config = { 'x-gw-config': JSON.stringify({ provider: 'p2', cache: { mode: 'simple', max_age: 60 } }) };
    expect((await ask({ messages, temperature: 0.7 }, config)).cache).toBe('miss');
    await written();
    expect((await ask({ messages, temperature: 0.7 }, config)).cache).toBe('hit');
    expect(second.requests).toHaveLength(1);
  });

  it('honours Cache-Control no-cache (fresh answer, entry replaced) and no-store (nothing written)', async () => {
    const messages = freshPrompt();
    expect((await ask({ messages, temperature: 0 }, { 'cache-control': 'no-store' })).cache).toBe('bypass');
    await written();
    expect((await ask({ messages, temperature: 0 })).cache).toBe('miss');
    await written();
    expect((await ask({ messages, temperature: 0 }, { 'cache-control': 'no-cache' })).cache).toBe('bypass');
    await written();
    expect((await ask({ messages, temperature: 0 })).cache).toBe('hit');
    expect(fixture.openai.requests).toHaveLength(3);
  });

  it('keeps users, service keys and end users apart unless the team is configured to share', async () => {
    const messages = freshPrompt();
    await ask({ messages, temperature: 0 });
    await written();
    const teammate = new OpenAI({
      apiKey: (await mintClientKey(fixture.gateway.app, { user: 'grace@example.com', team: 'compilers' })).key,
      baseURL: `${baseUrl}/v1`,
      maxRetries: 0,
    });
    expect((await ask({ messages, temperature: 0 }, {}, teammate)).cache).toBe('miss');

    const botKeys = await Promise.all([
      mintServiceKey(fixture.gateway.app, { name: 'bot-a', team: 'compilers' }),
      mintServiceKey(fixture.gateway.app, { name: 'bot-b', team: 'compilers' }),
    ]);
    const [botA, botB] = botKeys.map(({ key }) => new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 }));
    await ask({ messages, temperature: 0, user: 'end-user-1' }, {}, botA);
    await written();
    expect((await ask({ messages, temperature: 0, user: 'end-user-2' }, {}, botA)).cache).toBe('miss');
    expect((await ask({ messages, temperature: 0, user: 'end-user-1' }, {}, botB)).cache).toBe('miss');
    expect((await ask({ messages, temperature: 0, user: 'end-user-1' }, {}, botA)).cache).toBe('hit');

    const sharing = await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'openai', cache: { share: 'team' } },
    });
    expect(sharing.json()).toMatchObject({ cache: { share: 'team' } });
    const shared = freshPrompt();
    await ask({ messages: shared, temperature: 0 });
    await written();
    expect((await ask({ messages: shared, temperature: 0 }, {}, teammate)).cache).toBe('hit');
    expect((await ask({ messages: shared, temperature: 0 }, {}, botB)).cache).toBe('hit');
    await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'openai' },
    });
  });

  it('takes the opt-in from the stored routing config too, and validates its cache block when stored', async () => {
    const refused = await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'openai', config: { provider: 'openai', cache: { max_age: -1 } } },
    });
    expect(refused.statusCode).toBe(400);
    const stored = await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'openai', config: { provider: 'openai', cache: { mode: 'semantic', max_age: 120 } } },
    });
    expect(stored.statusCode).toBe(200);
    try {
      const messages = freshPrompt();
      expect((await ask({ messages, temperature: 0.9 })).cache).toBe('miss');
      await written();
      expect((await ask({ messages, temperature: 0.9 })).cache).toBe('hit');
    } finally {
      await fixture.gateway.app.inject({
        method: 'PUT',
        url: '/admin/v1/routing',
        headers: adminHeaders,
        payload: { defaultProvider: 'openai' },
      });
    }
  });

  it('says bypass on a stream and refuses a malformed cache block in the request config', async () => {
    const stream = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...fixture.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: freshPrompt(), temperature: 0, stream: true }),
    });
    expect(stream.headers.get('x-gw-cache')).toBe('bypass');
    await stream.text();
    const malformed = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { ...fixture.auth, 'x-gw-config': JSON.stringify({ provider: 'openai', cache: { mode: 'always' } }) },
      payload: { model: 'gpt-4o', messages: freshPrompt() },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({ code: 'invalid_config' });
    expect(malformed.headers['x-gw-cache']).toBe('bypass');
    const unauthenticated = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: 'Bearer not-a-key' },
      payload: { model: 'gpt-4o', messages: freshPrompt() },
    });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers['x-gw-cache']).toBe('bypass');
  });
});

describe('response cache: billing lanes', () => {
  const orgKey = 'sk-ant-org-cache-0000';
  const seatToken = `sk-ant-oat01-cache${'c'.repeat(24)}`;
  let optimizer: TestOptimizer;
  let anthropic: SimulatorHandle;
  let gateway: TestGateway;
  let clientKey: string;
  const writes: Array<Promise<unknown>> = [];

  beforeAll(async () => {
    optimizer = await startTestOptimizer({
      runPipeline: async (input) => ({
        request: input.request,
        decisions: [],
        estimatedTokensSaved: 0,
        suppressedKinds: [],
        strategyTimingsMs: {},
      }),
    });
    anthropic = await startAnthropicSimulator({ apiKey: [orgKey, seatToken] });
    gateway = await startTestGateway({ env: { GW_OPTIMIZER_URL: optimizer.url, GW_OPTIMIZER_TOKEN: optimizerToken } });
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/anthropic/key',
      headers: adminHeaders,
      payload: { apiKey: orgKey, baseUrl: anthropic.url },
    });
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'anthropic' },
    });
    clientKey = (await mintClientKey(gateway.app, { user: 'lane@example.com', team: 'a' })).key;
    const hook = gateway.deps.optimizer;
    if (!hook) throw new Error('the optimizer hook is configured');
    const write = hook.cache.bind(hook);
    hook.cache = (body) => {
      const pending = write(body);
      writes.push(pending.catch(() => undefined));
      return pending;
    };
  });
  afterAll(async () => {
    await gateway?.close();
    await anthropic?.close();
    await optimizer?.close();
  });

  it('never serves an answer produced on a subscription seat to the same user on the organization key', async () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 32,
      temperature: 0,
      messages: [{ role: 'user', content: 'a lane question' }],
    };
    const seat = await gateway.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { 'x-gw-api-key': clientKey, authorization: `Bearer ${seatToken}`, 'anthropic-version': '2023-06-01' },
      payload: body,
    });
    expect(seat.statusCode).toBe(200);
    expect(seat.headers['x-gw-cache']).toBe('bypass');
    await Promise.all(writes.splice(0));
    const organization = () =>
      gateway.app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: { authorization: `Bearer ${clientKey}`, 'anthropic-version': '2023-06-01' },
        payload: body,
      });
    expect((await organization()).headers['x-gw-cache']).toBe('miss');
    await Promise.all(writes.splice(0));
    const again = await organization();
    expect(again.headers).toMatchObject({
      'x-gw-cache': 'hit',
      'x-gw-provider': 'anthropic',
      'x-gw-target': 'anthropic/claude-sonnet-4-5',
    });
    expect(anthropic.requests).toHaveLength(2);
  });
});
