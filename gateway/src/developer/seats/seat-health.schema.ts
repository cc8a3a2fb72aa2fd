import { z } from 'zod';

/** Doctor check results the connect CLI reports: names and statuses only. */
export const checkStatus = z.enum(['pass', 'warn', 'fail', 'skip']);
export type CheckStatus = z.infer<typeof checkStatus>;

export const maxChecks = 64;

export const seatCheck = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/)
    .describe('Check id, e.g. `gateway.reachable`, `mcp.registered`'),
  status: checkStatus,
});
export type SeatCheck = z.infer<typeof seatCheck>;

/**
 * Accepted leniently (the route is best-effort and always 200): unknown fields, a check's `detail` and anything that
 * could carry machine output are dropped unread, so no path, command output or secret is ever stored.
 */
export const connectHealthBody = z
  .object({
    clientVersion: z.string().trim().min(1).max(64).optional().describe('The connect CLI version'),
    checks: z
      .array(z.looseObject({ name: seatCheck.shape.name, status: checkStatus }))
      .max(maxChecks)
      .describe('Doctor checks; at most 64, by name'),
  })
  .describe('Doctor-check results; only each check’s name and status are kept');

export const connectHealthResponse = z.object({
  status: z.literal('ok'),
  recorded: z
    .boolean()
    .describe('False when the body was not a doctor report or the store could not take it; the call still succeeds'),
});

/**
 * The compliance score of a report: the share of decided checks that pass, 0–100 (`warn` counts as not passing, `skip`
 * is not counted); null with nothing decided.
 */
export function complianceScore(checks: readonly SeatCheck[]): number | null {
  const decided = checks.filter((check) => check.status !== 'skip');
  if (decided.length === 0) return null;
  return Math.round((100 * decided.filter((check) => check.status === 'pass').length) / decided.length);
}
