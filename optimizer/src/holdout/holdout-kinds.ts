/**
 * Strategies that only observe (census, cache lint, the semantic-cache shadow): withholding one changes nothing a
 * control arm could measure, so `holdout.kinds` rejects them.
 */
export const readOnlyKinds: ReadonlySet<string> = new Set([
  'census',
  'cache_lint',
  'semantic_cache_shadow',
  'audited_holdout',
  'guard_suppressed',
]);

/**
 * Why `holdout.kinds` is unacceptable, or null. `knownKinds` are the rewriting strategies the pipeline runs; when
 * given, anything else is refused too, so a typo cannot create a control arm that withholds nothing.
 */
export function holdoutKindsProblem(
  kinds: readonly string[] | undefined,
  knownKinds: readonly string[] | undefined,
): string | null {
  for (const kind of kinds ?? []) {
    if (readOnlyKinds.has(kind)) return `holdout.kinds: ${kind} is read-only and cannot be held out`;
    if (knownKinds && !knownKinds.includes(kind))
      return `holdout.kinds: ${kind} is not a strategy this optimizer runs (${knownKinds.join(', ')})`;
  }
  return null;
}
