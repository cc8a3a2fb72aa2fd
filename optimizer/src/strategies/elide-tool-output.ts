import { isRecord } from '../format/json-value.js';
import { countTokens } from '../tokens/count-tokens.js';
import { elisionHint, formatCount, plural } from './retrieve-hint.js';
import { isOutline } from './file-outline.js';
import { isSalientLine, isSourceListing } from './salient-lines.js';
import { handlePlaceholder, type DegradableRecipe, type SpanStrategy } from './types.js';

export interface ElideRecipe extends DegradableRecipe {
  readonly r: 1;
  readonly headLines: number;
  readonly tailLines: number;
  /** Error and failure lines from the elided middle kept verbatim, at most this many. */
  readonly maxSalient: number;
  /** Character mode, for outputs made of a few very long lines (minified JSON, base64). */
  readonly headChars: number;
  readonly tailChars: number;
}

const defaults = { headLines: 20, tailLines: 20, maxSalient: 24, headChars: 2_000, tailChars: 2_000 } as const;
/** Outputs below this are worth their tokens: a retrieve round trip costs more than it saves. */
export const elideMinTokens = 1_000;
const minSavedShare = 0.5;

/**
 * Failure lines of the elided middle, capped (first and last halves when there are more), each with the line
 * before it: test runners print the failing test's title just above its `Error:`.
 */
function pickSalient(
  lines: readonly string[],
  from: number,
  to: number,
  limit: number,
): { picked: number[]; total: number } {
  const all: number[] = [];
  for (let index = from; index < to; index += 1) if (isSalientLine(lines[index])) all.push(index);
  const half = Math.floor(limit / 2);
  const chosen = all.length <= limit ? all : [...all.slice(0, half), ...all.slice(all.length - (limit - half))];
  const picked = new Set<number>();
  for (const index of chosen) {
    if (index - 1 >= from) picked.add(index - 1);
    picked.add(index);
  }
  return { picked: [...picked].sort((a, b) => a - b), total: all.length };
}

function elideLines(lines: readonly string[], recipe: ElideRecipe): string | null {
  const { headLines, tailLines } = recipe;
  if (lines.length <= headLines + tailLines + 8) return null;
  const tailStart = lines.length - tailLines;
  const { picked, total } = isSourceListing(lines)
    ? { picked: [], total: 0 }
    : pickSalient(lines, headLines, tailStart, recipe.maxSalient);
  const elided = tailStart - headLines - picked.length;
  const shown = Math.min(total, recipe.maxSalient);
  const kept =
    total === 0
      ? ''
      : `; ${plural(shown, 'error/failure line')} from it kept below${total > shown ? ` (of ${formatCount(total)})` : ''}`;
  const out = [...lines.slice(0, headLines), elisionHint(`${plural(elided, 'line')} elided${kept}`, recipe.handle)];
  let previous = -1;
  for (const index of picked) {
    if (previous !== -1 && index !== previous + 1) out.push('[…]');
    out.push(lines[index]);
    previous = index;
  }
  if (picked.length > 0 && previous !== tailStart - 1) out.push('[…]');
  out.push(...lines.slice(tailStart));
  return out.join('\n');
}

/** Cut near `target`, at a line break when one is close, so a kept edge is not a half line. */
function cutNear(text: string, target: number, forward: boolean): number {
  const slack = Math.floor(target / 4);
  if (forward) {
    const breakAt = text.lastIndexOf('\n', target);
    return breakAt >= target - slack ? breakAt + 1 : target;
  }
  const from = text.length - target;
  const breakAt = text.indexOf('\n', from);
  return breakAt !== -1 && breakAt <= from + slack ? breakAt : from;
}

function elideChars(text: string, recipe: ElideRecipe): string | null {
  if (text.length <= recipe.headChars + recipe.tailChars + 1_000) return null;
  const headEnd = cutNear(text, recipe.headChars, true);
  const tailStart = cutNear(text, recipe.tailChars, false);
  const hidden = text.slice(headEnd, tailStart);
  const lineCount = hidden.split('\n').length;
  const what = `${plural(hidden.length, 'character')} (${plural(lineCount, 'line')}) elided`;
  return `${text.slice(0, headEnd)}\n${elisionHint(what, recipe.handle)}\n${text.slice(tailStart)}`;
}

function elide(text: string, recipe: ElideRecipe): string | null {
  // Choose the mode on a rendering whose hint does not depend on the handle's text: the placeholder used while
  // planning and the real handle used on replay must never tip the choice differently.
  const probe: ElideRecipe = { ...recipe, handle: recipe.handle === null ? null : '' };
  const lines = text.split('\n');
  const probeByLines = elideLines(lines, probe);
  if (probeByLines !== null && probeByLines.length <= text.length * minSavedShare) return elideLines(lines, recipe);
  const probeByChars = elideChars(text, probe);
  return probeByChars !== null && probeByChars.length <= text.length * minSavedShare ? elideChars(text, recipe) : null;
}

/**
 * Long tool outputs in settled history keep their head and tail; the middle is replaced by one line naming
 * `gw_retrieve` and the handle. Error and failure lines from the middle stay verbatim.
 */
export const elideToolOutput: SpanStrategy<ElideRecipe> = {
  kind: 'elide_tool_output',
  degradable: true,
  minChars: elideMinTokens * 2,
  plan(text, context) {
    // An outline is already the map of a file behind a handle; cutting its middle would drop the map.
    if (isOutline(text) || countTokens(text) < elideMinTokens) return null;
    const recipe: ElideRecipe = { r: 1, handle: context.mode === 'handle' ? handlePlaceholder : null, ...defaults };
    const elided = elide(text, recipe);
    return elided === null ? null : { recipe, text: elided };
  },
  render(text, recipe) {
    return elide(text, recipe) ?? text;
  },
  parseRecipe(value) {
    if (!isRecord(value) || value.r !== 1) return null;
    const { handle, headLines, tailLines, maxSalient, headChars, tailChars } = value;
    if (handle !== null && typeof handle !== 'string') return null;
    const counts = [headLines, tailLines, maxSalient, headChars, tailChars];
    if (!counts.every((count) => typeof count === 'number' && Number.isInteger(count) && count >= 0)) return null;
    return {
      r: 1,
      handle,
      headLines: headLines as number,
      tailLines: tailLines as number,
      maxSalient: maxSalient as number,
      headChars: headChars as number,
      tailChars: tailChars as number,
    };
  },
};
