import type { StrategyToggle } from '@gw/contracts';
import type { StrategyKind } from '../strategies/types.js';

export interface ToggleScope {
  readonly endpoint: string;
  readonly model: string | undefined;
  readonly user: string | undefined;
  readonly team: string | undefined;
}

function matches(toggle: StrategyToggle, kind: StrategyKind, scope: ToggleScope): boolean {
  if (toggle.kind !== kind && toggle.kind !== '*') return false;
  if (toggle.endpoint !== undefined && toggle.endpoint !== scope.endpoint) return false;
  if (toggle.model !== undefined && toggle.model !== scope.model) return false;
  if (toggle.user !== undefined && toggle.user !== scope.user) return false;
  return toggle.team === undefined || toggle.team === scope.team;
}

function specificity(toggle: StrategyToggle): number {
  const scoped = [toggle.endpoint, toggle.model, toggle.user, toggle.team].filter(
    (field) => field !== undefined,
  ).length;
  // An entry naming the kind beats a `*` entry of the same scope.
  return scoped * 2 + (toggle.kind === '*' ? 0 : 1);
}

/**
 * Runtime kill switch: among entries matching the kind and the request's endpoint, model, user and
 * team, the most specific decides, the later one on a tie. No matching entry leaves the strategy on.
 */
export function isKindEnabled(
  toggles: readonly StrategyToggle[] | undefined,
  kind: StrategyKind,
  scope: ToggleScope,
): boolean {
  let winner: StrategyToggle | undefined;
  for (const toggle of toggles ?? []) {
    if (!matches(toggle, kind, scope)) continue;
    if (!winner || specificity(toggle) >= specificity(winner)) winner = toggle;
  }
  return winner?.enabled ?? true;
}
