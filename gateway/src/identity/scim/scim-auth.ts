import type { FastifyRequest } from 'fastify';
import { sha256Hex, timingSafeEqualString, type Queryable } from '@gw/platform';
import { ScimError } from './protocol/scim-error.js';
import { readScimSettings } from './scim-settings.store.js';

const bearer = /^Bearer\s+(\S+)\s*$/i;

/**
 * The SCIM bearer (spec 000 §5): compared by SHA-256 hash, the only form stored, in constant time. The settings row
 * is read on every request so a rotated bearer is refused at once on every replica. A store that cannot answer
 * fails closed.
 */
export async function authenticateScim(db: Queryable, request: FastifyRequest): Promise<void> {
  const presented = bearer.exec(request.headers.authorization ?? '')?.[1];
  if (!presented) throw new ScimError(401, 'Send the SCIM bearer as Authorization: Bearer <token>.');
  let expected: string | null;
  try {
    expected = (await readScimSettings(db)).bearerHash;
  } catch {
    throw new ScimError(503, 'The SCIM store is unavailable; retry shortly.');
  }
  if (expected === null) throw new ScimError(401, 'SCIM provisioning is not configured on this gateway: set a bearer in the SCIM settings first.');
  if (!timingSafeEqualString(sha256Hex(presented), expected)) throw new ScimError(401, 'The SCIM bearer is not valid.');
}
