import { z } from 'zod';
import { recordRequestSchema } from '@gw/contracts';
import { maxEpochMs, parseInstant } from '@gw/platform';
import { storableText } from '../http/storable-text.js';

/** Largest value of a Postgres `integer` column (the trace and spend tables' counts, status and latency). */
export const int32Max = 2_147_483_647;

const shape = recordRequestSchema.shape;
const count = z.number().int().min(0).max(int32Max);
const text = storableText();

/** Epoch milliseconds from 1970 to the end of year 9999, given as a number, a string of digits or RFC 3339. */
function epochOf(value: number | string): number | null {
  const epoch = typeof value === 'number' ? value : /^\d{1,16}$/.test(value) ? Number(value) : parseInstant(value);
  return epoch !== null && epoch >= 0 && epoch <= maxEpochMs ? epoch : null;
}

const timestamp = z
  .union([z.number(), z.string()])
  .transform((value, context) => {
    const epoch = epochOf(value);
    if (epoch !== null) return epoch;
    context.addIssue({
      code: 'custom',
      message: 'must be epoch milliseconds or an RFC 3339 date-time or date, between 1970 and 9999',
    });
    return z.NEVER;
  })
  .optional()
  .describe(
    'Epoch milliseconds (number or digits) or RFC 3339 (`2026-01-15T11:59:00Z`, a numeric offset, or a date alone); 1970 to 9999; default now.',
  );

/**
 * `POST /v1/record` as the optimizer accepts it: the protocol's body with every value bounded by the column it is
 * written to (`optimizer_traces`, and `gw_spend` when spend is appended) and every stored string storable, so a
 * value the store would refuse is a 400 naming the field instead of a 500. `ts` comes out as epoch milliseconds.
 */
export const recordBodySchema = recordRequestSchema.extend({
  id: storableText(shape.id),
  ts: timestamp,
  endpoint: text.optional(),
  method: text.optional(),
  status: z.number().int().min(0).max(999).optional().describe('HTTP status of the call; 0 when there was none.'),
  model: text.optional(),
  provider: text.optional(),
  promptTokens: count.optional(),
  completionTokens: count.optional(),
  totalTokens: count.optional(),
  durationMs: z.number().min(0).max(int32Max).optional(),
  attribution: z.object({ user: text.optional(), team: text.optional(), sessionId: text.optional() }).optional(),
  decisions: z
    .array(z.looseObject({ kind: text, estimatedTokensSaved: z.number().min(-int32Max).max(int32Max).optional() }))
    .optional(),
});
export type RecordBody = z.output<typeof recordBodySchema>;
