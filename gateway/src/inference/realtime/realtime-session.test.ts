import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { RealtimeSession, type RealtimeSessionHooks } from './realtime-session.js';

/** Two real socket pairs: the user's client ⇄ the gateway's side, and the gateway's upstream ⇄ a provider we drive. */
async function pair(): Promise<{ near: WebSocket; far: WebSocket; server: WebSocketServer }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const accepted = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
  const far = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  await new Promise<void>((resolve) => far.once('open', resolve));
  return { near: await accepted, far, server };
}

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function startSession(hooks: Partial<RealtimeSessionHooks> = {}) {
  const client = await pair();
  const provider = await pair();
  servers.push(client.server, provider.server);
  provider.far.pause();
  const session = new RealtimeSession(client.near, provider.far, {
    idleTimeoutMs: 60_000,
    now: () => 0,
    onResponseDone: async () => null,
    onResponseCut: () => undefined,
    onEnd: () => undefined,
    ...hooks,
  });
  const user = client.far;
  const received: string[] = [];
  user.on('message', (data: Buffer) => received.push((JSON.parse(data.toString('utf8')) as { type: string }).type));
  const userClosed = new Promise<{ code: number; reason: string }>((resolve) =>
    user.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const fromProvider = (event: Record<string, unknown>) => provider.near.send(JSON.stringify(event));
  const reached = (type: string) =>
    new Promise<void>((resolve) => {
      const check = () => (received.includes(type) ? resolve() : user.once('message', () => setImmediate(check)));
      check();
    });
  return { session, user, provider: provider.near, received, userClosed, fromProvider, reached };
}

describe('RealtimeSession', () => {
  it('relays both ways and ends a drain only after the response in flight, with 1001', async () => {
    const { session, user, provider, received, userClosed, fromProvider, reached } = await startSession();
    const clientEvent = new Promise<string>((resolve) =>
      provider.once('message', (data: Buffer) => resolve(data.toString('utf8'))),
    );
    user.send(JSON.stringify({ type: 'response.create' }));
    expect(JSON.parse(await clientEvent)).toEqual({ type: 'response.create' });

    fromProvider({ type: 'response.created', response: { id: 'resp_1' } });
    await reached('response.created');
    session.closeAfterResponses(1001, 'gateway_draining: reconnect');
    fromProvider({ type: 'response.output_text.delta', response_id: 'resp_1', delta: 'still going' });
    fromProvider({ type: 'response.done', response: { id: 'resp_1', usage: { input_tokens: 1, output_tokens: 2 } } });
    expect(await userClosed).toEqual({ code: 1001, reason: 'gateway_draining: reconnect' });
    expect(received).toEqual(['response.created', 'response.output_text.delta', 'response.done']);
  });

  it('closes with 1008 and the denial after the response whose usage crossed a cap', async () => {
    const usages: unknown[] = [];
    const { userClosed, fromProvider, received } = await startSession({
      onResponseDone: async (usage) => {
        usages.push(usage);
        return { code: 'user_token_cap_exceeded', message: 'Monthly token cap reached.' };
      },
    });
    fromProvider({ type: 'response.created', response: { id: 'resp_1' } });
    fromProvider({ type: 'response.done', response: { id: 'resp_1', usage: { input_tokens: 10, output_tokens: 5 } } });
    expect(await userClosed).toEqual({ code: 1008, reason: 'user_token_cap_exceeded: Monthly token cap reached.' });
    expect(received).toEqual(['response.created', 'response.done']);
    expect(usages).toEqual([{ inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }]);
  });

  it('closes at once when told to (the drain deadline), a response in flight or not, and cuts a long reason to 123 bytes', async () => {
    const { session, userClosed, fromProvider, reached } = await startSession();
    fromProvider({ type: 'response.created', response: { id: 'resp_1' } });
    await reached('response.created');
    session.closeNow(1001, `gateway_draining: ${'é'.repeat(100)}`);
    const closed = await userClosed;
    expect(closed.code).toBe(1001);
    expect(Buffer.byteLength(closed.reason)).toBeLessThanOrEqual(123);
  });

  it('closes an idle session with 1000 and an idle_timeout reason, and the provider side with it', async () => {
    const { userClosed, provider } = await startSession({ idleTimeoutMs: 50 });
    const providerClosed = new Promise<number>((resolve) => provider.once('close', (code) => resolve(code)));
    expect(await userClosed).toMatchObject({ code: 1000, reason: expect.stringMatching(/^idle_timeout: /) });
    expect(await providerClosed).toBe(1000);
  });

  it('reports a response the client left in the middle of, once, as cut by the client', async () => {
    const cuts: string[] = [];
    let ended!: () => void;
    const end = new Promise<void>((resolve) => (ended = resolve));
    const { user, fromProvider, reached } = await startSession({
      onResponseCut: (_startedAt, cause) => cuts.push(cause),
      onEnd: () => ended(),
    });
    fromProvider({ type: 'response.created', response: { id: 'resp_1' } });
    await reached('response.created');
    user.terminate();
    await end;
    expect(cuts).toEqual(['client_closed']);
  });

  it('closes the client with 1011 when the provider connection is lost mid-session', async () => {
    const { userClosed, provider } = await startSession();
    provider.terminate();
    expect((await userClosed).code).toBe(1011);
  });
});
