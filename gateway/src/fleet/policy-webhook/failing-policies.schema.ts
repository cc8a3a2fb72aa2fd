import { z } from 'zod';

/**
 * The body a Fleet server POSTs for its failing-policies automation: `{timestamp, policy: {id, name, query, …},
 * hosts: [{id, hostname, display_name?, url}]}`. Only what the gateway uses is required; Fleet's other policy fields
 * (query, author, counts) are accepted and ignored. Fleet sends the failing hosts in batches (`host_batch_size`); a
 * batch above `maxFailingHosts` is refused whole, before anything is queued.
 */
export const maxFailingHosts = 1000;

const failingHost = z.looseObject({
  id: z.int().min(0).describe('The host’s id on the Fleet server'),
  hostname: z.string().min(1).max(255),
  display_name: z.string().max(255).optional(),
  url: z.string().max(2048).optional(),
});

export const failingPoliciesPayload = z.looseObject({
  timestamp: z.string().max(64).optional(),
  policy: z.looseObject({ id: z.int().min(0), name: z.string().min(1).max(256) }),
  hosts: z
    .array(failingHost)
    .max(maxFailingHosts, `at most ${maxFailingHosts} hosts per delivery; lower the server's host batch size`),
});
export type FailingPoliciesPayload = z.infer<typeof failingPoliciesPayload>;

/** What the receiver answers: counts only, never a hostname, policy name or check. */
export const webhookCounts = z.object({
  status: z.literal('ok'),
  received: z.int().describe('Failing hosts in the delivery'),
  mapped: z.boolean().describe('Whether the policy maps to a remediation; false: nothing was queued'),
  remediated: z.int().describe('Hosts whose remediation was queued (or was already open)'),
  coolingDown: z.int().describe('Hosts skipped because one of their remediations was queued within the cooldown'),
  unmatched: z.int().describe('Hosts the evidence service does not know by that hostname'),
  refused: z
    .int()
    .describe('Hosts the evidence service would not remediate (customer-managed, check disabled, wrong platform)'),
  failed: z.int().describe('Hosts whose remediation could not be queued right now; retried on the next delivery'),
});
export type WebhookCounts = z.infer<typeof webhookCounts>;
