import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Behaviour, ErrorSpec } from './behaviour.js';
import { sleep } from './real-timers.js';

/** The behaviour a request got, with the simulator-wide timing defaults already applied. */
export interface Turn {
  behaviour: Behaviour;
  latencyMs: number;
  eventDelayMs: number;
}

const JSON_TYPE = 'application/json';
const SSE_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};

/** Sends a complete JSON (or verbatim) body, honouring latency and a drop part-way through the body. */
export async function sendBody(
  response: ServerResponse,
  turn: Turn,
  status: number,
  headers: OutgoingHttpHeaders,
  body: string,
  contentType = JSON_TYPE,
): Promise<void> {
  if (turn.latencyMs > 0) await sleep(turn.latencyMs);
  const drop = turn.behaviour.dropConnection;
  if (drop === true) {
    response.socket?.destroy();
    return;
  }
  if (drop) {
    response.writeHead(status, {
      'content-type': contentType,
      ...headers,
      ...turn.behaviour.headers,
      'content-length': Buffer.byteLength(body),
    });
    cutShort(response, body.slice(0, Math.floor(body.length / 2)));
    return;
  }
  // Like the real APIs, a complete body is gzip-compressed for a client that accepts it (the SDKs' fetch does).
  const compressed = acceptsGzip(response) ? gzipSync(body) : null;
  const encoding = compressed ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {};
  response.writeHead(status, {
    'content-type': contentType,
    ...headers,
    ...turn.behaviour.headers,
    ...encoding,
    'content-length': compressed?.length ?? Buffer.byteLength(body),
  });
  response.end(compressed ?? body);
}

function acceptsGzip(response: ServerResponse): boolean {
  const accepted = response.req.headers['accept-encoding'];
  if (typeof accepted !== 'string') return false;
  return accepted.split(',').some((entry) => {
    const [coding, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    return coding === 'gzip' && !params.some((param) => /^q=0(\.0*)?$/.test(param));
  });
}

/**
 * Streams pre-serialised SSE events. With no per-event delay and no interruption the whole stream goes out in
 * one write, which keeps the simulator's cost negligible in the overhead benchmark.
 */
export async function sendEvents(
  response: ServerResponse,
  turn: Turn,
  headers: OutgoingHttpHeaders,
  events: readonly string[],
  renderError: (spec: ErrorSpec) => string,
): Promise<void> {
  if (turn.latencyMs > 0) await sleep(turn.latencyMs);
  const { dropConnection, midStreamError } = turn.behaviour;
  if (dropConnection === true) {
    response.socket?.destroy();
    return;
  }
  response.writeHead(200, { ...SSE_HEADERS, ...headers, ...turn.behaviour.headers });
  const dropAfter = dropConnection?.afterEvents ?? Number.POSITIVE_INFINITY;
  const errorAfter = midStreamError?.afterEvents ?? Number.POSITIVE_INFINITY;
  const stopAt = Math.min(dropAfter, errorAfter, events.length);

  let pending = '';
  if (turn.eventDelayMs <= 0) {
    pending = stopAt === events.length ? events.join('') : events.slice(0, stopAt).join('');
  } else {
    for (let index = 0; index < stopAt; index += 1) {
      if (index > 0) await sleep(turn.eventDelayMs);
      if (response.destroyed) return;
      response.write(events[index]);
    }
  }
  if (dropAfter < events.length && dropAfter <= errorAfter) {
    cutShort(response, pending);
    return;
  }
  if (midStreamError && errorAfter <= events.length) pending += renderError(midStreamError);
  response.end(pending);
}

/** Sends what was produced so far, then closes the connection without finishing the HTTP response. */
function cutShort(response: ServerResponse, data: string): void {
  if (data.length > 0) response.write(data);
  else response.flushHeaders();
  response.socket?.end();
}
