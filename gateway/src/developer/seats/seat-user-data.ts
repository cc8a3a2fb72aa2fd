import type { UserDataSource } from '../../identity/users/user-data.js';

/**
 * A developer's seats for GDPR export and erase: doctor reports, offboarding, directives,
 * hook-trim savings, reported machines (hashes) and device tokens (export says only whether one is live, never its hash). Erase removes them all, in every tenant.
 */
export const seatUserDataSource: UserDataSource = {
  name: 'seats',
  async export(db, user) {
    const seats = await db.query(
      `SELECT tenant, seat, checks, client_version, reported_at, offboarded_at, created_at,
              EXISTS (SELECT 1 FROM gw_device_tokens t WHERE t.tenant = s.tenant AND t.seat = s.seat) AS device_token_registered
         FROM gw_seats s WHERE seat = lower($1) ORDER BY tenant`,
      [user],
    );
    const directives = await db.query(
      'SELECT id, tenant, kind, tool, status, result, deliveries, created_by, created_at, delivered_at, closed_at FROM gw_seat_directives WHERE seat = lower($1) ORDER BY created_at',
      [user],
    );
    const hookSavings = await db.query(
      'SELECT tenant, day, tokens_saved, savings_micros, events FROM gw_hook_savings WHERE seat = lower($1) ORDER BY tenant, day',
      [user],
    );
    // Reported machines are hashes already: the export can name no machine, only tell the developer how many and when.
    const machines = await db.query(
      'SELECT tenant, machine_sha256, first_seen_at, last_seen_at FROM gw_device_machines WHERE seat = lower($1) ORDER BY tenant, first_seen_at',
      [user],
    );
    return { seats: seats.rows, directives: directives.rows, hookSavings: hookSavings.rows, machines: machines.rows };
  },
  async erase(db, user) {
    let touched = 0;
    for (const table of ['gw_seats', 'gw_device_tokens', 'gw_seat_directives', 'gw_hook_savings', 'gw_device_machines'])
      touched += (await db.query(`DELETE FROM ${table} WHERE seat = lower($1)`, [user])).rowCount;
    return touched;
  },
};
