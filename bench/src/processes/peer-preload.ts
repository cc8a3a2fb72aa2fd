import net from 'node:net';

// Preloaded (`--import`) into the peer gateway (Portkey), which we run but do not own. Two adjustments, nothing else:

// 1. It listens on every interface when given only a port; the benchmark serves loopback only.
const listen = Reflect.get(net.Server.prototype, 'listen') as unknown as (
  this: net.Server,
  ...args: unknown[]
) => net.Server;
net.Server.prototype.listen = function listenOnLoopback(this: net.Server, ...args: unknown[]) {
  if (typeof args[0] === 'number' && (args[1] === undefined || typeof args[1] === 'function')) {
    if (args[1] === undefined) args[1] = '127.0.0.1';
    else args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
} as typeof net.Server.prototype.listen;

// 2. Its stream path wraps the provider's fetch Response in @hono/node-server's lightweight Response, which keeps
// the fetch response's own (immutable) Headers, then appends x-portkey-* headers to them: every streamed request
// fails with "TypeError: immutable" (1.15.2 with @hono/node-server 1.19, Node 20 and 24). Handing it event
// streams with ordinary mutable headers lets the stream path run; JSON responses are left untouched.
const NativeResponse = globalThis.Response;
const nativeFetch = globalThis.fetch;
globalThis.fetch = async function fetchWithMutableStreamHeaders(...args: Parameters<typeof fetch>): Promise<Response> {
  const response = await nativeFetch(...args);
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  return new NativeResponse(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: new Headers(response.headers),
  });
};
