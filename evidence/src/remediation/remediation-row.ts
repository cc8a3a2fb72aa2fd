import { isoTimestamp } from '@gw/platform';
import { z } from 'zod';

export const remediationTriggers = ['admin', 'policy'] as const;
export type RemediationTrigger = (typeof remediationTriggers)[number];

export const remediationStatuses = [
  'pending',
  'delivered',
  'ran',
  'error',
  'timed_out',
  'exhausted',
  'expired',
  'cancelled',
] as const;
export type RemediationStatus = (typeof remediationStatuses)[number];

/** One remediation audit entry: what ran where, why, and how it ended; never its output. */
export const remediation = z.object({
  executionId: z.string(),
  sequence: z.number().int(),
  hostId: z.string(),
  policyName: z.string(),
  scriptName: z.string(),
  trigger: z
    .enum(remediationTriggers)
    .describe(
      'Who queued it: `admin` (an administrator through the admin plane) or `policy` (a failing result of a check set to remediate itself)',
    ),
  status: z
    .enum(remediationStatuses)
    .describe(
      '`pending` queued; `delivered` an agent holds it under a lease; `ran` exit 0; `error` non-zero exit; `timed_out` killed at its deadline; `exhausted` three leases ran out with no result; `expired` 24 hours passed first; `cancelled` its check was disabled before it ran',
    ),
  exitCode: z.number().int().nullable(),
  attempts: z.number().int(),
  leaseExpiresAt: z.string().nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  outputRetained: z.boolean().describe('Whether encrypted output is held (retention on, within 30 days)'),
});
export type Remediation = z.infer<typeof remediation>;

export interface RemediationRow {
  execution_id: string;
  sequence: string | number;
  host_id: string;
  policy_name: string;
  script_name: string;
  trigger: RemediationTrigger;
  status: RemediationStatus;
  exit_code: number | null;
  attempts: number;
  lease_expires_at: Date | string | null;
  expires_at: Date | string;
  created_at: Date | string;
  completed_at: Date | string | null;
  output_held: boolean;
  output_expires_at: Date | string | null;
}

export const remediationColumns =
  'execution_id, sequence, host_id, policy_name, script_name, trigger, status, exit_code, attempts, lease_expires_at, expires_at, created_at, completed_at, (output_sealed IS NOT NULL) AS output_held, output_expires_at';

const iso = (value: Date | string) => isoTimestamp(value);

export function rowToRemediation(row: RemediationRow, now: number): Remediation {
  return {
    executionId: row.execution_id,
    sequence: Number(row.sequence),
    hostId: row.host_id,
    policyName: row.policy_name,
    scriptName: row.script_name,
    trigger: row.trigger,
    status: row.status,
    exitCode: row.exit_code,
    attempts: row.attempts,
    // A lease that ran out is no lease: show it as none rather than a time in the past.
    leaseExpiresAt:
      row.lease_expires_at !== null && new Date(row.lease_expires_at).getTime() > now
        ? iso(row.lease_expires_at)
        : null,
    expiresAt: iso(row.expires_at),
    createdAt: iso(row.created_at),
    completedAt: row.completed_at === null ? null : iso(row.completed_at),
    outputRetained:
      row.output_held && row.output_expires_at !== null && new Date(row.output_expires_at).getTime() > now,
  };
}
