import { z } from 'zod';
import { retrieveRequestSchema } from '@gw/contracts';
import { callerMetadataSchema } from '../http/caller-metadata.schema.js';

/**
 * A line bound as sent: the contract rule 5 makes `startLine` and `endLine` "rounded and clamped server-side
 * (never an error)". A number or numeric string is taken (infinities, which JSON's `1e400` parses to, are clamped
 * to the largest safe integer); `null` or anything else is treated as absent.
 */
function lineBoundOf(value: unknown): number | undefined {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (Number.isNaN(number)) return undefined;
  return Math.min(Math.max(number, -Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
}

const lineBound = (description: string) =>
  z
    .unknown()
    .transform(lineBoundOf)
    .optional()
    .describe(
      `${description} A number or numeric string, rounded and clamped to the original, never an error; null or anything else counts as absent.`,
    );

/** `POST /v1/retrieve` as the optimizer accepts it; of the options only `grep` can make it a 400. */
export const retrieveBodySchema = retrieveRequestSchema.extend({
  metadata: callerMetadataSchema
    .pick({ source: true, user: true, team: true, tenant: true })
    .optional()
    .describe(
      'Who asks. `source` marks automated callers (not a regret signal). Naming a caller (`user`, `team` or `tenant`) limits the retrieve to that caller’s handles: a user’s only to the same user in the same tenant, one stashed without a user only to a caller without a user in the same team and tenant; any other handle answers 404 `handle_not_found`, exactly like an unknown one. Naming nobody trusts the bearer.',
    ),
  startLine: lineBound('1-based inclusive first line.'),
  endLine: lineBound('1-based inclusive last line.'),
  grep: z
    .string()
    .optional()
    .describe(
      'Case-insensitive literal (not a regex), whitespace-significant, at most 256 characters counted as code points (an emoji is one); ±3 lines of context; searched within the range. Whitespace-only or longer answers 400.',
    ),
});
