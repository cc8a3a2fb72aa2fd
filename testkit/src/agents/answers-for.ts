import type { QueryAnswer, QueryResolver } from './distributed-queries.js';

/** `true` the policy passes (one row), `false` it fails (no rows), `{error}` the query fails to run (unknown). */
export type PolicyAnswer = boolean | { error: string };

/**
 * A resolver from policy SQL to pass or fail, keyed by the exact SQL or a fragment of it (`'FROM alf'`): the longest key
 * found in the query, case-insensitively, decides (so exact SQL beats any fragment of it). A query no key matches gets
 * `otherwise` (default: no rows, i.e. fail).
 */
export function answersFor(
  answers: Readonly<Record<string, PolicyAnswer>>,
  otherwise: QueryAnswer = [],
): QueryResolver {
  const keys = Object.entries(answers)
    .map(([key, answer]) => ({ fragment: key.toLowerCase(), answer }))
    .sort((left, right) => right.fragment.length - left.fragment.length);
  return (sql) => {
    const lowered = sql.toLowerCase();
    const match = keys.find((key) => lowered.includes(key.fragment));
    return match === undefined ? otherwise : answerOf(match.answer);
  };
}

function answerOf(answer: PolicyAnswer): QueryAnswer {
  if (typeof answer === 'boolean') return answer ? [{ '1': '1' }] : [];
  return { error: answer.error };
}
