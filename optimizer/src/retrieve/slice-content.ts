import { splitLines } from '../stash/lines.js';

export const grepMaxChars = 256;
export const grepContextLines = 3;
/** Matches whose context windows render; every match beyond them is counted, not shown. */
export const grepMaxWindows = 20;

export interface SliceRequest {
  startLine?: number | undefined;
  endLine?: number | undefined;
  grep?: string | undefined;
}

export type SliceResult =
  | { partial: false; content: string }
  | {
      partial: true;
      content: string;
      startLine: number;
      endLine: number;
      grepMatches: number;
      grepTruncated: boolean;
      /** When truncated: the line of the first match not rendered, the `startLine` that pages on. */
      nextStartLine?: number;
    };

/** Why a grep is refused (400): whitespace-only, empty or longer than 256 characters. */
export function grepProblem(grep: string | undefined): string | null {
  if (grep === undefined) return null;
  if (grep.trim() === '') return 'grep must contain a non-whitespace character';
  if (characterCount(grep) > grepMaxChars) return `grep must be at most ${grepMaxChars} characters`;
  return null;
}

/**
 * Characters are code points, not UTF-16 units: an emoji is one character, not two. A string of more than twice the
 * limit in units is over it whatever it holds, so a huge grep is never spread into an array.
 */
function characterCount(text: string): number {
  return text.length > grepMaxChars * 2 ? text.length : [...text].length;
}

/**
 * Rule 5. Only `handle`: the full original. A range is 1-based inclusive, rounded and clamped (never
 * an error). A grep is a case-insensitive literal searched within the range, rendered grep-style with line numbers
 * (`12:` match, `11-` context) and ±3 context lines. Only the windows of the first 20 matching lines render (windows
 * that overlap or touch merge into one for display, separated by `--`), so a broad grep on a long log answers about
 * 140 lines rather than the whole original; `grepMatches` counts every matching line, `grepTruncated` says more
 * matched, and `nextStartLine` is the line of the first match not shown. Call `grepProblem` first.
 */
export function sliceContent(content: string, request: SliceRequest): SliceResult {
  const wantsRange = request.startLine !== undefined || request.endLine !== undefined;
  if (!wantsRange && request.grep === undefined) return { partial: false, content };
  const lines = splitLines(content);
  const total = lines.length;
  const startLine = clamp(Math.round(request.startLine ?? 1), 1, Math.max(total, 1));
  const endLine = clamp(Math.round(request.endLine ?? total), startLine, Math.max(total, startLine));
  if (request.grep === undefined) {
    if (startLine === 1 && endLine >= total) return { partial: false, content };
    return {
      partial: true,
      content: lines.slice(startLine - 1, endLine).join('\n'),
      startLine,
      endLine,
      grepMatches: 0,
      grepTruncated: false,
    };
  }
  const { rendered, matching } = grepWindows(lines, request.grep, startLine, Math.min(endLine, total));
  const result = {
    partial: true as const,
    content: rendered,
    startLine,
    endLine,
    grepMatches: matching.length,
    grepTruncated: matching.length > grepMaxWindows,
  };
  const next = matching[grepMaxWindows];
  return next === undefined ? result : { ...result, nextStartLine: next };
}

function grepWindows(lines: readonly string[], grep: string, startLine: number, endLine: number) {
  const needle = grep.toLowerCase();
  const matching: number[] = [];
  for (let line = startLine; line <= endLine; line += 1) {
    if (lines[line - 1].toLowerCase().includes(needle)) matching.push(line);
  }
  const windows: Array<{ from: number; to: number }> = [];
  for (const line of matching.slice(0, grepMaxWindows)) {
    const from = Math.max(startLine, line - grepContextLines);
    const to = Math.min(endLine, line + grepContextLines);
    const last = windows[windows.length - 1];
    if (last && from <= last.to + 1) last.to = Math.max(last.to, to);
    else windows.push({ from, to });
  }
  const matchSet = new Set(matching);
  const rendered = windows
    .map(({ from, to }) => {
      const out: string[] = [];
      for (let line = from; line <= to; line += 1)
        out.push(`${line}${matchSet.has(line) ? ':' : '-'}${lines[line - 1]}`);
      return out.join('\n');
    })
    .join('\n--\n');
  return { rendered, matching };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
