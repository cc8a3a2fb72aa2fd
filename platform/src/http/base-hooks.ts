import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const traceIdHeader = 'x-gw-trace-id';

// A client may send its own trace id to correlate; accept only a safe, bounded token.
const acceptableTraceId = /^[A-Za-z0-9._:-]{8,128}$/;

const securityHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

const securityHeaderEntries = Object.entries(securityHeaders);

// API responses never need to run scripts; the docs explorer (HTML) sets its own policy.
const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'";

/**
 * Edge hooks every service installs first: a trace id on every response (incoming one reused when well-formed) and
 * security headers, set in `onRequest` so even 404s and early rejections carry them.
 */
export function installBaseHooks(app: FastifyInstance, options: { htmlPrefixes?: readonly string[] } = {}): void {
  const htmlPrefixes = options.htmlPrefixes ?? ['/docs'];
  // Callback style: a synchronous hook needs no promise or microtask on every request.
  app.addHook('onRequest', (request, reply, done) => {
    const incoming = request.headers[traceIdHeader];
    const traceId = typeof incoming === 'string' && acceptableTraceId.test(incoming) ? incoming : randomUUID();
    request.traceId = traceId;
    reply.header(traceIdHeader, traceId);
    for (const [name, value] of securityHeaderEntries) reply.header(name, value);
    if (!htmlPrefixes.some((prefix) => request.url.startsWith(prefix)))
      reply.header('content-security-policy', apiContentSecurityPolicy);
    done();
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    traceId: string;
  }
}
