import type { FastifyRequest } from 'fastify';
import type { Identity } from '../chain/identity/identity.js';

/** The caller the chain's identity stage bound; every connect route runs behind it. */
export function identityOf(request: FastifyRequest): Identity {
  const identity = request.gw.identity;
  if (!identity) throw new Error('identity stage did not run');
  return identity;
}
