import type { AgentHost } from '../agent/agent-host.store.js';
import type { AnsweredPolicy } from '../agent/policy-results.js';
import { packPolicy } from '../catalog/policy-pack.js';
import { scriptOf } from '../catalog/remediation-scripts.js';
import type { OrgCatalog } from '../delivered/org-catalog.js';
import type { OrgStore } from '../orgs/org.store.js';
import type { RemediationStore } from './remediation.store.js';

/** A check that keeps failing after its script ran is retried at most once an hour per host. */
export const autoRemediationCooldownMs = 60 * 60_000;

/**
 * Automatic remediation on built-in agent hosts (trigger `policy`): when a check an administrator set to remediate
 * itself fails, its one script is queued, within the same bounded delivery as any other execution. Off by default.
 */
export class AutoRemediation {
  constructor(
    private readonly orgs: OrgStore,
    private readonly remediations: RemediationStore,
    private readonly catalog: OrgCatalog,
    private readonly cooldownMs = autoRemediationCooldownMs,
  ) {}

  async onResults(host: AgentHost, answered: readonly AnsweredPolicy[]): Promise<number> {
    const failing = answered.filter((result) => result.passing === false);
    if (failing.length === 0) return 0;
    const automated = await this.orgs.autoRemediated(host.orgId);
    // A check a delivered check replaces runs no script meanwhile.
    const { suspended } = await this.catalog.view(host.orgId);
    let queued = 0;
    for (const { policyName } of failing) {
      const policy = automated.has(policyName) && !suspended.has(policyName) ? packPolicy(policyName) : undefined;
      const script = policy && policy.platform === host.platform ? scriptOf(policy) : undefined;
      if (!script) continue;
      if (
        await this.remediations.queueAutomatic(
          { orgId: host.orgId, hostId: host.hostId, policyName, scriptName: script.name },
          this.cooldownMs,
        )
      )
        queued += 1;
    }
    return queued;
  }
}
