import { isRecord } from '../format/json-value.js';
import { countLines } from '../stash/lines.js';
import { locateJsonDocument } from './json/json-lexer.js';
import { isStackFrame, lineTemplate } from './line-templates.js';
import { elisionHint, formatCount, plural } from './retrieve-hint.js';
import { isSalientLine, isSourceListing } from './salient-lines.js';
import { handlePlaceholder, type DegradableRecipe, type SpanStrategy } from './types.js';

export interface LogFoldRecipe extends DegradableRecipe {
  readonly r: 1;
  /** Longest repeating block (in lines) that folds as a unit. */
  readonly maxPeriod: number;
  /** A run folds when its block repeats at least this many times. */
  readonly minRepeats: number;
  /** Stack frames kept at the top of a trace. */
  readonly keepFrames: number;
  /** A block of at least this many lines shaped like an earlier block becomes a reference to it. */
  readonly minBlock: number;
}

const defaults = { maxPeriod: 10, minRepeats: 3, keepFrames: 3, minBlock: 4 } as const;
const minLines = 30;
const minFoldedShare = 0.3;
const readTools = /^(?:read_file|read|cat|view|open_file|str_replace_based_edit_tool)$/i;

interface LineInfo {
  /** Interned template; 0 for a line that never folds (a failure line, or one with no constant word). */
  readonly id: number;
  readonly frame: boolean;
}

/** A template with no word left (a bare path, a number) says nothing shared: such lines are the content itself. */
const constantWord = /[A-Za-z]{2,}/;
const frameTemplate = '\u0001frame';

function describeLines(lines: readonly string[]): LineInfo[] {
  const ids = new Map<string, number>();
  return lines.map((line) => {
    // Error and failure lines are never folded, so they need no template.
    if (isSalientLine(line)) return { id: 0, frame: false };
    const frame = isStackFrame(line);
    const template = frame ? frameTemplate : lineTemplate(line);
    if (!frame && !constantWord.test(template)) return { id: 0, frame };
    let id = ids.get(template);
    if (id === undefined) {
      id = ids.size + 1;
      ids.set(template, id);
    }
    return { id, frame };
  });
}

function blockRepeats(info: readonly LineInfo[], start: number, period: number): number {
  for (let offset = 0; offset < period; offset += 1) if ((info[start + offset]?.id ?? 0) === 0) return 0;
  let repeats = 1;
  for (;;) {
    const next = start + repeats * period;
    for (let offset = 0; offset < period; offset += 1) {
      const id = info[next + offset]?.id ?? 0;
      if (id === 0 || id !== info[start + offset]?.id) return repeats;
    }
    repeats += 1;
  }
}

interface Fold {
  readonly start: number;
  /** Lines kept verbatim before the marker and after it. */
  readonly keepHead: number;
  readonly keepTail: number;
  readonly length: number;
  readonly frames: boolean;
}

function findFold(info: readonly LineInfo[], start: number, recipe: LogFoldRecipe): Fold | null {
  const first = info[start];
  if (first.frame && first.id !== 0) {
    const run = blockRepeats(info, start, 1);
    const keepTail = 1;
    if (run >= recipe.keepFrames + keepTail + 3)
      return { start, keepHead: recipe.keepFrames, keepTail, length: run, frames: true };
    return null;
  }
  let best: Fold | null = null;
  for (let period = 1; period <= recipe.maxPeriod; period += 1) {
    const repeats = blockRepeats(info, start, period);
    const needed = period === 1 ? recipe.minRepeats + 1 : recipe.minRepeats;
    if (repeats < needed) continue;
    const length = repeats * period;
    if (!best || length > best.length) best = { start, keepHead: period, keepTail: period, length, frames: false };
  }
  return best;
}

interface BackReference {
  readonly from: number;
  readonly length: number;
}

/** A numeric fingerprint of the templates of `length` lines from `start`, or null when one of them never folds. */
function blockKey(info: readonly LineInfo[], start: number, length: number): number | null {
  let key = 0;
  for (let offset = 0; offset < length; offset += 1) {
    const id = info[start + offset]?.id ?? 0;
    if (id === 0) return null;
    // Stays below 2^53 at every step, so the arithmetic is exact.
    key = (key * 1_000_003 + id) % 2_147_483_647;
  }
  return key;
}

/** Earlier blocks by the fingerprint of their first `minBlock` lines (first occurrence wins). */
function indexBlocks(info: readonly LineInfo[], minBlock: number): Map<number, number> {
  const blocks = new Map<number, number>();
  for (let start = 0; start + minBlock <= info.length; start += 1) {
    const key = blockKey(info, start, minBlock);
    if (key !== null && !blocks.has(key)) blocks.set(key, start);
  }
  return blocks;
}

/** The longest earlier block shaped like the lines from `start` (LZ-style, over templates, never overlapping). */
function findBackReference(
  info: readonly LineInfo[],
  start: number,
  blocks: ReadonlyMap<number, number>,
  minBlock: number,
): BackReference | null {
  const key = blockKey(info, start, minBlock);
  const from = key === null ? undefined : blocks.get(key);
  if (from === undefined || from + minBlock > start) return null;
  let length = 0;
  for (;;) {
    const id = info[start + length]?.id ?? 0;
    if (id === 0 || from + length >= start || id !== info[from + length]?.id) break;
    length += 1;
  }
  // A fingerprint collision shows up as a short true match.
  return length >= minBlock ? { from, length } : null;
}

function foldLines(
  lines: readonly string[],
  recipe: LogFoldRecipe,
): { lines: string[]; folded: number; places: number } {
  const info = describeLines(lines);
  const blocks = indexBlocks(info, recipe.minBlock);
  const out: string[] = [];
  let folded = 0;
  let places = 0;
  for (let index = 0; index < lines.length;) {
    const fold = findFold(info, index, recipe);
    const reference = findBackReference(info, index, blocks, recipe.minBlock);
    if (reference && (!fold || reference.length > fold.length - fold.keepHead - fold.keepTail)) {
      out.push(
        `[... ${plural(reference.length, 'line')} shaped like lines ${reference.from + 1}-${reference.from + reference.length} above ...]`,
      );
      folded += reference.length - 1;
      places += 1;
      index += reference.length;
      continue;
    }
    if (!fold) {
      out.push(lines[index]);
      index += 1;
      continue;
    }
    const hidden = fold.length - fold.keepHead - fold.keepTail;
    out.push(...lines.slice(index, index + fold.keepHead));
    out.push(
      fold.frames
        ? `    [... ${plural(hidden, 'more stack frame')} ...]`
        : `[... ${plural(hidden, 'similar line')} folded ...]`,
    );
    out.push(...lines.slice(index + fold.length - fold.keepTail, index + fold.length));
    folded += hidden;
    places += 1;
    index += fold.length;
  }
  return { lines: out, folded, places };
}

function fold(text: string, recipe: LogFoldRecipe): string | null {
  const lines = text.split('\n');
  if (lines.length < minLines || isSourceListing(lines) || locateJsonDocument(text)) return null;
  const result = foldLines(lines, recipe);
  if (result.folded < Math.max(minLines * 0.5, lines.length * minFoldedShare)) return null;
  // The total as `/v1/retrieve` reports it (`totalLines`): a trailing newline ends the last line, it opens none.
  const what = `log folded: ${formatCount(result.folded)} of ${plural(countLines(text), 'line')} collapsed in ${plural(result.places, 'place')}`;
  return `${elisionHint(what, recipe.handle)}\n${result.lines.join('\n')}`;
}

/**
 * Logs and test output: lines printed by the same statement in a repeating block collapse to their first and last
 * occurrence with a count, a block shaped like an earlier one becomes a reference to its line numbers (which
 * `gw_retrieve` takes as startLine/endLine), and long stack traces keep their top frames. Error and failure lines are never folded.
 * Code listings and JSON documents are left to other strategies.
 */
export const logFold: SpanStrategy<LogFoldRecipe> = {
  kind: 'log_fold',
  degradable: true,
  minChars: 2_000,
  plan(text, context) {
    if (context.span.toolName !== undefined && readTools.test(context.span.toolName)) return null;
    const recipe: LogFoldRecipe = { r: 1, handle: context.mode === 'handle' ? handlePlaceholder : null, ...defaults };
    const folded = fold(text, recipe);
    return folded === null ? null : { recipe, text: folded };
  },
  render(text, recipe) {
    return fold(text, recipe) ?? text;
  },
  parseRecipe(value) {
    if (!isRecord(value) || value.r !== 1) return null;
    const { handle, maxPeriod, minRepeats, keepFrames, minBlock } = value;
    if (handle !== null && typeof handle !== 'string') return null;
    const counts = [maxPeriod, minRepeats, keepFrames, minBlock];
    if (!counts.every((count) => typeof count === 'number' && Number.isInteger(count) && count >= 1 && count <= 64))
      return null;
    return {
      r: 1,
      handle,
      maxPeriod: maxPeriod as number,
      minRepeats: minRepeats as number,
      keepFrames: keepFrames as number,
      minBlock: minBlock as number,
    };
  },
};
