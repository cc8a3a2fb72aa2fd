/**
 * Reads `callgrind_annotate --inclusive=no` output: the program total and every function's self instructions.
 * The text format is stable across valgrind 3.x: `<count> (<share>%)  <file>:<function> [<object>]`.
 */

export interface FunctionCost {
  /** Instructions executed in the function itself (not in what it called). */
  instructions: number;
  /** As callgrind names it: a demangled C++ symbol, or `0x…` for code without a symbol (V8's JIT output). */
  name: string;
  /** The ELF object holding the function; `???` for JIT code. */
  object: string;
}

export interface AnnotatedProfile {
  total: number;
  functions: FunctionCost[];
}

const TOTAL_LINE = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+PROGRAM TOTALS\s*$/;
const FUNCTION_LINE = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.+)$/;
// The object is the last bracketed group: names may carry their own (`[clone .isra.0]`).
const OBJECT_SUFFIX = /\s\[([^\][]*)\]$/;

export function parseAnnotation(text: string): AnnotatedProfile {
  let total: number | null = null;
  const functions: FunctionCost[] = [];
  for (const line of text.split('\n')) {
    const totals = TOTAL_LINE.exec(line);
    if (totals) {
      total = count(totals[1]);
      continue;
    }
    if (total === null) continue;
    const match = FUNCTION_LINE.exec(line);
    if (!match) continue;
    const located = match[2] ?? '';
    const objectMatch = OBJECT_SUFFIX.exec(located);
    const withFile = objectMatch ? located.slice(0, objectMatch.index) : located;
    // `file:function`; the file is `???` when the object has no line tables.
    const colon = withFile.indexOf(':');
    functions.push({
      instructions: count(match[1]),
      name: colon === -1 ? withFile : withFile.slice(colon + 1),
      object: objectMatch?.[1] ?? '???',
    });
  }
  if (total === null) throw new Error('callgrind_annotate printed no PROGRAM TOTALS line');
  return { total, functions };
}

const count = (digits: string | undefined) => Number((digits ?? '0').replaceAll(',', ''));
