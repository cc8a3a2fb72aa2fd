import { isDeepStrictEqual } from 'node:util';

/**
 * The contract every translator (and usage extractor) keeps, checked the same way for all of them
 * (hono-style shared conformance suite): CONVENTIONS rule 6. A new translator adds a subject to
 * translator.conformance.test.ts; nothing here knows any wire format.
 *
 * - input not mutated: run on a deep-frozen input (a write throws in strict mode) and compare with a copy;
 *   retries and fallbacks hand the same body to the next target.
 * - deterministic: two runs on equal inputs serialise identically (ids and clocks are injected).
 * - unknown extra fields tolerated: an unknown field on every object of the input does not make it fail,
 *   and one at the top level does not change the output (providers add fields all the time).
 */
export interface ConformanceSubject {
  readonly name: string;
  /** Inputs the translator accepts (wire bodies, or for streams the list of upstream events). */
  readonly samples: readonly unknown[];
  translate(input: unknown): unknown;
}

export const unknownFieldName = 'x_gw_conformance_unknown';
const unknownFieldValue = { nested: [1, 'two', { three: null }] };

/** Every violation as a sentence naming the subject and sample; empty when the subject conforms. */
export function checkTranslatorConformance(subject: ConformanceSubject): string[] {
  const violations: string[] = [];
  subject.samples.forEach((sample, index) => {
    const label = `${subject.name} sample ${index}`;
    const baseline = attempt(() => subject.translate(structuredClone(sample)));
    if (!baseline.ok) {
      violations.push(`${label}: fails on its own sample: ${baseline.error}`);
      return;
    }
    const pristine = structuredClone(sample);
    const frozen = deepFreeze(structuredClone(sample));
    const onFrozen = attempt(() => subject.translate(frozen));
    if (!onFrozen.ok) violations.push(`${label}: writes to its input (${onFrozen.error})`);
    else if (!isDeepStrictEqual(frozen, pristine)) violations.push(`${label}: changed its input`);
    const again = attempt(() => subject.translate(structuredClone(sample)));
    if (!again.ok || JSON.stringify(again.value) !== JSON.stringify(baseline.value))
      violations.push(`${label}: output is not deterministic`);
    const topLevel = attempt(() => subject.translate(withUnknownField(structuredClone(sample), false)));
    if (!topLevel.ok) violations.push(`${label}: fails on an unknown top-level field (${topLevel.error})`);
    else if (JSON.stringify(topLevel.value) !== JSON.stringify(baseline.value))
      violations.push(`${label}: an unknown top-level field changed the output`);
    const everywhere = attempt(() => subject.translate(withUnknownField(structuredClone(sample), true)));
    if (!everywhere.ok) violations.push(`${label}: fails on unknown fields in nested objects (${everywhere.error})`);
  });
  return violations;
}

type Attempt = { ok: true; value: unknown } | { ok: false; error: string };

function attempt(run: () => unknown): Attempt {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Adds the unknown field to the top-level object(s) — each event of a stream — or to every object. */
function withUnknownField(value: unknown, everywhere: boolean, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((item) => withUnknownField(item, everywhere, depth === 0 ? 0 : depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (!everywhere) return depth === 0 ? { ...record, [unknownFieldName]: unknownFieldValue } : record;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(record)) copy[key] = withUnknownField(child, true, depth + 1);
  return { ...copy, [unknownFieldName]: unknownFieldValue };
}
