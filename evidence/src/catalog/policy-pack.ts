import { packContent, policyPack, type PackPolicy } from '@gw/contracts';
import { sha256Hex } from '@gw/platform';

export { policyPack, type PackPolicy } from '@gw/contracts';

/** Values the pack's placeholders take (one set per image; organizations differ only in which checks are disabled). */
const templateValues: Readonly<Record<string, string>> = { screen_lock_minutes: '15' };

export function renderQuery(query: string): string {
  return query.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => templateValues[name] ?? placeholder);
}

/**
 * The pack version is a content hash: a mismatch says the gateway and the service disagree, not
 * which one is behind.
 */
export const packVersion = sha256Hex(JSON.stringify(packContent)).slice(0, 16);

const byName = new Map(policyPack.map((policy) => [policy.name, policy]));

export function packPolicy(name: string): PackPolicy | undefined {
  return byName.get(name);
}
