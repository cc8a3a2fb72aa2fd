import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAiSimulator, type SimulatorHandle, createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
import { type Db } from '@gw/platform';
import { adminHeaders, mintClientKey, startTestGateway } from './helpers.js';

/** The store, kept open through the gateway's shutdown (which closes its own) so the rows can be read after it. */
function outlivingShutdown(db: Db): Db {
  return new Proxy(db, {
    get: (target, property) => (property === 'close' ? async () => undefined : Reflect.get(target, property, target)),
  });
}

// Calls whose client stopped reading (a paused download, a stalled stream reader) when the drain deadline passes:
// they must end at the deadline, and their spend rows reach the store before the shutdown's cleanups run.
describe('drain deadline with clients that stopped reading', () => {
  let store: TestDb | undefined;
  let provider: SimulatorHandle | undefined;
  let socket: Socket | undefined;

  afterEach(async () => {
    socket?.destroy();
    await provider?.close();
    await store?.dispose();
  });

  for (const variant of ['download', 'stream'] as const) {
    it(`records the ${variant} as ended by the drain before the process stops`, async () => {
      store = await createIsolatedPgDb(testDbUrl(process.env));
      provider = await startOpenAiSimulator({
        apiKey: 'sk-server',
        fileContentBytes: 64 * 1024 * 1024,
        replyWith: { text: 'word '.repeat(400_000) },
      });
      const gateway = await startTestGateway({ db: outlivingShutdown(store.db) });
      await gateway.app.inject({
        method: 'PUT',
        url: '/admin/v1/providers/openai/key',
        headers: adminHeaders,
        payload: { apiKey: 'sk-server', baseUrl: provider.baseURL },
      });
      await gateway.app.inject({
        method: 'PUT',
        url: '/admin/v1/routing',
        headers: adminHeaders,
        payload: { defaultProvider: 'openai' },
      });
      const { key } = await mintClientKey(gateway.app);
      const address = new URL(await gateway.app.listen({ port: 0, host: '127.0.0.1' }));

      // A client that sends its request and never reads a byte of the answer.
      socket = connect(Number(address.port), address.hostname);
      socket.on('error', () => undefined);
      socket.pause();
      const body = JSON.stringify({
        model: 'gpt-4o',
        stream: true,
        max_tokens: 1_000_000,
        messages: [{ role: 'user', content: 'go' }],
      });
      socket.write(
        variant === 'download'
          ? `GET /v1/files/file-big/content HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer ${key}\r\n\r\n`
          : `POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await provider.waitForRequests(1);
      // The gateway has started relaying the answer once its first bytes reach the client's socket (which nobody
      // reads, so the relay stalls behind it): the drain then finds a call mid-relay.
      await once(socket, 'readable');

      await gateway.deps.lifecycle.shutdown(gateway.app, gateway.deps.logger, { timeoutMs: 300, settleMs: 500 });
      await gateway.deps.coord.close();

      const { rows } = await store.db.query<Record<string, unknown>>(
        'SELECT status, error_code, endpoint FROM gw_spend',
      );
      expect(rows).toEqual([
        {
          status: 503,
          error_code: 'gateway_draining',
          endpoint: variant === 'download' ? '/v1/files/file-big/content' : '/v1/chat/completions',
        },
      ]);
    }, 20_000);
  }
});
