import Fastify, { type FastifyInstance } from 'fastify';
import { Pool } from 'undici';

export interface BareProxyOptions {
  /** Origin of the provider, e.g. `http://127.0.0.1:41234`. */
  upstream: string;
  /** The server-held credential sent upstream in place of the client's. */
  apiKey: string;
}

// Connection-level headers belong to each hop, never forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
]);

/**
 * The benchmark's floor: the least a proxy can do. POST /v1/chat/completions goes upstream over a keep-alive pool
 * with the body as received (never parsed) and the server-held key, and the answer streams back as it arrives.
 * No logging, no validation, no accounting. Whatever the gateway costs above this is its overhead.
 */
export async function buildBareProxy(options: BareProxyOptions): Promise<FastifyInstance> {
  const pool = new Pool(options.upstream, { connections: 128, pipelining: 1, keepAliveTimeout: 60_000 });
  const app = Fastify({ logger: false, keepAliveTimeout: 65_000 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addHook('onClose', async () => pool.close());

  app.post('/v1/chat/completions', async (request, reply) => {
    const upstream = await pool.request({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
      body: request.body as Buffer,
    });
    reply.code(upstream.statusCode);
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
    }
    return reply.send(upstream.body);
  });
  return app;
}
