import { sha256Hex } from '@gw/platform';
import type { Identity } from '../../identity/caller.js';

/**
 * A developer seat: one developer of one tenant, whatever machines they enrolled. Addresses compare
 * without case (a key minted for `Ada@example.com` and one for `ada@example.com` are the same seat). A key without a
 * user (a service key) is a seat of its own.
 */
export interface SeatRef {
  /** The key's tenant in fleet mode; '' for deployment-level keys. */
  tenant: string;
  seat: string;
}

export function seatOf(identity: Identity): SeatRef {
  return {
    tenant: identity.key.tenant ?? '',
    seat: identity.user ? identity.user.toLowerCase() : `service:${identity.keyId}`,
  };
}

/** The opaque user hash the device page shows: stable per seat, never the address. */
export function opaqueSeatHash(ref: SeatRef): string {
  return sha256Hex(`gw-seat\u0000${ref.tenant}\u0000${ref.seat}`).slice(0, 16);
}
