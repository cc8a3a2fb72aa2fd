import type { StrategyToggle } from '@gw/contracts';

export interface ToggleScope {
  endpoint: string;
  model?: string | undefined;
  user?: string | undefined;
  team?: string | undefined;
}

const scopeFields = ['endpoint', 'model', 'user', 'team'] as const;

/**
 * Strategy kinds switched off for this request (spec 001 §1.5). For each kind, the matching entry with the most
 * scope fields wins; on a tie the later entry wins, so appending an entry overrides an earlier one.
 */
export function disabledKinds(toggles: readonly StrategyToggle[] | undefined, scope: ToggleScope): Set<string> {
  const winners = new Map<string, { specificity: number; enabled: boolean }>();
  for (const toggle of toggles ?? []) {
    if (!scopeFields.every((field) => toggle[field] === undefined || toggle[field] === scope[field])) continue;
    const specificity = scopeFields.filter((field) => toggle[field] !== undefined).length;
    const current = winners.get(toggle.kind);
    if (!current || specificity >= current.specificity) winners.set(toggle.kind, { specificity, enabled: toggle.enabled });
  }
  return new Set([...winners].filter(([, winner]) => !winner.enabled).map(([kind]) => kind));
}
