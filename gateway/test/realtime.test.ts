import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { localhostCertificate } from '@gw/testkit';
import { admin, chat } from './governance-fixture.js';
import { revokeKey, mintClientKey } from './helpers.js';
import {
  closed,
  eventsOf,
  opened,
  realtimeServerKey,
  refusal,
  sdkSession,
  startRealtimeFixture,
  type RealtimeFixture,
} from './realtime-support.js';

const ada = 'ada@example.com';

async function realtimeRows(fixture: RealtimeFixture) {
  await fixture.gateway.deps.spendWriter.drain();
  const { rows } = await fixture.gateway.deps.db.query<Record<string, unknown>>(
    "SELECT * FROM gw_spend WHERE endpoint = '/v1/realtime' ORDER BY ts, id",
  );
  return rows;
}

describe('GET /v1/realtime through the official SDK', () => {
  let fixture: RealtimeFixture;
  beforeAll(async () => {
    fixture = await startRealtimeFixture({ GW_REALTIME_MAX_MESSAGE_BYTES: '4096' });
  });
  afterAll(async () => {
    await fixture?.close();
  });
  beforeEach(async () => {
    await admin(fixture.gateway.app, 'PUT', '/admin/user-caps', { caps: {}, alerts: null });
    await admin(fixture.gateway.app, 'PUT', '/admin/v1/users/rate-limits', { keys: {} });
  });

  it('relays a session with a response both ways and writes one spend row for it, with the server-held key upstream', async () => {
    const before = (await realtimeRows(fixture)).length;
    const session = sdkSession(fixture);
    const { events, next } = eventsOf(session);
    const created = next('session.created');
    await opened(session);
    expect((await created).type).toBe('session.created');

    session.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await next('session.updated');
    session.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello.' }] },
    });
    await next('conversation.item.created');
    const done = next('response.done');
    session.send({ type: 'response.create' });
    const finished = await done;
    expect(finished).toMatchObject({
      type: 'response.done',
      response: { status: 'completed', usage: { input_tokens: 120, output_tokens: 30, total_tokens: 150 } },
    });
    const text = events.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : [])).join('');
    expect(text).toBe('Hello from realtime.');
    expect(events.map((event) => event.type)).toContain('response.created');

    const end = closed(session.socket);
    session.close();
    await end;
    const rows = await realtimeRows(fixture);
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({
      endpoint: '/v1/realtime',
      status: 200,
      provider: 'openai',
      model: 'gpt-realtime',
      prompt_tokens: 120,
      completion_tokens: 30,
      user_id: ada,
      key_id: fixture.keyId,
    });

    const upstream = fixture.simulator.sessions.at(-1);
    expect(upstream?.headers.authorization).toBe(`Bearer ${realtimeServerKey}`);
    expect(JSON.stringify(upstream?.headers)).not.toContain(fixture.key);
    expect(upstream?.url).toContain('model=gpt-realtime');
    expect(upstream?.events).toEqual(['session.update', 'conversation.item.create', 'response.create']);
  });

  it('takes a browser’s key from the openai-insecure-api-key subprotocol and never answers or forwards it', async () => {
    const socket = new WebSocket(
      `${fixture.tls.url.replace('https', 'wss')}/v1/realtime?model=gpt-realtime`,
      ['realtime', `openai-insecure-api-key.${fixture.key}`],
      { ca: localhostCertificate.cert },
    );
    const first = new Promise<string>((resolve) =>
      socket.once('message', (data: Buffer) => resolve(data.toString('utf8'))),
    );
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    expect(socket.protocol).toBe('realtime');
    expect(JSON.parse(await first)).toMatchObject({ type: 'session.created' });
    expect(JSON.stringify(fixture.simulator.sessions.at(-1)?.headers)).not.toContain(fixture.key);
    const end = closed(socket);
    socket.close();
    await end;
  });

  it('refuses a bad or revoked key with 401 and the machine envelope before the upgrade, as a JSON call', async () => {
    const unknown = await refusal(fixture, { authorization: 'Bearer ark_not_a_real_key_000000000000' });
    const json = await chat(fixture.gateway.app, 'ark_not_a_real_key_000000000000');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(json.json());
    expect(unknown.body).toMatchObject({ status: 'failure', code: 'key_unknown' });

    const failure = new Promise<string>((resolve) => {
      const session = sdkSession(fixture, 'ark_not_a_real_key_000000000000');
      session.on('error', (error) => resolve(error.message));
    });
    expect(await failure).toContain('401');

    const { key, record } = await mintClientKey(fixture.gateway.app, { user: 'grace@example.com', team: 'compilers' });
    await revokeKey(fixture.gateway.app, record.id);
    const revoked = await refusal(fixture, {}, '/v1/realtime?model=gpt-realtime', [`openai-insecure-api-key.${key}`]);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toMatchObject({ status: 'failure', code: 'key_revoked' });
  });

  it('opens a session on an azure-openai provider with its api-key header and deployment', async () => {
    const put = await admin(fixture.gateway.app, 'PUT', '/admin/v1/providers/azure/key', {
      type: 'azure-openai',
      apiKey: realtimeServerKey,
      baseUrl: new URL(fixture.simulator.baseURL).origin,
    });
    expect(put.statusCode).toBe(200);
    const socket = new WebSocket(`${fixture.tls.url.replace('https', 'wss')}/v1/realtime?model=gpt-realtime`, {
      headers: { authorization: `Bearer ${fixture.key}`, 'x-gw-provider': 'azure' },
      ca: localhostCertificate.cert,
    });
    const first = new Promise<string>((resolve) =>
      socket.once('message', (data: Buffer) => resolve(data.toString('utf8'))),
    );
    expect(JSON.parse(await first)).toMatchObject({ type: 'session.created' });
    const upstream = fixture.simulator.sessions.at(-1);
    expect(upstream?.headers['api-key']).toBe(realtimeServerKey);
    expect(upstream?.headers.authorization).toBeUndefined();
    const url = new URL(upstream?.url ?? '', 'http://simulator.invalid');
    expect(url.pathname).toBe('/openai/realtime');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      model: 'gpt-realtime',
      deployment: 'gpt-realtime',
      'api-version': expect.any(String),
    });
    const end = closed(socket);
    socket.close();
    await end;
  });

  it('refuses a provider that does not speak realtime with 400 before the upgrade', async () => {
    const put = await admin(fixture.gateway.app, 'PUT', '/admin/v1/providers/anthropic/key', {
      apiKey: 'sk-ant-0000',
      baseUrl: fixture.simulator.baseURL,
    });
    expect(put.statusCode).toBe(200);
    const refused = await refusal(fixture, { authorization: `Bearer ${fixture.key}`, 'x-gw-provider': 'anthropic' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'unsupported_by_provider', type: 'invalid_request_error' } });
  });

  it('answers a provider’s refusal of the session with 502 upstream_refused before the upgrade', async () => {
    const put = await admin(fixture.gateway.app, 'PUT', '/admin/v1/providers/openai-stale/key', {
      type: 'openai',
      apiKey: 'sk-stale-0000',
      baseUrl: fixture.simulator.baseURL,
    });
    expect(put.statusCode).toBe(200);
    const refused = await refusal(fixture, { authorization: `Bearer ${fixture.key}`, 'x-gw-provider': 'openai-stale' });
    expect(refused.status).toBe(502);
    expect(refused.headers['x-gw-upstream-status']).toBe('401');
    expect(refused.body).toMatchObject({ error: { code: 'upstream_refused' } });
  });

  it('closes a session whose client sends a message over the size limit with 1009', async () => {
    const session = sdkSession(fixture);
    await opened(session);
    const end = closed(session.socket);
    session.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x'.repeat(10_000) }] },
    });
    expect((await end).code).toBe(1009);
  });

  it('counts an open session against the concurrency limit for its whole life', async () => {
    await admin(fixture.gateway.app, 'PUT', '/admin/v1/users/rate-limits', {
      keys: { [fixture.keyId]: { concurrentRequests: 1 } },
    });
    const first = sdkSession(fixture);
    await opened(first);
    const second = await refusal(fixture, { authorization: `Bearer ${fixture.key}` });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ error: { code: 'concurrency_limit_exceeded' } });
    const end = closed(first.socket);
    first.close();
    await end;
    // The slot is given back when the socket closes: the next session is admitted (released asynchronously).
    let third = sdkSession(fixture);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const outcome = await opened(third).then(
        () => 'open',
        () => 'refused',
      );
      if (outcome === 'open') break;
      third = sdkSession(fixture);
    }
    expect(third.socket.readyState).toBe(WebSocket.OPEN);
    third.close();
  });

  it('closes the session after the response that crossed the cap (1008 with the cap’s code), then refuses the next upgrade with 402 as a JSON call', async () => {
    await admin(fixture.gateway.app, 'PATCH', `/admin/user-caps/${ada}`, {
      monthlyTokens: (await monthTokens(fixture)) + 100,
    });
    const session = sdkSession(fixture);
    const { next } = eventsOf(session);
    await opened(session);
    const end = closed(session.socket);
    const done = next('response.done');
    session.send({ type: 'response.create' });
    await done;
    const closedWith = await end;
    expect(closedWith.code).toBe(1008);
    expect(closedWith.reason).toMatch(/^user_token_cap_exceeded: /);

    const refused = await refusal(fixture, { authorization: `Bearer ${fixture.key}` });
    const json = await chat(fixture.gateway.app, fixture.key);
    expect(refused.status).toBe(402);
    expect(json.statusCode).toBe(402);
    expect(refused.body).toMatchObject({ error: { code: 'user_token_cap_exceeded', type: 'insufficient_quota' } });
    expect((refused.body as { error: { code: string } }).error.code).toBe(json.json().error.code);
  });

  it('answers a plain GET without an upgrade with 426 in the OpenAI envelope', async () => {
    const response = await fixture.gateway.app.inject({
      method: 'GET',
      url: '/v1/realtime?model=gpt-realtime',
      headers: { authorization: `Bearer ${fixture.key}` },
    });
    expect(response.statusCode).toBe(426);
    expect(response.json()).toMatchObject({ error: { code: 'upgrade_required' } });
  });
});

async function monthTokens(fixture: RealtimeFixture): Promise<number> {
  await fixture.gateway.deps.governance.idle();
  const response = await fixture.gateway.app.inject({
    method: 'GET',
    url: '/v1/me/usage',
    headers: { authorization: `Bearer ${fixture.key}` },
  });
  const body = response.json<{ tokens?: number; totalTokens?: number }>();
  return body.tokens ?? body.totalTokens ?? 0;
}

describe('GET /v1/realtime when the gateway shuts down', () => {
  it('closes an open session with 1001 and a reason naming the drain', async () => {
    const fixture = await startRealtimeFixture();
    try {
      const session = sdkSession(fixture);
      await opened(session);
      const end = closed(session.socket);
      const stopping = fixture.gateway.app.close();
      const closedWith = await end;
      await stopping;
      expect(closedWith.code).toBe(1001);
      expect(closedWith.reason).toMatch(/^gateway_draining/);
    } finally {
      await fixture.tls.close();
      await fixture.simulator.close();
    }
  });
});
