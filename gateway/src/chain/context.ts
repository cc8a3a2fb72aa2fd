import type { Identity } from '../identity/caller.js';

/** Typed per-request state of the `/v1/*` chain; stages fill it in order, never ad-hoc keys on the request. */
export interface RequestContext {
  startedAt: number;
  identity: Identity | null;
  /** The metering stage recorded this request's spend row and trace (`metering/metering.stage.ts`): never twice. */
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
