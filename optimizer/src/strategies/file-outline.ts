import { isRecord } from '../format/json-value.js';
import { countTokens } from '../tokens/count-tokens.js';
import { elisionHint, formatCount, plural } from './retrieve-hint.js';
import { handlePlaceholder, type DegradableRecipe, type SpanPlanContext, type SpanStrategy } from './types.js';

export interface OutlineRecipe extends DegradableRecipe {
  readonly r: 1;
  /** Kept line ranges of the output, 0-based and inclusive, flattened `[from, to, from, to, …]`: numbers, no content. */
  readonly keep: readonly number[];
}

/** `cat -n` (`   12\tcode`) and the arrow form some read tools print (`    12→code`). */
const numbered = /^\s*(\d+)(?:\t|→)(.*)$/;
/** Declarations worth a map of the file: imports, top-level bindings, functions, classes, types, methods. */
const declaration =
  /^(?:import\b|export\b|from\s+\S+\s+import\b|package\b|use\s|#include\b|module\.exports\b|(?:async\s+)?function\b|class\b|interface\b|type\s+\w|enum\b|(?:const|let|var)\s+[\w$]+\s*(?::[^=]+)?=\s*(?:async\s*)?(?:function\b|\(|[\w$]+\s*=>)|(?:const|let|var)\s+[\w${}\s,]+=\s*require\(|def\s|func\s|fn\s|pub\s|impl\b|struct\b|[\w$.]+\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>))/;
/** Methods and nested functions one or two levels in. */
const member =
  /^\s{1,8}(?!(?:if|for|while|switch|catch|return|else|do|try|with|new|await|typeof)\b)(?:(?:public|private|protected|static|async|get|set|readonly|override)\s+)*(?:#?[\w$]+\s*\([^;]*\)\s*(?::\s*[^=;{]+)?\{\s*$|(?:async\s+)?def\s|func\s)/;
/** Where the code raises: an error line of source is a `throw`, `raise` or `panic`. */
const raises = /\b(?:throw|raise)\b|\bpanic!?\(/;
/** Lines around a place another output points at (`response.js:767`). */
const referenceContext = 2;
/** An outline keeping more than this share of the lines is not one: elision handles such outputs. */
const maxKeptShare = 0.4;
const minLines = 60;
const minTokens = 1_000;

/** The first bytes of every outline's hint line (a file's, a listing's). */
export const outlinePrefix = '[... outline of ';

/** Text that is already an outline: later elision must not cut the map in half. */
export function isOutline(text: string): boolean {
  return text.startsWith(outlinePrefix);
}

function codeOf(line: string): string | null {
  const match = numbered.exec(line);
  return match ? (match[2] ?? '') : null;
}

/** The file the call read, by its base name, from the call's arguments (`path`, `file_path`) or a `cat` command. */
function fileNameOf(toolInput: string | undefined): string | undefined {
  if (toolInput === undefined) return undefined;
  let path: unknown;
  try {
    const parsed = JSON.parse(toolInput) as unknown;
    if (isRecord(parsed))
      path =
        parsed.path ??
        parsed.file_path ??
        parsed.filePath ??
        (typeof parsed.command === 'string' ? /\bcat\s+(?:-n\s+)?(\S+)/.exec(parsed.command)?.[1] : undefined);
  } catch {
    return undefined;
  }
  if (typeof path !== 'string' || path === '') return undefined;
  const base = path.slice(path.lastIndexOf('/') + 1);
  return /^[\w.-]+\.\w+$/.test(base) ? base : undefined;
}

/** Line numbers other outputs of the request point at in this file (`index.js:153`, `lib/response.js:767:12`). */
function referencedLines(context: SpanPlanContext): Set<number> {
  const name = fileNameOf(context.span.toolInput);
  const lines = new Set<number>();
  if (name === undefined) return lines;
  const marker = `${name}:`;
  for (const span of context.view.spans) {
    if (span.key === context.span.key) continue;
    // Plain search, not a regex over every output: a request can carry megabytes of them.
    for (let at = span.text.indexOf(marker); at !== -1; at = span.text.indexOf(marker, at + marker.length)) {
      if (at > 0 && /[\w-]/.test(span.text[at - 1] ?? '')) continue;
      const digits = /^\d+/.exec(span.text.slice(at + marker.length, at + marker.length + 8));
      if (digits) lines.add(Number(digits[0]));
    }
  }
  return lines;
}

function plan(text: string, context: SpanPlanContext): OutlineRecipe | null {
  // A numbered read starts numbered: most outputs are turned away before being split.
  if (!numbered.test(text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n')))) return null;
  const lines = text.split('\n');
  if (lines.length < minLines) return null;
  let numberedCount = 0;
  const kept = new Set<number>();
  const referenced = referencedLines(context);
  const byNumber = new Map<number, number>();
  lines.forEach((line, index) => {
    const code = codeOf(line);
    if (code === null) return;
    numberedCount += 1;
    byNumber.set(Number(numbered.exec(line)?.[1]), index);
    if (declaration.test(code) || member.test(code) || raises.test(code)) kept.add(index);
  });
  // A file read is numbered throughout (a trailing blank line or a truncation notice aside).
  if (numberedCount < lines.length * 0.95) return null;
  for (const number of referenced) {
    const index = byNumber.get(number);
    if (index === undefined) continue;
    for (
      let near = Math.max(0, index - referenceContext);
      near <= Math.min(lines.length - 1, index + referenceContext);
      near += 1
    )
      kept.add(near);
  }
  if (kept.size === 0 || kept.size > lines.length * maxKeptShare) return null;
  const keep: number[] = [];
  for (const index of [...kept].sort((a, b) => a - b)) {
    const last = keep.length - 1;
    if (last > 0 && keep[last] === index - 1) keep[last] = index;
    else keep.push(index, index);
  }
  return { r: 1, handle: context.mode === 'handle' ? handlePlaceholder : null, keep };
}

function render(text: string, recipe: OutlineRecipe): string | null {
  const lines = text.split('\n');
  const out: string[] = [];
  let keptCount = 0;
  for (let at = 0; at + 1 < recipe.keep.length; at += 2) {
    const from = recipe.keep[at] ?? 0;
    const to = Math.min(recipe.keep[at + 1] ?? -1, lines.length - 1);
    for (let index = from; index <= to; index += 1) out.push(lines[index] ?? '');
    keptCount += Math.max(0, to - from + 1);
  }
  if (keptCount === 0) return null;
  // A read ends with a line break; the empty string after it is not a line of the file.
  const fileLines = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  const what = `a ${formatCount(fileLines)}-line file: imports, declarations, throw/raise lines and lines other outputs point at are kept below with their line numbers (${plural(keptCount, 'line')}); ${plural(fileLines - keptCount, 'line')} elided`;
  const hint = elisionHint(what, recipe.handle, 'the rest');
  return [`${outlinePrefix}${hint.slice('[... '.length)}`, ...out].join('\n');
}

/**
 * A long file read becomes its outline (docs/adr/0021-fresh-reversible-trimming.md): the imports, declarations
 * (functions, classes, types, methods), `throw`/`raise` lines and the lines around any `file:line` another output
 * of the request points at, each with its own line number, behind a handle to the whole file. A model looking for
 * where to edit reads the map and fetches the range it needs. Only numbered reads (`cat -n`, read tools) qualify.
 */
export const fileOutline: SpanStrategy<OutlineRecipe> = {
  kind: 'file_outline',
  degradable: true,
  minChars: minTokens * 2,
  plan(text, context) {
    const recipe = plan(text, context);
    if (recipe && countTokens(text) < minTokens) return null;
    if (!recipe) return null;
    const outlined = render(text, recipe);
    return outlined === null ? null : { recipe, text: outlined };
  },
  render(text, recipe) {
    return render(text, recipe) ?? text;
  },
  parseRecipe(value) {
    if (!isRecord(value) || value.r !== 1) return null;
    const { handle, keep } = value;
    if (handle !== null && typeof handle !== 'string') return null;
    if (
      !Array.isArray(keep) ||
      keep.length % 2 !== 0 ||
      !keep.every((entry) => typeof entry === 'number' && Number.isInteger(entry) && entry >= 0)
    )
      return null;
    return { r: 1, handle, keep: keep as number[] };
  },
};
