import { isRecord } from '../format/json-value.js';
import type { Recipe, SpanStrategy } from './types.js';

export type AnsiStripRecipe = Recipe;

// Terminal escapes are exactly what this strategy matches.
/* eslint-disable no-control-regex */
const oscSequence = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
const csiSequence = /\u001b\[[0-?]*[ -/]*[@-~]/g;
const shortEscape = /\u001b[@-Z\\-_]/g;
const sgrSequence = /\u001b\[[0-9;]*m/g;
/* eslint-enable no-control-regex */

export function stripAnsi(text: string): string {
  return text.replace(oscSequence, '').replace(csiSequence, '').replace(shortEscape, '');
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

/** Lossless: terminal escape sequences (colour, cursor, hyperlinks) removed from tool output. */
export const ansiStrip: SpanStrategy<AnsiStripRecipe> = {
  kind: 'ansi_strip',
  degradable: false,
  minChars: 3,
  plan(text) {
    if (!text.includes('\u001b')) return null;
    const stripped = stripAnsi(text);
    if (stripped === text || hasSemanticColour(text)) return null;
    return { recipe: { r: 1 }, text: stripped };
  },
  render(text) {
    return stripAnsi(text);
  },
  parseRecipe(value) {
    return isRecord(value) && value.r === 1 ? { r: 1 } : null;
  },
};
