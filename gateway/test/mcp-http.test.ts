import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { mintClientKey, mintServiceKey, startTestGateway, type TestGateway } from './helpers.js';

const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function expectNoSession(response: LightMyRequestResponse) {
  expect(response.headers['mcp-session-id']).toBeUndefined();
}

// Raw HTTP against /mcp: framing, status codes, auth and the lease, without an optimizer.
describe('POST /mcp over raw HTTP', () => {
  let gateway: TestGateway;
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    gateway = await startTestGateway();
    const minted = await mintClientKey(gateway.app);
    key = minted.key;
    keyId = minted.record.id;
  });
  afterAll(async () => {
    await gateway.close();
  });

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    gateway.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...jsonHeaders, authorization: `Bearer ${key}`, ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const call = (id: number | string, method: string, params?: unknown) =>
    post({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

  it('refuses a service key with 403: the tool server serves people', async () => {
    const service = await mintServiceKey(gateway.app);
    const response = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${service.key}` },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ status: 'failure', code: 'service_key_not_allowed' });
  });

  it('answers initialize with the requested version when supported, else the latest, and never issues a session id', async () => {
    const response = await call(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'curl', version: '8' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expectNoSession(response);
    expect(response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2025-06-18',
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'gw-retrieval', title: expect.any(String), version: expect.any(String) },
        instructions: expect.stringContaining('gw_recall'),
      },
    });
    const future = await call('init-2', 'initialize', {
      protocolVersion: '2099-01-01',
      capabilities: {},
      clientInfo: { name: 'future', version: '1' },
    });
    expect(future.json().result.protocolVersion).toBe('2025-11-25');
    expect(future.json().id).toBe('init-2');
  });

  it('answers ping and tools/list', async () => {
    expect((await call(2, 'ping')).json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    const list = await call(3, 'tools/list', {});
    expect(list.json().result.tools.map((tool: { name: string }) => tool.name)).toEqual(['gw_retrieve', 'gw_recall']);
    expect(list.json().result.nextCursor).toBeUndefined();
  });

  it('answers notifications and client responses 202 with no body', async () => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 9, result: {} },
    ]) {
      const response = await post(message);
      expect(response.statusCode).toBe(202);
      expect(response.body).toBe('');
      expectNoSession(response);
    }
  });

  it('rejects batch arrays, bad JSON and malformed messages with a JSON-RPC error and HTTP 400', async () => {
    const batch = await post([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect(batch.statusCode).toBe(400);
    expect(batch.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/batch/) },
    });

    const notJson = await post('{"jsonrpc":"2.0",');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.code).toBe(-32700);

    const wrongVersion = await post({ jsonrpc: '1.0', id: 4, method: 'ping' });
    expect(wrongVersion.statusCode).toBe(400);
    expect(wrongVersion.json()).toMatchObject({ id: 4, error: { code: -32600 } });

    const nullId = await post({ jsonrpc: '2.0', id: null, method: 'ping' });
    expect(nullId.statusCode).toBe(400);
    expect(nullId.json().error.code).toBe(-32600);
  });

  it('answers unknown methods -32601 and invalid params -32602 as JSON-RPC errors', async () => {
    const unknown = await call(5, 'resources/list', {});
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32601, message: 'Method not found: resources/list' },
    });

    const unknownTool = await call(6, 'tools/call', { name: 'gw_read', arguments: {} });
    expect(unknownTool.json()).toMatchObject({
      id: 6,
      error: { code: -32602, message: expect.stringContaining('Unknown tool: gw_read') },
    });

    const arrayParams = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: [1] });
    expect(arrayParams.statusCode).toBe(200);
    expect(arrayParams.json()).toMatchObject({ id: 7, error: { code: -32602 } });

    const noVersion = await call(8, 'initialize', { capabilities: {} });
    expect(noVersion.json()).toMatchObject({
      id: 8,
      error: { code: -32602, message: expect.stringContaining('protocolVersion') },
    });
  });

  it('returns tool failures in-band: over-long or blank grep, missing handle, retrieval unavailable', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ handle: 'ctx_a', grep: 'g'.repeat(257) }, /grep must be at most 256 characters/],
      [{ handle: 'ctx_a', grep: ' \t ' }, /non-whitespace/],
      [{}, /handle/],
      // No optimizer configured on this gateway.
      [{ handle: 'ctx_a' }, /retrieval is unavailable/],
    ];
    for (const [args, message] of cases) {
      const response = await call(10, 'tools/call', { name: 'gw_retrieve', arguments: args });
      expect(response.statusCode).toBe(200);
      const { result } = response.json();
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(message);
    }
    // A grep of exactly 256 characters is a valid request (it reaches the retrieval store, absent here).
    const maximal = (
      await call(11, 'tools/call', { name: 'gw_retrieve', arguments: { handle: 'ctx_a', grep: 'g'.repeat(256) } })
    ).json();
    expect(maximal.result.content[0].text).toMatch(/retrieval is unavailable/);
  });

  it('answers GET and DELETE /mcp with exactly 405, with or without a key', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      for (const headers of [
        { accept: 'text/event-stream' },
        { accept: 'text/event-stream', authorization: `Bearer ${key}` },
      ]) {
        const response = await gateway.app.inject({ method, url: '/mcp', headers });
        expect(response.statusCode).toBe(405);
        expect(response.headers.allow).toBe('POST');
        expectNoSession(response);
      }
    }
  });

  it('authenticates every POST with the client key: 401 machine envelope with WWW-Authenticate', async () => {
    const missing = await gateway.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: jsonHeaders,
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="gw"');
    expect(missing.json()).toEqual({
      status: 'failure',
      code: 'missing_key',
      message: 'A valid client key is required.',
      hint: expect.any(String),
    });

    const bad = await post(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { authorization: 'Bearer ark_notarealkeynotarealkeynotarealkey' },
    );
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('key_unknown');
    // Other accepted header forms work too.
    const viaApiKey = await gateway.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...jsonHeaders, 'x-api-key': key },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(viaApiKey.statusCode).toBe(200);
  });

  it('applies the streamable HTTP header rules: Accept, Content-Type, MCP-Protocol-Version, Origin', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await post(ping, { accept: 'text/event-stream' })).statusCode).toBe(406);
    expect((await post(ping, { accept: '*/*' })).statusCode).toBe(200);
    expect((await post(ping, { 'content-type': 'text/plain' })).statusCode).toBe(415);
    const badVersion = await post(ping, { 'mcp-protocol-version': '1999-01-01' });
    expect(badVersion.statusCode).toBe(400);
    expect(badVersion.json().error.message).toMatch(/MCP-Protocol-Version/);
    expect((await post(ping, { 'mcp-protocol-version': '2025-06-18' })).statusCode).toBe(200);
    const crossSite = await post(ping, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect((await post(ping, { origin: 'http://localhost:8787', host: 'localhost:8787' })).statusCode).toBe(200);
  });

  it('publishes /mcp and the connect retrieval routes in the OpenAPI document', async () => {
    const document = (await gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.paths['/mcp']).toHaveProperty('post');
    expect(document.paths['/mcp']).toHaveProperty('get');
    expect(
      document.paths['/connect/retrieve'].post.requestBody.content['application/json'].schema.properties.grep.maxLength,
    ).toBe(256);
    expect(document.paths['/connect/recall']).toHaveProperty('post');
    expect(document.paths['/connect/mcp-heartbeat']).toHaveProperty('post');
  });

  it('renews the key’s retrieval lease on any valid message, and not on a rejected one', async () => {
    const { key: freshKey, record } = await mintClientKey(gateway.app, { user: 'lease@example.com', team: 'platform' });
    const lease = gateway.deps.retrievalLease;
    const send = (payload: unknown) => post(payload, { authorization: `Bearer ${freshKey}` });

    await send([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(await lease.isLeased(record.id)).toBe(false);

    expect((await send({ jsonrpc: '2.0', method: 'notifications/initialized' })).statusCode).toBe(202);
    expect(await lease.isLeased(record.id)).toBe(true);
    const first = await lease.expiresAt(record.id);
    expect(first).toBe(gateway.clock.now() + 6 * 3_600_000);

    gateway.clock.advance(6 * 3_600_000 - 1_000);
    expect(await lease.isLeased(record.id)).toBe(true);
    await send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    gateway.clock.advance(2_000);
    expect(await lease.isLeased(record.id)).toBe(true);
    gateway.clock.advance(6 * 3_600_000);
    expect(await lease.isLeased(record.id)).toBe(false);
    expect(await lease.isLeased(keyId)).toBe(false);
  });
});
