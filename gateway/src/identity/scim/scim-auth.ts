import type { FastifyRequest } from 'fastify';
import { sha256Hex, timingSafeEqualString, type Queryable } from '@gw/platform';
import {
  looksLikeProvisioningToken,
  refusalMessage,
  type ProvisioningTokenStore,
} from '../provisioning/provisioning-token.store.js';
import { ScimError } from './protocol/scim-error.js';
import { readScimSettings } from './scim-settings.store.js';

const bearer = /^Bearer\s+(\S+)\s*$/i;
const unavailable = () => new ScimError(503, 'The SCIM store is unavailable; retry shortly.');

/**
 * A `prv_` provisioning token with the `scim` scope stands in for the configured bearer, so an identity provider's
 * client can be rotated with an overlap window (src/identity/provisioning/README.md).
 */
async function authenticateProvisioningToken(tokens: ProvisioningTokenStore, presented: string): Promise<void> {
  let match;
  try {
    match = await tokens.match(presented);
  } catch {
    throw unavailable();
  }
  if (match.outcome !== 'accepted') throw new ScimError(401, refusalMessage(match));
  if (!match.record.scopes.includes('scim'))
    throw new ScimError(403, `The provisioning token ${match.record.id} does not carry the scim scope.`);
}

/**
 * The SCIM bearer: compared by SHA-256 hash, the only form stored, in constant time. The settings row
 * is read on every request so a rotated bearer is refused at once on every replica. A store that cannot answer
 * fails closed.
 */
export async function authenticateScim(
  db: Queryable,
  request: FastifyRequest,
  tokens?: ProvisioningTokenStore,
): Promise<void> {
  const presented = bearer.exec(request.headers.authorization ?? '')?.[1];
  if (!presented) throw new ScimError(401, 'Send the SCIM bearer as Authorization: Bearer <token>.');
  if (tokens && looksLikeProvisioningToken(presented)) return authenticateProvisioningToken(tokens, presented);
  let expected: string | null;
  try {
    expected = (await readScimSettings(db)).bearerHash;
  } catch {
    throw unavailable();
  }
  if (expected === null)
    throw new ScimError(
      401,
      'SCIM provisioning is not configured on this gateway: set a bearer in the SCIM settings first.',
    );
  if (!timingSafeEqualString(sha256Hex(presented), expected)) throw new ScimError(401, 'The SCIM bearer is not valid.');
}
