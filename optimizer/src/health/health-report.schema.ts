import { z } from 'zod';
import { healthReportSchema } from '@gw/contracts';
import type { LeaseVerdict } from '../lease/lease-reader.js';

const leaseStateSchema = z
  .enum(['none', 'valid', 'paused', 'suspended', 'expired', 'unverifiable'])
  .describe(
    '`none`: no lease to check (no gateway, or no shared store or deployment id), served; `valid`: served; `paused` and `expired`: 402; `suspended`: 403; `unverifiable`: 402 (a stored lease that does not verify, or a store unreadable since start). Retrieve and record are never refused.',
  ) satisfies z.ZodType<LeaseVerdict['state']>;

/**
 * The optimizer's /health body: the shared report plus the entitlement lease block, added here
 * because the lease is this service's gate; every client of the shared schema ignores it (the report is loose).
 */
export const optimizerHealthReportSchema = healthReportSchema.extend({
  lease: z
    .looseObject({ state: leaseStateSchema })
    .describe('The entitlement lease as last read from the shared store, judged now.'),
});
export type OptimizerHealthReport = z.infer<typeof optimizerHealthReportSchema>;
