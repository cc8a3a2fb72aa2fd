import { isRecord } from '../format/json-value.js';
import { countTokens } from '../tokens/count-tokens.js';
import { outlinePrefix } from './file-outline.js';
import { elisionHint, plural } from './retrieve-hint.js';
import { isSalientLine, stripAnsiForMatching } from './salient-lines.js';
import { handlePlaceholder, type DegradableRecipe, type SpanStrategy } from './types.js';

export type TestLogRecipe = DegradableRecipe & { readonly r: 1 };

/**
 * A line reporting one passing test, for the runners agents run: mocha, ava, vitest, jest, uvu (`✔`/`✓`/`√`),
 * TAP and node --test (`ok 3 - …`), unittest -v (`… ok`), pytest -v (`… PASSED`), go test -v (`--- PASS`, `=== RUN`).
 */
const passLine =
  /^\s*(?:[✔✓√]\s|ok \d+\b|--- PASS\b|=== (?:RUN|PAUSE|CONT)\b)|\s\.\.\. ok$|\sPASSED(?:\s+\[\s*\d+%\])?$/;
/** node --test prints `# Subtest: name` before each result and a YAML block (`---` … `...`) after it. */
const subtest = /^\s*# Subtest: /;
const yamlStart = /^\s+---$/;
const yamlEnd = /^\s+\.\.\.$/;
const minPassLines = 40;
const minTokens = 1_000;
const minSavedShare = 0.4;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Indexes of the lines that only report passing tests (with their TAP subtest header and YAML block). */
function passingLines(lines: readonly string[]): Set<number> {
  const drop = new Set<number>();
  lines.forEach((raw, index) => {
    const line = stripAnsiForMatching(raw);
    if (!passLine.test(line) || isSalientLine(raw)) return;
    drop.add(index);
    const previous = lines[index - 1];
    // A header naming an error (`# Subtest: Server error if …`) reads as a failure line: it stays, as they all do.
    if (
      previous !== undefined &&
      subtest.test(previous) &&
      indentOf(previous) === indentOf(line) &&
      !isSalientLine(previous)
    )
      drop.add(index - 1);
    if (!/^\s*ok \d+/.test(line) || !yamlStart.test(lines[index + 1] ?? '')) return;
    for (let next = index + 1; next < lines.length && next < index + 40; next += 1) {
      drop.add(next);
      if (yamlEnd.test(lines[next] ?? '')) break;
    }
  });
  return drop;
}

const passMarks = ['✔', '✓', '√', '--- PASS', '=== RUN', '... ok', ' PASSED'];
const tapPass = /^\s*ok \d/m;

/** Any pass mark at all, found by plain search: most outputs are not test runs and stop here. */
function mayBeTestRun(text: string): boolean {
  return passMarks.some((mark) => text.includes(mark)) || tapPass.test(text);
}

function render(text: string, recipe: TestLogRecipe): string | null {
  if (!mayBeTestRun(text)) return null;
  const lines = text.split('\n');
  const drop = passingLines(lines);
  if (drop.size < minPassLines) return null;
  const passes = [...drop].filter((index) => passLine.test(stripAnsiForMatching(lines[index] ?? ''))).length;
  const what = `a test run: ${plural(passes, 'passing test')} (${plural(drop.size, 'line')}) elided; every failure, error, suite title and summary line is kept below`;
  const hint = elisionHint(what, recipe.handle, 'the passes');
  return [`${outlinePrefix}${hint.slice('[... '.length)}`, ...lines.filter((_, index) => !drop.has(index))].join('\n');
}

/**
 * A test run cut to what the agent acts on: the lines that only report a passing test go, everything else stays
 * verbatim and in order (suite titles, every failure with its error, diff and stack, skipped and todo lines, the
 * summary), behind a handle to the whole log. Failure lines are never touched, so nothing an agent fixes from is
 * lost however many tests ran.
 */
export const testLogFailures: SpanStrategy<TestLogRecipe> = {
  kind: 'test_log_failures',
  degradable: true,
  minChars: minTokens * 2,
  plan(text, context) {
    const recipe: TestLogRecipe = { r: 1, handle: context.mode === 'handle' ? handlePlaceholder : null };
    const cut = render(text, recipe);
    if (cut === null || cut.length > text.length * (1 - minSavedShare) || countTokens(text) < minTokens) return null;
    return { recipe, text: cut };
  },
  render(text, recipe) {
    return render(text, recipe) ?? text;
  },
  parseRecipe(value) {
    if (!isRecord(value) || value.r !== 1) return null;
    const { handle } = value;
    if (handle !== null && typeof handle !== 'string') return null;
    return { r: 1, handle };
  },
};
