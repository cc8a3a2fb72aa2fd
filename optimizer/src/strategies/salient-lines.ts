/**
 * Lines that report a failure. Folding and elision always keep them verbatim ("error and failure
 * lines always kept verbatim"); the bench checks that none is ever lost.
 */
// Unmistakable: `Error:`, error classes, npm's `ERR!`, tracebacks, panics, TAP `not ok`, failure marks, non-zero exits.
const strongSignal =
  /Error:|\b[A-Z][A-Za-z]*(?:Error|Exception)\b|ERR!|Traceback|\bpanic(?:ked)?\b|\bnot ok\b|✗|✖|✘|\bFAIL(?:ED|URE|S)?\b|Segmentation fault|exit (?:code|status):? *-?[1-9]/;
// Plain words, not inside identifiers such as `es6-error` or `http-errors`.
const wordSignal = /(?<![\w-])(?:errors?|fail(?:s|ed|ing|ure|ures)?|exceptions?|fatal|assert(?:ion)?s?)(?![\w-])/i;
// A passing test whose title mentions errors is not a failure.
const passMark = /^\s*(?:✔|✓|√|ok\b|PASS\b|passed\b)/;

// eslint-disable-next-line no-control-regex -- matching terminal escapes is the point
const ansiPattern = /\u001b\[[0-?]*[ -/]*[@-~]/g;

export function stripAnsiForMatching(line: string): string {
  return line.includes('\u001b') ? line.replace(ansiPattern, '') : line;
}

export function isSalientLine(line: string): boolean {
  if (line.length === 0) return false;
  const visible = stripAnsiForMatching(line);
  if (passMark.test(visible)) return false;
  return strongSignal.test(visible) || wordSignal.test(visible);
}

const numberedLine = /^\s*\d+\t/;
const grepLine = /^\.{0,2}\/?[\w@.+-]+(?:\/[\w@.+-]+)*\.\w+:\d+[:-]/;

/**
 * Source listings (`cat -n`, `grep -n` hits): their lines are code, where `error` is a type name and `fail` a
 * function; there failure words signal nothing.
 */
export function isSourceListing(lines: readonly string[]): boolean {
  if (lines.length === 0) return false;
  let code = 0;
  for (const line of lines) if (numberedLine.test(line) || grepLine.test(line)) code += 1;
  return code >= lines.length * 0.6;
}
