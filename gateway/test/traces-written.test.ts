import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders } from './helpers.js';
import { everyStoredRow, spendRowOf, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

// Every metered call writes one content-free trace beside its spend row (same id), and the traces API lists it.
describe('traces written by calls', () => {
  let fixture: InferenceFixture;
  const secretPrompt = 'the merger closes on friday';

  beforeAll(async () => {
    fixture = await startInferenceFixture();
  });
  afterAll(async () => {
    await fixture.close();
  });

  const get = (url: string) => fixture.gateway.app.inject({ method: 'GET', url, headers: adminHeaders });

  it('lists a call in the traces, with its metadata and no content', async () => {
    fixture.openai.script({ usage: { inputTokens: 42, outputTokens: 7 } });
    const call = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: fixture.auth,
      payload: { model: 'gpt-4.1', messages: [{ role: 'user', content: secretPrompt }] },
    });
    expect(call.statusCode).toBe(200);
    // The trace is written with the spend row.
    const row = await spendRowOf(fixture.gateway, call);

    const listed = (await get('/admin/v1/traces?user=ada%40example.com')).json<{
      data: Array<Record<string, unknown>>;
    }>();
    expect(listed.data).toEqual([
      expect.objectContaining({
        id: row.id,
        user: 'ada@example.com',
        team: 'compilers',
        endpoint: '/v1/chat/completions',
        provider: 'openai',
        model: 'gpt-4.1',
        status: 200,
        promptTokens: 42,
        completionTokens: 7,
        hasContent: false,
      }),
    ]);
    expect(Number(listed.data[0]?.costUsd)).toBeCloseTo(Number(row.cost_usd), 9);
    const legacy = (await get('/admin/observability/traces')).json<{ data: Array<{ id: string }> }>();
    expect(legacy.data.map((trace) => trace.id)).toContain(row.id);
    expect((await get(`/admin/v1/traces/${String(row.id)}`)).json()).toMatchObject({ id: row.id, status: 200 });
    // Content-free: the prompt is nowhere in the store.
    expect(await everyStoredRow(fixture.gateway)).not.toContain(secretPrompt);
  });

  it('traces a refused call too, as its spend row records it', async () => {
    const refused = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: fixture.auth,
      payload: { model: 'gpt-4.1', messages: 'not a list' },
    });
    expect(refused.statusCode).toBe(400);
    const row = await spendRowOf(fixture.gateway, refused);
    expect(row).toMatchObject({ outcome: 'rejected', status: 400 });
    expect((await get(`/admin/v1/traces/${String(row.id)}`)).json()).toMatchObject({
      id: row.id,
      status: 400,
      endpoint: '/v1/chat/completions',
    });
  });
});

// With content mode `full` (the default) and GW_CONTENT_KEY set, the trace also keeps the call's request and answer,
// sealed under the key; with the content mode `off`, it keeps metadata only.
describe('trace content', () => {
  let fixture: InferenceFixture;
  const prompt = 'the launch slips to march';

  beforeAll(async () => {
    fixture = await startInferenceFixture({ env: { GW_CONTENT_KEY: 'cd'.repeat(32) } });
  });
  afterAll(async () => {
    await fixture.close();
  });

  const call = async () => {
    const response = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: fixture.auth,
      payload: { model: 'gpt-4.1', messages: [{ role: 'user', content: prompt }] },
    });
    expect(response.statusCode).toBe(200);
    const row = await spendRowOf(fixture.gateway, response);
    await fixture.gateway.deps.traceWriter.drain();
    return { id: String(row.id), answer: response.json<Record<string, unknown>>() };
  };
  const get = (url: string) => fixture.gateway.app.inject({ method: 'GET', url, headers: adminHeaders });

  it('seals the request and the answer with the trace, readable through the content route only', async () => {
    const { id, answer } = await call();
    expect((await get(`/admin/v1/traces/${id}`)).json()).toMatchObject({ id, hasContent: true });
    const { rows } = await fixture.gateway.deps.db.query<{ content_sealed: string }>(
      'SELECT content_sealed FROM gw_traces WHERE id = $1',
      [id],
    );
    expect(rows[0]?.content_sealed).not.toContain(prompt);
    const content = await get(`/admin/v1/traces/${id}/content`);
    expect(content.statusCode).toBe(200);
    expect(content.json()).toEqual({
      id,
      content: { request: { model: 'gpt-4.1', messages: [{ role: 'user', content: prompt }] }, response: answer },
    });
  });

  it('keeps a streamed answer as the whole answer the stream told', async () => {
    fixture.openai.script({ reply: { text: 'march it is' } });
    const response = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: fixture.auth,
      payload: { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: prompt }] },
    });
    expect(response.headers['content-type']).toContain('text/event-stream');
    const row = await spendRowOf(fixture.gateway, response);
    await fixture.gateway.deps.traceWriter.drain();
    const content = (await get(`/admin/v1/traces/${String(row.id)}/content`)).json<{
      content: { request: unknown; response: { choices: Array<{ message: { content: string } }> } };
    }>();
    expect(content.content.request).toMatchObject({ stream: true, messages: [{ role: 'user', content: prompt }] });
    expect(content.content.response.choices[0]?.message.content).toBe('march it is');
  });

  it('keeps no content while the content mode is off', async () => {
    const off = await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/settings',
      headers: adminHeaders,
      payload: { contentMode: 'off' },
    });
    expect(off.statusCode).toBe(200);
    const { id } = await call();
    expect((await get(`/admin/v1/traces/${id}`)).json()).toMatchObject({ id, hasContent: false });
    expect(await everyStoredRow(fixture.gateway)).not.toContain(prompt);
  });
});
