import type { Identity } from './identity/identity.js';

/** Typed per-request state of the `/v1/*` chain; stages fill it in order, never ad-hoc keys on the request. */
export interface RequestContext {
  startedAt: number;
  identity: Identity | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    gw: RequestContext;
  }
}
