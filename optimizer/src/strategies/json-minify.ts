import { isRecord } from '../format/json-value.js';
import { locateJsonDocument } from './json/json-lexer.js';
import { elisionHint, plural } from './retrieve-hint.js';
import { handlePlaceholder, type DegradableRecipe, type SpanStrategy } from './types.js';

export interface JsonMinifyRecipe extends DegradableRecipe {
  readonly r: 1;
}

// Strings are matched first so whitespace inside them is never touched; between tokens only whitespace that
// contains a line break goes. `"key": "value"` keeps its one space: that is the form people (and the model) quote.
const tokenOrLayout = /("(?:[^"\\]|\\.)*")|[ \t]*[\r\n][ \t\r\n]*/g;
const minSavedChars = 400;
const minSavedShare = 0.1;

function compactLayout(json: string): { text: string; lineBreaks: number } {
  let lineBreaks = 0;
  const text = json.replace(tokenOrLayout, (match, quoted: string | undefined) => {
    if (quoted !== undefined) return quoted;
    lineBreaks += 1;
    return '';
  });
  return { text, lineBreaks };
}

export function minifyJsonLayout(text: string, handle: string | null): string | null {
  const document = locateJsonDocument(text);
  if (!document) return null;
  const { root, prefixEnd } = document;
  const compacted = compactLayout(text.slice(root.start, root.end));
  if (compacted.lineBreaks === 0) return null;
  const prefix = text.slice(0, prefixEnd);
  const suffix = text.slice(root.end);
  // In place the values are all still there; only a handle-backed rewrite points at the original layout.
  const hint =
    handle === null
      ? ''
      : `\n${elisionHint(`${plural(compacted.lineBreaks, 'line break')} of JSON layout removed`, handle, 'the original layout')}`;
  return `${prefix}${compacted.text}${hint}${suffix}`;
}

/**
 * JSON tool results lose the line breaks and indentation between tokens, decided at the lexical level. Values,
 * key order and number spellings are untouched. Layout is not content, but a quoted multi-line excerpt of the
 * original no longer matches, so on a retrieve lane the original stays reachable by handle and on lanes without
 * retrieval this runs only where degradable strategies may.
 */
export const jsonMinify: SpanStrategy<JsonMinifyRecipe> = {
  kind: 'json_minify',
  degradable: true,
  minChars: 1_000,
  plan(text, context) {
    const handle = context.mode === 'handle' ? handlePlaceholder : null;
    const minified = minifyJsonLayout(text, handle);
    if (minified === null) return null;
    const saved = text.length - minified.length;
    if (saved < minSavedChars || saved < text.length * minSavedShare) return null;
    return { recipe: { r: 1, handle }, text: minified };
  },
  render(text, recipe) {
    return minifyJsonLayout(text, recipe.handle) ?? text;
  },
  parseRecipe(value) {
    if (!isRecord(value) || value.r !== 1) return null;
    if (value.handle !== null && typeof value.handle !== 'string') return null;
    return { r: 1, handle: value.handle };
  },
};
