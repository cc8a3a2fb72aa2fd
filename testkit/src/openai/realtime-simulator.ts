import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

/** One response's usage, as the provider reports it in `response.done` (`response.usage`). */
export interface RealtimeUsageSpec {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
}

export interface RealtimeSimulatorOptions {
  /** The server-held key the simulator accepts as `Authorization: Bearer` (or Azure's `api-key`). */
  apiKey: string;
  /** Text deltas of every response. */
  deltas?: readonly string[];
  /** Usage of every response. */
  usage?: RealtimeUsageSpec;
}

/** What the simulator saw of one session: the handshake (path, query, headers) and the client events' types. */
export interface RealtimeSessionRecord {
  url: string;
  headers: IncomingHttpHeaders;
  events: string[];
  closed: { code: number; reason: string } | null;
}

export interface RealtimeSimulatorHandle {
  /** `http://127.0.0.1:<port>/v1`, the provider base URL to configure (the realtime path is `/v1/realtime`). */
  baseURL: string;
  sessions: RealtimeSessionRecord[];
  /** Resolves with the next session to close (its record filled in). */
  nextClose(): Promise<RealtimeSessionRecord>;
  close(): Promise<void>;
}

const defaultUsage: RealtimeUsageSpec = { input_tokens: 120, output_tokens: 30 };

/**
 * A provider's realtime endpoint speaking the OpenAI Realtime protocol over WebSocket: `session.created` on connect,
 * `session.update` → `session.updated`, `conversation.item.create` → `conversation.item.created`, and
 * `response.create` → `response.created`, `response.output_text.delta`…, `response.output_text.done`,
 * `response.done` with `response.usage`. A wrong key is refused with 401 before the upgrade, as the provider does.
 */
export async function startRealtimeSimulator(options: RealtimeSimulatorOptions): Promise<RealtimeSimulatorHandle> {
  const sessions: RealtimeSessionRecord[] = [];
  const closeWaiters: Array<(record: RealtimeSessionRecord) => void> = [];
  const server = createServer((_request, response) => response.writeHead(426).end());
  const wss = new WebSocketServer({ noServer: true });
  let ids = 0;
  const id = (prefix: string) => `${prefix}_${(ids += 1).toString().padStart(6, '0')}`;

  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://simulator.invalid');
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!url.pathname.endsWith('/realtime') || (bearer ?? request.headers['api-key']) !== options.apiKey) {
      const body = JSON.stringify({
        error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (client) => {
      const record: RealtimeSessionRecord = {
        url: request.url ?? '',
        headers: request.headers,
        events: [],
        closed: null,
      };
      sessions.push(record);
      serve(client, record, url.searchParams.get('model') ?? 'gpt-realtime');
    });
  });

  function serve(client: WebSocket, record: RealtimeSessionRecord, model: string): void {
    const send = (event: Record<string, unknown>) => client.send(JSON.stringify({ event_id: id('event'), ...event }));
    const session = {
      id: id('sess'),
      object: 'realtime.session',
      type: 'realtime',
      model,
      output_modalities: ['text'],
    };
    send({ type: 'session.created', session });
    client.on('message', (data: RawData) => {
      const event = parseEvent(data);
      record.events.push(event.type);
      if (event.type === 'session.update') send({ type: 'session.updated', session: { ...session, ...event.session } });
      else if (event.type === 'conversation.item.create')
        send({ type: 'conversation.item.created', item: { id: id('item'), ...event.item } });
      else if (event.type === 'response.create') respond(send);
      else
        send({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            code: 'unknown_event',
            message: `Unknown event type '${event.type}'.`,
          },
        });
    });
    client.on('close', (code, reason) => {
      record.closed = { code, reason: reason.toString() };
      closeWaiters.shift()?.(record);
    });
  }

  function respond(send: (event: Record<string, unknown>) => void): void {
    const responseId = id('resp');
    const itemId = id('item');
    const deltas = options.deltas ?? ['Hello', ' from', ' realtime.'];
    send({
      type: 'response.created',
      response: { id: responseId, object: 'realtime.response', status: 'in_progress', output: [], usage: null },
    });
    for (const delta of deltas)
      send({
        type: 'response.output_text.delta',
        response_id: responseId,
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        delta,
      });
    const text = deltas.join('');
    send({
      type: 'response.output_text.done',
      response_id: responseId,
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      text,
    });
    const usage = options.usage ?? defaultUsage;
    const cached = usage.cached_tokens ?? 0;
    send({
      type: 'response.done',
      response: {
        id: responseId,
        object: 'realtime.response',
        status: 'completed',
        output: [{ id: itemId, type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }],
        usage: {
          total_tokens: usage.input_tokens + usage.output_tokens,
          input_tokens: usage.input_tokens,
          output_tokens: usage.output_tokens,
          input_token_details: { cached_tokens: cached, text_tokens: usage.input_tokens, audio_tokens: 0 },
          output_token_details: { text_tokens: usage.output_tokens, audio_tokens: 0 },
        },
      },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    sessions,
    nextClose: () => new Promise((resolve) => closeWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

interface ClientEvent {
  type: string;
  session?: Record<string, unknown>;
  item?: Record<string, unknown>;
}

function parseEvent(data: RawData): ClientEvent {
  try {
    const parsed: unknown = JSON.parse(
      Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'),
    );
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { type?: unknown }).type === 'string')
      return parsed as ClientEvent;
  } catch {
    // answered below as the provider does: an error event, the session stays open
  }
  return { type: 'invalid_event' };
}
