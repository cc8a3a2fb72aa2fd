import type { StrategyToggle } from '@gw/contracts';

export interface ToggleScope {
  endpoint: string;
  model?: string | undefined;
  user?: string | undefined;
  team?: string | undefined;
}

const scopeFields = ['endpoint', 'model', 'user', 'team'] as const;

/**
 * Strategy kinds switched off for this request. For each kind, the matching entry with the most
 * scope fields wins; on a tie the later entry wins, so appending an entry overrides an earlier one.
 */
export function disabledKinds(toggles: readonly StrategyToggle[] | undefined, scope: ToggleScope): Set<string> {
  const winners = new Map<string, { specificity: number; enabled: boolean }>();
  for (const toggle of toggles ?? []) {
    if (!scopeFields.every((field) => toggle[field] === undefined || toggle[field] === scope[field])) continue;
    const specificity = scopeFields.filter((field) => toggle[field] !== undefined).length;
    const current = winners.get(toggle.kind);
    if (!current || specificity >= current.specificity)
      winners.set(toggle.kind, { specificity, enabled: toggle.enabled });
  }
  return new Set([...winners].filter(([, winner]) => !winner.enabled).map(([kind]) => kind));
}

/** The attribution a call's kill switches are scoped by. */
export interface CallScope {
  endpoint: string;
  model: string | undefined;
  metadata: { user?: string | undefined; team?: string | undefined } | undefined;
}

/**
 * Kinds off for one call, on either hook: the kill switches matching its scope, plus the single kind a per-strategy
 * holdout row withholds.
 */
export function kindsOffFor(
  toggles: readonly StrategyToggle[] | undefined,
  call: CallScope,
  withheldKind: string | undefined,
): Set<string> {
  const off = disabledKinds(toggles, {
    endpoint: call.endpoint,
    model: call.model,
    user: call.metadata?.user,
    team: call.metadata?.team,
  });
  if (withheldKind) off.add(withheldKind);
  return off;
}
