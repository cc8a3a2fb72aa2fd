import { gatewayError } from '../../../errors.js';
import { keyExpiryRangeMessage, parseKeyExpiry } from '@gw/contracts/management';
import { serviceKeyOnlyFields, type KeyRecord, type keyPatchBody } from '../key.schema.js';
import type { KeyChanges } from '../key.store.js';
import type { z } from 'zod';

/**
 * The store changes a `PATCH /admin/v1/keys/{id}` body asks of this key. Refuses what the key cannot carry: a name or
 * budget on a client key (budgets are enforced on service keys only; POST refuses them too), and any
 * change to a revoked key. The expiry is stored as its UTC instant.
 */
export function keyChangesFor(record: KeyRecord, body: z.infer<typeof keyPatchBody>): KeyChanges {
  if (record.type === 'client') {
    const field = serviceKeyOnlyFields.find((name) => body[name] !== undefined);
    if (field)
      throw gatewayError(
        'invalid_request',
        `body.${field}: only a service key has ${field}; key ${record.id} is a client key`,
      );
  }
  if (record.status === 'revoked')
    throw gatewayError('conflict', `the key ${record.id} is revoked; a revoked key cannot be changed`);
  const { monthlyBudgetUsd, expiresAt, ...rest } = body;
  return {
    ...rest,
    ...(monthlyBudgetUsd === undefined ? {} : { monthlyBudgetUsd }),
    ...(expiresAt === undefined ? {} : { expiresAt: expiresAt === null ? null : expiryInstant(expiresAt) }),
  };
}

function expiryInstant(value: string): Date {
  const instant = parseKeyExpiry(value);
  // The body schema refuses such values already; this keeps a bypass from reaching the store.
  if (!instant) throw gatewayError('invalid_request', `body.expiresAt: ${keyExpiryRangeMessage}`);
  return instant;
}
