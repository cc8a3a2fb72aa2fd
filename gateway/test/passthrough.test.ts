import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders } from './helpers.js';
import { startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

// The `/v1/*` catch-all against a provider whose answers the test chooses per path.
describe('inference passthrough', () => {
  let fixture: InferenceFixture;
  let upstream: Server;
  const received: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];
  const answers: Record<string, { status: number; body: string; type?: string; headers?: Record<string, string> }> = {
    '/v1/files': {
      status: 503,
      body: JSON.stringify({ error: { message: 'Files are overloaded', type: 'server_error', code: null } }),
    },
    '/v1/files/file-gone': {
      status: 404,
      body: JSON.stringify({
        error: { message: 'No such File object: file-gone', type: 'invalid_request_error', code: null },
      }),
    },
    '/v1/batches': { status: 502, body: '<html>bad gateway</html>', type: 'text/html' },
    '/v1/uploads': { status: 200, body: JSON.stringify({ id: 'upload_1', object: 'upload' }) },
    '/v1/files/file-json/content': {
      status: 200,
      body: JSON.stringify({ rows: [1, 2] }),
      headers: { 'content-disposition': 'attachment; filename="rows.json"' },
    },
    // Larger than the gateway reads whole: streamed through after its first megabytes.
    '/v1/vector_stores/vs_big': {
      status: 200,
      body: JSON.stringify({
        id: 'vs_big',
        object: 'vector_store',
        metadata: { blob: 'x'.repeat(9 * 1024 * 1024) },
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      }),
    },
    // Some compatible servers answer an error with a success status.
    '/v1/chat/completions': {
      status: 200,
      body: JSON.stringify({ error: { message: 'model overloaded', type: 'server_error', code: null } }),
    },
  };

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const answer = answers[request.url ?? ''] ?? {
          status: 404,
          body: JSON.stringify({
            error: {
              message: `Invalid URL (${request.method} ${request.url})`,
              type: 'invalid_request_error',
              code: null,
            },
          }),
        };
        response
          .writeHead(answer.status, { 'content-type': answer.type ?? 'application/json', ...answer.headers })
          .end(answer.body);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    fixture = await startInferenceFixture();
    const baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    const put = await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/files/key',
      headers: adminHeaders,
      payload: { type: 'openai-compatible', apiKey: 'sk-files', baseUrl },
    });
    expect(put.statusCode).toBe(200);
  });
  afterAll(async () => {
    await fixture.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const send = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: string | Buffer) =>
    fixture.gateway.app.inject({
      method,
      url,
      headers: { ...fixture.auth, 'x-gw-provider': 'files', ...headers },
      ...(payload === undefined ? {} : { payload }),
    });

  it('relays a provider 5xx with its status and type, the message naming the provider', async () => {
    const response = await send('GET', '/v1/files');
    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({
      'x-gw-error-source': 'upstream',
      'x-gw-upstream-provider': 'files',
      'x-gw-upstream-status': '503',
      'x-gw-provider': 'files',
    });
    const error = response.json().error;
    expect(error.type).toBe('server_error');
    expect(error.message).toMatch(
      /^Files are overloaded \(Error from provider "files"; this is not a gateway failure\.\)$/,
    );

    const html = await send('GET', '/v1/batches');
    expect(html.statusCode).toBe(502);
    expect(html.json().error.message).toContain('not a gateway failure');
  });

  it('answers a path no provider serves with 500 the SDKs do not retry, and relays a missing resource as 404', async () => {
    const unknown = await send('GET', '/v1/not-a-route');
    expect(unknown.statusCode).toBe(500);
    expect(unknown.headers['x-should-retry']).toBe('false');
    expect(unknown.json().error.code).toBe('unrecognized_path');

    const gone = await send('GET', '/v1/files/file-gone');
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe('No such File object: file-gone');
  });

  it('forwards a decoded body without the client hop headers, address or encodings, and asks for an unencoded answer', async () => {
    received.length = 0;
    const body = JSON.stringify({ purpose: 'batch', bytes: 3 });
    const response = await send(
      'POST',
      '/v1/uploads',
      {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'accept-encoding': 'gzip, br',
        connection: 'keep-alive, x-hop',
        'x-hop': '1',
        forwarded: 'for=192.0.2.60',
        'x-real-ip': '192.0.2.60',
      },
      gzipSync(body),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'upload_1', object: 'upload' });
    const [sent] = received;
    expect(sent?.body).toBe(body);
    expect(sent?.headers).toMatchObject({ 'accept-encoding': 'identity', authorization: 'Bearer sk-files' });
    for (const name of ['content-encoding', 'x-hop', 'forwarded', 'x-real-ip'])
      expect(sent?.headers[name]).toBeUndefined();
  });

  it("keeps a small JSON download's content-disposition", async () => {
    const response = await send('GET', '/v1/files/file-json/content');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="rows.json"');
    expect(response.json()).toEqual({ rows: [1, 2] });
  });

  it('relays a JSON answer larger than it reads whole as sent, streamed', async () => {
    const response = await send('GET', '/v1/vector_stores/vs_big');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toBe(answers['/v1/vector_stores/vs_big']?.body);
  });

  it('relays an error the provider answered with a success status as its error, on the native and the translated lane', async () => {
    const chat = await send(
      'POST',
      '/v1/chat/completions',
      { 'content-type': 'application/json' },
      JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(chat.statusCode).toBe(502);
    expect(chat.headers).toMatchObject({
      'x-gw-error-source': 'upstream',
      'x-gw-upstream-provider': 'files',
      'x-gw-upstream-status': '200',
    });
    expect(chat.json().error).toMatchObject({
      type: 'server_error',
      message: expect.stringContaining('not a gateway failure'),
    });
    const messages = await send(
      'POST',
      '/v1/messages',
      { 'content-type': 'application/json' },
      JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(messages.statusCode).toBe(502);
    expect(messages.json()).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('model overloaded') },
    });
  });
});
