import { sha256Hex, type Clock, type Db } from '@gw/platform';
import type { SeatRef } from './seat.js';

/**
 * Machine-to-seat joins the connect CLI reports with a device certificate (`POST /connect/machine`). The machine UUID
 * and the certificate are kept only as SHA-256 hashes: the store can tell a machine again, never name it.
 */
export class DeviceMachineStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Record (or refresh) the join; the certificate hash is the latest the machine proved with. */
  async record(ref: SeatRef, machineUuid: string, certificateSha256: string, keyId: string): Promise<void> {
    const now = new Date(this.clock.now());
    await this.db.query(
      `INSERT INTO gw_device_machines (tenant, seat, machine_sha256, certificate_sha256, key_id, first_seen_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (tenant, seat, machine_sha256) DO UPDATE SET certificate_sha256 = EXCLUDED.certificate_sha256, key_id = EXCLUDED.key_id, last_seen_at = EXCLUDED.last_seen_at`,
      // The UUID is lowercased first: the same machine reported in either case is one machine.
      [ref.tenant, ref.seat, sha256Hex(machineUuid.toLowerCase()), certificateSha256, keyId, now],
    );
  }
}
