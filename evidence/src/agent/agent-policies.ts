import type { PackPolicy } from '../catalog/policy-pack.js';
import type { OrgCatalog } from '../delivered/org-catalog.js';
import type { OrgStore } from '../orgs/org.store.js';
import type { AgentHost, AgentHostStore } from './agent-host.store.js';

/** How often an agent host answers the policy checks again when nothing asked sooner (a remediation does). */
export const policyCheckIntervalMs = 60 * 60_000;

/** Which checks an agent host runs, and when: the organization's enabled checks (delivered ones included) for the host's platform. */
export class AgentPolicies {
  constructor(
    private readonly orgs: OrgStore,
    private readonly hosts: AgentHostStore,
    private readonly catalog: OrgCatalog,
    private readonly intervalMs = policyCheckIntervalMs,
  ) {}

  async applicable(host: AgentHost): Promise<PackPolicy[]> {
    const [disabled, { checks }] = await Promise.all([
      this.orgs.disabledPolicies(host.orgId),
      this.catalog.view(host.orgId),
    ]);
    return checks.filter((policy) => policy.platform === host.platform && !disabled.has(policy.name));
  }

  due(host: AgentHost): Promise<boolean> {
    return this.hosts.policiesDue(host.hostId, this.intervalMs);
  }
}
