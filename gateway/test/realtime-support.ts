import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import WebSocket from 'ws';
import {
  localhostCertificate,
  startRealtimeSimulator,
  startTlsTerminator,
  type RealtimeSimulatorHandle,
  type TlsTerminatorHandle,
} from '@gw/testkit';
import { adminHeaders, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';

export const realtimeServerKey = 'sk-server-held-realtime-0000';

export interface RealtimeFixture {
  gateway: TestGateway;
  simulator: RealtimeSimulatorHandle;
  /** The gateway behind TLS: the SDK's realtime client speaks wss:// only. */
  tls: TlsTerminatorHandle;
  key: string;
  keyId: string;
  close(): Promise<void>;
}

/** A gateway whose default provider `openai` is the realtime simulator, listening behind a TLS terminator. */
export async function startRealtimeFixture(env: Record<string, string> = {}): Promise<RealtimeFixture> {
  const simulator = await startRealtimeSimulator({ apiKey: realtimeServerKey });
  const gateway = await startTestGateway({ env });
  const put = await gateway.app.inject({
    method: 'PUT',
    url: '/admin/v1/providers/openai/key',
    headers: adminHeaders,
    payload: { apiKey: realtimeServerKey, baseUrl: simulator.baseURL },
  });
  if (put.statusCode !== 200) throw new Error(`provider: ${put.statusCode} ${put.body}`);
  await gateway.app.inject({
    method: 'PUT',
    url: '/admin/v1/routing',
    headers: adminHeaders,
    payload: { defaultProvider: 'openai' },
  });
  const { key, record } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers' });
  const address = new URL(await gateway.app.listen({ port: 0, host: '127.0.0.1' }));
  const tls = await startTlsTerminator({ host: address.hostname, port: Number(address.port) });
  return {
    gateway,
    simulator,
    tls,
    key,
    keyId: record.id,
    close: async () => {
      await tls.close();
      await gateway.close();
      await simulator.close();
    },
  };
}

/** The official SDK's realtime client, through the fixture's TLS front. */
export function sdkSession(fixture: RealtimeFixture, key = fixture.key): OpenAIRealtimeWS {
  const client = new OpenAI({ apiKey: key, baseURL: `${fixture.tls.url}/v1`, maxRetries: 0 });
  const session = new OpenAIRealtimeWS({ model: 'gpt-realtime', options: { ca: localhostCertificate.cert } }, client);
  // Errors are asserted through `failure`; an error event without a listener would throw.
  session.on('error', () => undefined);
  return session;
}

export function opened(session: OpenAIRealtimeWS): Promise<void> {
  return new Promise((resolve, reject) => {
    session.socket.once('open', () => resolve());
    session.socket.once('close', (code) => reject(new Error(`closed before open: ${code}`)));
  });
}

export function closed(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** Every server event of a session, in order, with a wait for the next of a type. */
export function eventsOf(session: OpenAIRealtimeWS) {
  const events: RealtimeServerEvent[] = [];
  const waiters: Array<{ type: string; resolve: (event: RealtimeServerEvent) => void }> = [];
  session.on('event', (event) => {
    events.push(event);
    for (const waiter of waiters.filter((candidate) => candidate.type === event.type)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(event);
    }
  });
  return {
    events,
    next: (type: RealtimeServerEvent['type']) =>
      new Promise<RealtimeServerEvent>((resolve) => waiters.push({ type, resolve })),
  };
}

/** The HTTP answer to an upgrade the gateway refused: its status, body and headers. */
export function refusal(
  fixture: RealtimeFixture,
  headers: Record<string, string>,
  path = '/v1/realtime?model=gpt-realtime',
  protocols: string[] = [],
): Promise<{ status: number; body: unknown; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${fixture.tls.url.replace('https', 'wss')}${path}`, protocols, {
      headers,
      ca: localhostCertificate.cert,
    });
    socket.once('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        request.destroy();
        resolve({
          status: response.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
          headers: response.headers,
        });
      });
    });
    socket.once('error', () => undefined);
  });
}
