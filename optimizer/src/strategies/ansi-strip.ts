import { isRecord } from '../format/json-value.js';
import { recoverable } from './recoverable.js';
import { handlePlaceholder, type SpanStrategy } from './types.js';

/** `r: 1` every terminal escape removed; `r: 2` only cursor and erase controls, colours kept. */
export interface AnsiStripRecipe {
  readonly r: 1 | 2;
}

// Terminal escapes are exactly what this strategy matches.
/* eslint-disable no-control-regex */
const oscSequence = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
const csiSequence = /\u001b\[[0-?]*[ -/]*[@-~]/g;
const shortEscape = /\u001b[@-Z\\-_]/g;
const sgrSequence = /\u001b\[[0-9;]*m/g;
// Control sequences that move the cursor or erase (every CSI but SGR's `m`): spinner and progress noise, never content.
const cursorControl = /\u001b\[[0-?]*[ -/]*[@-ln-~]/g;
/* eslint-enable no-control-regex */

export function stripAnsi(text: string): string {
  return text.replace(oscSequence, '').replace(csiSequence, '').replace(shortEscape, '');
}

export function stripCursorControls(text: string): string {
  return text.replace(cursorControl, '');
}

/** A line with its variable parts masked, so lines printed by the same statement group together. */
function lineTemplate(visible: string): string {
  return visible
    .replace(/"[^"]*"|'[^']*'/g, '"_"')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Colour carries meaning when lines printed by the same statement differ only in their colour codes: a colour
 * library's test matrix printing `foo` red in one case and plain in another. Then the escapes are the fact and stay
 * (corpus 013 keeps a needle that is exactly such a red `foo`).
 */
export function hasSemanticColour(text: string): boolean {
  const signatures = new Map<string, string>();
  for (const line of text.split('\n')) {
    const coloured = line.includes('\u001b');
    const template = lineTemplate(coloured ? stripAnsi(line) : line);
    if (template === '') continue;
    const signature = coloured ? (line.match(sgrSequence) ?? []).join('') : '';
    const seen = signatures.get(template);
    if (seen === undefined) signatures.set(template, signature);
    else if (seen !== signature) return true;
  }
  return false;
}

/**
 * Lossless in meaning: terminal escapes removed from tool output, only where the original is recoverable
 * (docs/adr/0008): even an erase control can be part of a quoted fact (GNU grep ends every coloured match with
 * `ESC[K`). Colours, hyperlinks and every other escape go only from an output whose original sits behind a retrieval
 * handle and whose colour carries no meaning (a needle can be a coloured word, corpus README); on a lane that trims
 * in place only cursor and erase controls go.
 */
export const ansiStrip: SpanStrategy<AnsiStripRecipe> = {
  kind: 'ansi_strip',
  degradable: false,
  minChars: 3,
  plan(text, context) {
    if (!text.includes('\u001b') || !recoverable(text, context)) return null;
    const recipe: AnsiStripRecipe = text.includes(handlePlaceholder) && !hasSemanticColour(text) ? { r: 1 } : { r: 2 };
    const stripped = ansiStrip.render(text, recipe);
    return stripped === text ? null : { recipe, text: stripped };
  },
  render(text, recipe) {
    return recipe.r === 1 ? stripAnsi(text) : stripCursorControls(text);
  },
  parseRecipe(value) {
    return isRecord(value) && (value.r === 1 || value.r === 2) ? { r: value.r } : null;
  },
};
