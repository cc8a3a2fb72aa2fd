import { z } from 'zod';

/** At most 64 KiB of body, 1 to 128 unique results. */
export const reportLimits = { maxBodyBytes: 64 * 1024, maxResults: 128 } as const;

/**
 * The evidence report: a device and its current snapshot of pass/fail results, nothing else. The objects are strict,
 * so inventory, configuration or command output in any field is refused rather than silently stored.
 */
export const evidenceReportBody = z.strictObject({
  device: z.strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,128}$/, '1 to 128 characters from letters, digits, _ . : -')
      .describe('Stable device identifier; stored only as a source-qualified sha256'),
    hostname: z.string().min(1).max(64).optional(),
    platform: z.enum(['darwin', 'linux', 'windows', 'unknown']).optional(),
  }),
  results: z
    .array(
      z.strictObject({
        policyName: z.string().min(1).max(128).describe('Exact name from the catalog'),
        response: z.enum(['pass', 'fail', 'unknown']),
      }),
    )
    .min(1)
    .max(reportLimits.maxResults)
    .describe('The device’s current snapshot; enabled policies left out become unknown'),
});
export type EvidenceReport = z.infer<typeof evidenceReportBody>;

export const reportAcceptedResponse = z.object({
  accepted: z.number().int().describe('Results accepted'),
  source: z.string().describe('The evidence source of the connector that reported'),
  receivedAt: z.string(),
});

export const catalogResponse = z.object({
  packVersion: z.string().describe('Content hash of the policy pack'),
  policies: z.array(
    z.object({
      name: z.string(),
      platform: z.enum(['darwin', 'linux', 'windows']),
      critical: z.boolean(),
      description: z.string(),
      resolution: z.string(),
      query: z.string().describe('The check as an osquery SQL query'),
    }),
  ),
});
