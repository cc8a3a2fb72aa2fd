import type { FleetRollup } from '@gw/contracts';
import type { EndpointDeps } from '../fleet/endpoint-deps.js';
import { fetchFleetRollup } from '../fleet/fleet-rollup.js';

interface EvidenceRollup {
  packVersion?: unknown;
  hosts?: { total?: unknown };
  compliance?: { compliant?: unknown };
  failingPolicies?: unknown;
}

const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);

/**
 * What the metering lane forwards about endpoints: reachability, host and compliance counts, the
 * number of failing policies and the pack version of the deployment's organization. Counts only; an unreachable
 * service is reported as such, never as an error of the report.
 */
export function fleetRollupSource(endpoint: EndpointDeps | null): () => Promise<FleetRollup | null> {
  return async () => {
    if (!endpoint) return null;
    const rollup = (await fetchFleetRollup(endpoint, null)) as EvidenceRollup | null;
    if (!rollup) return { reachable: false, hosts: 0, compliantHosts: 0, failingPolicies: 0, policyPackVersion: null };
    const failing =
      typeof rollup.failingPolicies === 'object' && rollup.failingPolicies !== null
        ? Object.values(rollup.failingPolicies).filter((hosts) => count(hosts) > 0).length
        : 0;
    return {
      reachable: true,
      hosts: count(rollup.hosts?.total),
      compliantHosts: count(rollup.compliance?.compliant),
      failingPolicies: failing,
      policyPackVersion: typeof rollup.packVersion === 'string' ? rollup.packVersion.slice(0, 128) : null,
    };
  };
}
