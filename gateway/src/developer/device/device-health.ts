import { z } from 'zod';
import { checkStatus } from '../seats/seat-health.schema.js';
import type { SeatRecord } from '../seats/seat.store.js';
import { opaqueSeatHash, type SeatRef } from '../seats/seat.js';

export const deviceHealthResponse = z
  .object({
    user: z.string().describe('Opaque hash of the seat: stable, never the address'),
    checks: z.array(z.object({ name: z.string(), status: checkStatus })).describe('The last doctor report, by check'),
    score: z
      .number()
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe(
        'Compliance score: the share of decided checks (skip not counted) that pass; null with no decided check',
      ),
    clientVersion: z.string().nullable(),
    reportedAt: z.string().nullable().describe('When the last report arrived; null when the seat never reported'),
    offboarded: z.boolean(),
  })
  .describe('The seat’s health rollup');
export type DeviceHealth = z.infer<typeof deviceHealthResponse>;

export function deviceHealthOf(ref: SeatRef, seat: SeatRecord | null): DeviceHealth {
  return {
    user: opaqueSeatHash(ref),
    checks: seat?.checks ?? [],
    score: seat?.score ?? null,
    clientVersion: seat?.clientVersion ?? null,
    reportedAt: seat?.reportedAt ?? null,
    offboarded: seat?.offboarded ?? false,
  };
}
