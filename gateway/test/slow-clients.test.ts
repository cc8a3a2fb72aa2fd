import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken } from './helpers.js';
import { startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

/** A raw client: what it received, and a promise settled when the server closed the connection. */
function rawClient(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, opened, closed, received: () => received };
}

/** Writes one byte of `text` per `everyMs` until the socket closes; resolves with how many bytes it sent. */
function trickle(socket: Socket, text: string, everyMs: number): Promise<number> {
  return new Promise((resolve) => {
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed || sent >= text.length) return;
      socket.write(text[sent] ?? '');
      sent += 1;
    }, everyMs);
    socket.once('close', () => {
      clearInterval(timer);
      resolve(sent);
    });
  });
}

describe('slow clients', () => {
  let fixture: InferenceFixture;
  let port: number;

  beforeAll(async () => {
    // The provider takes longer to answer than a client may take to send its request: a call being answered is exempt.
    fixture = await startInferenceFixture({
      env: {
        GW_HEADERS_TIMEOUT_MS: '1000',
        GW_REQUEST_TIMEOUT_MS: '2000',
        GW_KEEP_ALIVE_TIMEOUT_MS: '1000',
        GW_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS: '3',
      },
      openai: { latencyMs: 2_500, eventDelayMs: 100 },
    });
    const address = await fixture.gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });
  afterAll(async () => fixture.close());

  it('cuts a client sending its body a byte at a time with a 408 after the request timeout', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(100_000) }] });
    const client = rawClient(port);
    await client.opened;
    client.socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: gw\r\nauthorization: Bearer ${fixture.clientKey}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    const sent = await trickle(client.socket, body, 50);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(sent).toBeLessThan(body.length);
    expect(fixture.openai.requests).toHaveLength(0);
  });

  it('cuts a client trickling its headers with a 408 after the headers timeout', async () => {
    const client = rawClient(port);
    await client.opened;
    const sent = await trickle(
      client.socket,
      `GET /v1/models HTTP/1.1\r\nhost: gw\r\nx-padding: ${'p'.repeat(10_000)}\r\n\r\n`,
      20,
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(sent).toBeLessThan(10_000);
  });

  it('answers a normal client whose response takes longer than the request timeout, streamed or not', async () => {
    const plain = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...fixture.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(plain.status).toBe(200);
    expect(((await plain.json()) as { choices: unknown[] }).choices).toHaveLength(1);
    const streamed = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...fixture.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(streamed.status).toBe(200);
    expect(await streamed.text()).toContain('data: [DONE]');
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const client = rawClient(port);
    await client.opened;
    client.socket.write('GET /livez HTTP/1.1\r\nhost: gw\r\n\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received()).toMatch(/keep-alive: timeout=1/i);
  });

  it('caps the unauthenticated connections of one address, and one authenticated by a client key or the admin bearer stops counting', async () => {
    const held = [rawClient(port), rawClient(port), rawClient(port)];
    await Promise.all(held.map((client) => client.opened));
    const refused = rawClient(port);
    await refused.closed;
    expect(refused.received()).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused.received()).toContain('too_many_connections');

    // One of the three authenticates: a new connection is accepted again.
    const [first] = held;
    first?.socket.write(`GET /v1/me HTTP/1.1\r\nhost: gw\r\nauthorization: Bearer ${fixture.clientKey}\r\n\r\n`);
    await new Promise<void>((resolve) => first?.socket.once('data', () => resolve()));
    expect(first?.received()).toMatch(/^HTTP\/1\.1 200 /);
    const accepted = rawClient(port);
    await accepted.opened;
    accepted.socket.write('GET /livez HTTP/1.1\r\nhost: gw\r\nconnection: close\r\n\r\n');
    await accepted.closed;
    expect(accepted.received()).toMatch(/^HTTP\/1\.1 200 /);
    // So does one carrying the admin bearer.
    const second = held[1];
    second?.socket.write(`GET /admin/v1/keys HTTP/1.1\r\nhost: gw\r\nauthorization: Bearer ${adminToken}\r\n\r\n`);
    await new Promise<void>((resolve) => second?.socket.once('data', () => resolve()));
    expect(second?.received()).toMatch(/^HTTP\/1\.1 200 /);
    const more = [rawClient(port), rawClient(port)];
    await Promise.all(more.map((client) => client.opened));
    more[1]?.socket.write('GET /livez HTTP/1.1\r\nhost: gw\r\nconnection: close\r\n\r\n');
    await more[1]?.closed;
    expect(more[1]?.received()).toMatch(/^HTTP\/1\.1 200 /);
    for (const client of [...held, ...more]) client.socket.destroy();
  });
});
