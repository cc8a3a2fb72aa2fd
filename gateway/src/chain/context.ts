import type { Identity } from '../identity/caller.js';

/** Typed per-request state of the `/v1/*` chain; stages fill it in order, never ad-hoc keys on the request. */
export interface RequestContext {
  startedAt: number;
  identity: Identity | null;
  /** A spend row was recorded for this request (`recordSpend`); the error handler records one for those that ended before. */
  metered: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    gw: RequestContext;
  }
  interface FastifyContextConfig {
    /** A `/v1/*` route that calls no provider and records no spend row (`count_tokens`, `models`, `me`). */
    unmetered?: boolean;
    /** A route that redeems enrollment tokens (`POST /connect/verify`): the identity stage lets an `aen_` bearer through unresolved. */
    acceptsEnrollmentToken?: boolean;
  }
}
