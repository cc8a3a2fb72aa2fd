import { remediationScripts, type PackPolicy, type RemediationScript } from '@gw/contracts';

export { remediationScripts, type RemediationScript } from '@gw/contracts';

const byName = new Map(remediationScripts.map((script) => [script.name, script]));

/** The script a check dispatches, when it has one; a name missing from the catalog is a pack bug, caught by a test. */
export function scriptOf(policy: PackPolicy): RemediationScript | undefined {
  return policy.script === undefined ? undefined : byName.get(policy.script);
}

export function scriptNamed(name: string): RemediationScript | undefined {
  return byName.get(name);
}
