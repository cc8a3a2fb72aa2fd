import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyStoredRow, spendRows, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

describe('inference hardening', () => {
  let fixture: InferenceFixture;
  beforeAll(async () => {
    fixture = await startInferenceFixture({ env: { GW_LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await fixture.close();
  });

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    fixture.gateway.app.inject({ method: 'POST', url, headers: { ...fixture.auth, 'content-type': 'application/json', ...headers }, payload });

  it('never lets a canary from prompts or completions reach any stored table or the logs, nor the client key', async () => {
    const canary = `CANARY-${randomBytes(12).toString('hex')}`;
    fixture.openai.reset();
    fixture.anthropic.reset();
    const reply = { reply: { text: `the answer is ${canary}` } };
    fixture.openai.script(reply, reply, { status: 500, error: { message: `upstream echoed ${canary}` } });
    fixture.anthropic.script(reply, reply);
    const chat = JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: `secret ${canary}` }] });
    expect((await post('/v1/chat/completions', chat)).body).toContain(canary);
    expect((await post('/v1/chat/completions', JSON.stringify({ ...JSON.parse(chat), stream: true }))).body).toContain(canary);
    await post('/v1/chat/completions', chat);
    const messages = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 50, system: canary, messages: [{ role: 'user', content: canary }] });
    await post('/v1/messages', messages, { 'x-gw-provider': 'anthropic' });
    await post('/v1/chat/completions', chat, { 'x-gw-provider': 'anthropic', 'x-gw-metadata': JSON.stringify({ project: 'p' }) });
    await post('/v1/chat/completions', `{"model":"gpt-4.1","messages":[{"content":"${canary}"`);

    const rows = await spendRows(fixture.gateway);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const stored = await everyStoredRow(fixture.gateway);
    expect(stored).toContain('gw_spend: [{');
    expect(stored).not.toContain(canary);
    expect(stored).not.toContain(fixture.clientKey);
    expect(fixture.gateway.logs.join('')).not.toContain(canary);
    expect(fixture.gateway.logs.join('')).not.toContain(fixture.clientKey);
  });

  it('logs the end of a relayed stream like any reply: debug when complete, error with its code when cut short', async () => {
    fixture.openai.reset();
    fixture.openai.script({}, { dropConnection: { afterEvents: 2 } });
    const body = JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'stream' }] });
    const before = fixture.gateway.logs.length;
    expect((await post('/v1/chat/completions', body)).statusCode).toBe(200);
    expect((await post('/v1/chat/completions', body)).statusCode).toBe(200);
    const lines = fixture.gateway.logs.slice(before).map((line) => JSON.parse(line) as { level: number; msg: string; stream?: boolean; errorCode?: string; res?: { statusCode: number } });
    const ends = lines.filter((line) => line.stream === true);
    expect(ends.map((line) => [line.msg, line.level, line.errorCode])).toEqual([
      ['request completed', 20, undefined],
      ['request failed', 50, 'upstream_stream_interrupted'],
    ]);
    expect(ends[0]?.res?.statusCode).toBe(200);
  });

  it('answers fuzzed bodies on every inference route without a gateway 5xx', async () => {
    const routes = ['/v1/chat/completions', '/v1/messages', '/v1/completions', '/v1/embeddings', '/v1/messages/count_tokens'];
    const jsonish = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({ model: fc.oneof(fc.string(), fc.integer(), fc.constant('gpt-4.1')), messages: fc.anything(), stream: fc.anything(), max_tokens: fc.anything(), prompt: fc.anything(), input: fc.anything() }).map((value) => JSON.stringify(value)),
      fc.record({ model: fc.constant('gpt-4.1'), messages: fc.array(fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool', 'x'), content: fc.anything() }), { minLength: 1, maxLength: 3 }), max_tokens: fc.integer({ min: 1, max: 10 }) }).map((value) => JSON.stringify(value)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), jsonish, fc.constantFrom('openai', 'anthropic'), async (route, body, provider) => {
        const response = await post(route, body, { 'x-gw-provider': provider });
        const gatewayFailure = response.statusCode >= 500 && response.headers['x-gw-error-source'] !== 'upstream';
        if (gatewayFailure) throw new Error(`${route} via ${provider} answered ${response.statusCode} ${response.body} for ${body}`);
      }),
      { numRuns: 150 },
    );
  });
});
