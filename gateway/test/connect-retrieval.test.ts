import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintClientKey } from './helpers.js';
import {
  startRetrievalStack,
  startTestOptimizer,
  toolOutput,
  type RetrievalStack,
  type TestOptimizer,
} from './mcp-support.js';

const sixHoursMs = 6 * 3_600_000;

describe('connect retrieval routes with the real optimizer', () => {
  let optimizer: TestOptimizer;
  let stack: RetrievalStack;
  let handle: string;
  const original = toolOutput();

  beforeAll(async () => {
    optimizer = await startTestOptimizer();
    stack = await startRetrievalStack(optimizer.url);
    handle = await optimizer.stash(original);
  });
  afterAll(async () => {
    await stack?.close();
    await optimizer?.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}, key = stack.key) =>
    stack.gateway.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${key}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  it('POST /connect/retrieve answers the original bytes with status ok and no age bucket', async () => {
    const response = await post('/connect/retrieve', { handle });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      handle,
      content: original,
      partial: false,
      totalLines: 61,
      totalChars: original.length,
    });
  });

  it('serves a range and a grep, and reports the bounds searched', async () => {
    const range = await post('/connect/retrieve', { handle, startLine: 41, endLine: 42.4 });
    expect(range.json()).toMatchObject({
      status: 'ok',
      partial: true,
      startLine: 41,
      endLine: 42,
      content: '  PASS test 41: ok\n  FAIL src/parser.test.ts › handles ünïcode\t(expected "✓")  ',
    });
    const grep = await post('/connect/retrieve', { handle, grep: 'tests:' });
    expect(grep.json()).toMatchObject({ status: 'ok', partial: true, grepMatches: 1, grepTruncated: false });
    expect(grep.json().content).toContain('61:Tests: 1 failed, 59 passed');
  });

  it('answers 404 for an unknown handle and 400 for a bad grep or body', async () => {
    const unknown = await post('/connect/retrieve', { handle: 'ctx_doesnotexist0000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      status: 'failure',
      code: 'handle_not_found',
      message: 'The handle is unknown or has expired.',
    });
    for (const body of [{ handle, grep: 'x'.repeat(257) }, { handle, grep: '   ' }, {}, { handle: '' }]) {
      const response = await post('/connect/retrieve', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 'failure', code: 'invalid_request' });
    }
    const notJson = await post('/connect/retrieve', '{"handle":', { 'content-type': 'application/json' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe('invalid_json');
  });

  it('answers 401 in the machine envelope for a missing or bad key', async () => {
    for (const url of ['/connect/retrieve', '/connect/recall', '/connect/mcp-heartbeat']) {
      const missing = await stack.gateway.app.inject({ method: 'POST', url, payload: { handle, query: 'x' } });
      expect(missing.statusCode).toBe(401);
      expect(missing.json()).toEqual({
        status: 'failure',
        code: 'missing_key',
        message: 'A valid client key is required.',
        hint: expect.any(String),
      });
      const bad = await post(url, { handle, query: 'x' }, {}, 'ark_notarealkeynotarealkeynotarealkey');
      expect(bad.statusCode).toBe(401);
      expect(bad.json().code).toBe('key_unknown');
    }
  });

  it('POST /connect/recall answers ranked matches from the caller’s own stash only', async () => {
    const mine = await optimizer.stash(
      `${toolOutput(20)}\nwarning: deprecated flux_inverter configuration in build.gradle\n`,
    );
    await optimizer.stash(
      `${toolOutput(20)}\nwarning: deprecated flux_inverter in someone else's log\n`,
      'someone-else@example.com',
    );
    const response = await post('/connect/recall', { query: 'flux_inverter deprecated' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('ok');
    expect(body.matches.map((match: { handle: string }) => match.handle)).toEqual([mine]);
    expect(body.matches[0]).toMatchObject({
      handle: mine,
      score: expect.any(Number),
      preview: expect.stringContaining('flux_inverter'),
    });
    expect((await post('/connect/recall', { query: 'zzz_nothing_like_this' })).json()).toEqual({
      status: 'ok',
      matches: [],
    });
  });

  it('never hands one user the original stashed for another, by handle or by recall', async () => {
    const { key } = await mintClientKey(stack.gateway.app, { user: 'mallory@example.com', team: 'platform' });
    const stolen = await post('/connect/retrieve', { handle }, {}, key);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.body).not.toContain(original.slice(0, 40));
    expect((await post('/connect/retrieve', { handle })).statusCode).toBe(200);
  });

  it('renews the lease for a model call, not for a probe; the heartbeat renews and reports the expiry', async () => {
    const { key, record } = await mintClientKey(stack.gateway.app, { user: 'lease@example.com', team: 'platform' });
    const lease = stack.gateway.deps.retrievalLease;
    const probe = { 'x-gw-retrieve-probe': '1' };
    const own = await optimizer.stash(original, 'lease@example.com');

    expect((await post('/connect/retrieve', { handle: own }, probe, key)).statusCode).toBe(200);
    expect((await post('/connect/recall', { query: 'PASS' }, probe, key)).statusCode).toBe(200);
    expect(await lease.isLeased(record.id)).toBe(false);

    const heartbeat = await post('/connect/mcp-heartbeat', undefined, {}, key);
    expect(heartbeat.statusCode).toBe(200);
    expect(heartbeat.json()).toEqual({
      status: 'ok',
      leaseExpiresAt: new Date(stack.gateway.clock.now() + sixHoursMs).toISOString(),
      leaseSeconds: 21_600,
    });
    expect(await lease.isLeased(record.id)).toBe(true);
    // An empty body declared as JSON is still an empty POST.
    expect((await post('/connect/mcp-heartbeat', '', { 'content-type': 'application/json' }, key)).statusCode).toBe(
      200,
    );

    stack.gateway.clock.advance(sixHoursMs + 1);
    expect(await lease.isLeased(record.id)).toBe(false);
    expect((await post('/connect/recall', { query: 'PASS' }, {}, key)).statusCode).toBe(200);
    expect(await lease.isLeased(record.id)).toBe(true);

    stack.gateway.clock.advance(sixHoursMs + 1);
    // A model retrieval that misses still proves the client can call retrieve.
    expect((await post('/connect/retrieve', { handle: 'ctx_gone' }, {}, key)).statusCode).toBe(404);
    expect(await lease.isLeased(record.id)).toBe(true);
  });

  it('answers 503 retrieval_unavailable when the optimizer stops answering', async () => {
    const other = await startTestOptimizer();
    const detached = await startRetrievalStack(other.url);
    try {
      await other.close();
      const response = await detached.gateway.app.inject({
        method: 'POST',
        url: '/connect/retrieve',
        headers: { authorization: `Bearer ${detached.key}` },
        payload: { handle },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'failure', code: 'retrieval_unavailable' });
      // Recall fails open.
      const recall = await detached.gateway.app.inject({
        method: 'POST',
        url: '/connect/recall',
        headers: { authorization: `Bearer ${detached.key}` },
        payload: { query: 'PASS' },
      });
      expect(recall.json()).toEqual({ status: 'ok', matches: [] });
    } finally {
      await detached.close();
    }
  });
});

describe('connect retrieval routes without a usable optimizer', () => {
  it('with no optimizer configured: retrieve 503, recall empty matches', async () => {
    const stack = await startRetrievalStack(null);
    try {
      const headers = { authorization: `Bearer ${stack.key}` };
      const retrieve = await stack.gateway.app.inject({
        method: 'POST',
        url: '/connect/retrieve',
        headers,
        payload: { handle: 'ctx_abc' },
      });
      expect(retrieve.statusCode).toBe(503);
      expect(retrieve.json()).toEqual({
        status: 'failure',
        code: 'retrieval_unavailable',
        message: expect.any(String),
      });
      const recall = await stack.gateway.app.inject({
        method: 'POST',
        url: '/connect/recall',
        headers,
        payload: { query: 'anything' },
      });
      expect(recall.statusCode).toBe(200);
      expect(recall.json()).toEqual({ status: 'ok', matches: [] });
    } finally {
      await stack.close();
    }
  });

  describe('against a version-skewed optimizer that predates slices', () => {
    let legacy: Server;
    let stack: RetrievalStack;
    // An older optimizer: a strict retrieve schema (unknown fields are a 400) and the pre-slice answer shape.
    beforeAll(async () => {
      legacy = createServer((request, response) => {
        let raw = '';
        request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        request.on('end', () => {
          const body = JSON.parse(raw) as Record<string, unknown>;
          const extra = Object.keys(body).filter((field) => field !== 'handle' && field !== 'metadata');
          response.setHeader('content-type', 'application/json');
          if (body.handle === 'ctx_old_shape') {
            response.end(JSON.stringify({ handle: body.handle, content: 'whole original' }));
          } else if (extra.length > 0) {
            response.statusCode = 400;
            response.end(
              JSON.stringify({ error: { code: 'invalid_request', message: `unrecognized keys: ${extra.join(', ')}` } }),
            );
          } else {
            response.end(
              JSON.stringify({
                handle: body.handle,
                content: 'whole original',
                totalLines: 1,
                totalChars: 14,
                partial: false,
              }),
            );
          }
        });
      });
      await new Promise<void>((resolve) => legacy.listen(0, '127.0.0.1', resolve));
      stack = await startRetrievalStack(`http://127.0.0.1:${(legacy.address() as AddressInfo).port}`);
    });
    afterAll(async () => {
      await stack?.close();
      await new Promise((resolve) => legacy.close(resolve));
    });

    const retrieve = (payload: Record<string, unknown>) =>
      stack.gateway.app.inject({
        method: 'POST',
        url: '/connect/retrieve',
        headers: { authorization: `Bearer ${stack.key}` },
        payload,
      });

    it('answers a slice request 503 slice_unsupported, and the whole original still works', async () => {
      for (const slice of [{ startLine: 1 }, { endLine: 3 }, { grep: 'error' }]) {
        const response = await retrieve({ handle: 'ctx_abc', ...slice });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({ status: 'failure', code: 'slice_unsupported' });
      }
      const oldShape = await retrieve({ handle: 'ctx_old_shape', grep: 'x' });
      expect(oldShape.json().code).toBe('slice_unsupported');
      const whole = await retrieve({ handle: 'ctx_abc' });
      expect(whole.statusCode).toBe(200);
      expect(whole.json()).toMatchObject({ status: 'ok', content: 'whole original' });
    });

    it('tells the model through /mcp to retry with only the handle', async () => {
      const response = await stack.gateway.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          authorization: `Bearer ${stack.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        payload: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'gw_retrieve', arguments: { handle: 'ctx_abc', startLine: '2', endLine: 4 } },
        },
      });
      const { result } = response.json();
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(
        /does not support startLine, endLine or grep.*only the handle \(ctx_abc\)/,
      );
    });
  });
});
