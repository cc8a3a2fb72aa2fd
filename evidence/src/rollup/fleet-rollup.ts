import { z } from 'zod';
import { packVersion } from '../catalog/policy-pack.js';
import type { HostStore } from '../hosts/host.store.js';

/** A host that stops reporting drops out of compliance scoring after seven days. */
export const staleAfterMs = 7 * 24 * 60 * 60 * 1000;

export const fleetRollupResponse = z
  .object({
    packVersion: z.string(),
    hosts: z.object({
      total: z.number().int(),
      reporting: z.number().int().describe('Reported within seven days; only these are scored'),
      stale: z.number().int(),
    }),
    compliance: z.object({
      compliant: z.number().int().describe('Every enabled policy passes'),
      failing: z.number().int().describe('At least one enabled policy fails'),
      unknown: z.number().int().describe('None fails, at least one is unknown'),
    }),
    failingPolicies: z.record(z.string(), z.number().int()).describe('Per policy: reporting hosts that fail it'),
  })
  .describe('The fleet rollup the gateway receives: counts only, no host, device or user');
export type FleetRollup = z.infer<typeof fleetRollupResponse>;

/** Host and compliance counts and failing-policy counts for one organization (content-free by construction). */
export async function fleetRollup(hosts: HostStore, orgId: string, now: number): Promise<FleetRollup> {
  const since = new Date(now - staleAfterMs);
  const [counts, results] = await Promise.all([hosts.counts(orgId, since), hosts.resultsSince(orgId, since)]);
  const state = new Map<string, 'compliant' | 'failing' | 'unknown'>();
  const failingPolicies: Record<string, number> = {};
  for (const result of results) {
    const current = state.get(result.hostId) ?? 'compliant';
    if (result.passing === false) {
      state.set(result.hostId, 'failing');
      failingPolicies[result.policyName] = (failingPolicies[result.policyName] ?? 0) + 1;
    } else if (result.passing === null && current !== 'failing') state.set(result.hostId, 'unknown');
    else state.set(result.hostId, current);
  }
  const compliance = { compliant: 0, failing: 0, unknown: 0 };
  for (const value of state.values()) compliance[value] += 1;
  // A reporting host with no enabled policy for it has nothing failing or unknown.
  compliance.compliant += counts.reporting - state.size;
  return {
    packVersion,
    hosts: { total: counts.total, reporting: counts.reporting, stale: counts.total - counts.reporting },
    compliance,
    failingPolicies,
  };
}
