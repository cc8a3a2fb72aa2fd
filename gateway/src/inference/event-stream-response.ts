import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Every inference response names the provider it was routed to; `none` when it never got that far (a
 * key failure, a cap, a malformed body). Applied by the inference scope's onSend hook, and by `openEventStream` for
 * the streams that bypass it.
 */
export function ensureProviderHeader(reply: FastifyReply): void {
  if (!reply.hasHeader('x-gw-provider')) reply.header('x-gw-provider', 'none');
}

/**
 * Takes over the response for a body the gateway writes itself as it arrives (a relayed event stream, an opaque
 * download): the relay writes to the socket's response rather than piping a stream through `reply.send`, so the last
 * bytes and the end of the response leave in one write (a pipe ends the response a tick after its last chunk was
 * flushed, one more syscall per stream), with no intermediate stream per request. The headers are the reply's (trace
 * id, request id, provider, set by the chain and the route) plus `headers`; a hijacked reply skips onSend hooks, so
 * what they add is applied here.
 */
export function takeOverResponse(reply: FastifyReply, status: number, headers: Record<string, string>): ServerResponse {
  reply.code(status);
  ensureProviderHeader(reply);
  reply.hijack();
  // The whole head in one `writeHead` rather than a `setHeader` per header: each of those lower-cases and validates
  // its name again and keeps a second map, for about twenty headers on every stream. `headers` names are lower case
  // (undici's and our own) and hold no `set-cookie`, so each replaces the reply's header of the same name, as
  // `reply.headers` would. The head is fixed here: a body whose length is not in `headers` goes out chunked, and
  // nothing may set a header on the response afterwards.
  const head: OutgoingHttpHeaders = {};
  const set = reply.getHeaders();
  for (const name in set) if (set[name] !== undefined) head[name] = set[name];
  for (const name in headers) head[name] = headers[name];
  return reply.raw.writeHead(status, head);
}

const eventStreamHeaders = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/**
 * A relayed event stream's response: 200 with the event-stream headers (no proxy buffering). A caller that holds the
 * whole body passes its `content-length`, so it is framed by its length rather than chunked.
 */
export function openEventStream(reply: FastifyReply, headers: Record<string, string> = {}): ServerResponse {
  return takeOverResponse(reply, 200, { ...eventStreamHeaders, ...headers });
}

/**
 * The access line a hijacked reply does not get from fastify's log controller, at the same levels: a stream that
 * ended short of its end (an upstream error event, a dropped or truncated stream) at error level with its code, a
 * complete one at debug, one the client walked away from at info. Status and timing only, never content.
 */
export function logStreamEnd(reply: FastifyReply, outcome: { completed: boolean; errorCode: string | null }): void {
  const fields = { res: reply, responseTime: reply.elapsedTime, stream: true };
  if (outcome.completed) reply.log.debug(fields, 'request completed');
  else if (outcome.errorCode === 'client_closed')
    reply.log.info({ ...fields, errorCode: outcome.errorCode }, 'request cancelled by the client');
  else reply.log.error({ ...fields, errorCode: outcome.errorCode }, 'request failed');
}
