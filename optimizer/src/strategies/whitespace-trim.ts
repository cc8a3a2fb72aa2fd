import { isRecord } from '../format/json-value.js';
import { recoverable } from './recoverable.js';
import type { Recipe, SpanStrategy } from './types.js';

export type WhitespaceTrimRecipe = Recipe;

const trailingWhitespace = /[ \t]+(?=\r?\n)|[ \t]+$/g;
const blankRun = /\n(?:[ \t]*\r?\n){3,}/g;
const emptyRun = /\n(?:\r?\n){3,}/g;
const diffHunk = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m;

/**
 * Trailing spaces and tabs go, and runs of more than two blank lines shrink to two. In a unified diff a line's
 * whitespace is the change itself (a context line of an empty source line is a single space), so there only fully
 * empty runs shrink.
 */
export function trimWhitespace(text: string): string {
  if (diffHunk.test(text)) return text.replace(emptyRun, '\n\n\n');
  return text.replace(trailingWhitespace, '').replace(blankRun, '\n\n\n');
}

/**
 * Lossless in meaning: insignificant whitespace at line ends and in long blank runs. Not lossless in bytes (a test
 * runner's `... ` before a line break, a padded table row, curl's `> ` line can be the fact), so it acts only where the
 * original is recoverable (docs/adr/0008).
 */
export const whitespaceTrim: SpanStrategy<WhitespaceTrimRecipe> = {
  kind: 'whitespace_trim',
  degradable: false,
  minChars: 2,
  plan(text, context) {
    if (!recoverable(text, context)) return null;
    const trimmed = trimWhitespace(text);
    return trimmed === text ? null : { recipe: { r: 1 }, text: trimmed };
  },
  render(text) {
    return trimWhitespace(text);
  },
  parseRecipe(value) {
    return isRecord(value) && value.r === 1 ? { r: 1 } : null;
  },
};
