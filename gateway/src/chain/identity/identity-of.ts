import type { FastifyRequest } from 'fastify';
import type { Identity } from '../../identity/caller.js';

/** The caller the identity stage bound, for routes registered behind it (inference, `/v1/me`, `/connect`, `/mcp`). */
export function identityOf(request: FastifyRequest): Identity {
  const identity = request.gw.identity;
  if (!identity) throw new Error('identity stage did not run');
  return identity;
}
