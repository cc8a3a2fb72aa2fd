import { isRecord } from '../format/json-value.js';
import { countLines } from '../stash/lines.js';
import { elisionHint, plural } from './retrieve-hint.js';
import {
  handlePlaceholder,
  type DegradableRecipe,
  type ElisionMode,
  type Planned,
  type SpanStrategy,
} from './types.js';

/** Used when neither the model window nor a client budget is known. */
export const fallbackContextTokens = 190_000;
/** Safety margin under the ceiling. */
export const windowSafetyMargin = 0.05;

/** The token ceiling the transcript must fit: the lower of the known windows, less the margin. */
export function windowLimitTokens(
  modelContextTokens: number | undefined,
  clientContextBudgetTokens: number | undefined,
): number {
  const known = [modelContextTokens, clientContextBudgetTokens].filter(
    (value): value is number => typeof value === 'number' && value > 0,
  );
  const ceiling = known.length > 0 ? Math.min(...known) : fallbackContextTokens;
  return Math.floor(ceiling * (1 - windowSafetyMargin));
}

export interface WindowBudgetRecipe extends DegradableRecipe {
  readonly r: 1;
  readonly headLines: number;
  readonly headChars: number;
}

const defaults = { headLines: 6, headChars: 600 } as const;

function stub(text: string, recipe: WindowBudgetRecipe): string {
  const lines = text.split('\n');
  let head = lines.slice(0, recipe.headLines).join('\n');
  if (head.length > recipe.headChars) head = head.slice(0, recipe.headChars);
  // Counted as `/v1/retrieve` counts them: a trailing newline opens no extra line.
  const hiddenLines = Math.max(0, countLines(text) - recipe.headLines);
  const what = `window budget: ${plural(hiddenLines, 'more line')} (${plural(text.length - head.length, 'character')}) of this tool output elided`;
  return `${head}\n${elisionHint(what, recipe.handle)}`;
}

/** Plan one stub; the choice of which outputs to stub is made over the whole request by the pipeline. */
export function planWindowStub(text: string, mode: ElisionMode): Planned<WindowBudgetRecipe> | null {
  const recipe: WindowBudgetRecipe = { r: 1, handle: mode === 'handle' ? handlePlaceholder : null, ...defaults };
  const rewritten = stub(text, recipe);
  return rewritten.length < text.length ? { recipe, text: rewritten } : null;
}

/**
 * Fits the transcript under the window by cutting the oldest settled tool outputs to a few lines and a handle,
 * oldest first, until the estimate fits. Never the system prompt, the tool list or the fresh turn.
 */
export const windowBudget: SpanStrategy<WindowBudgetRecipe> = {
  kind: 'window_budget',
  degradable: true,
  minChars: 1_000,
  plan(text, context) {
    return planWindowStub(text, context.mode);
  },
  render(text, recipe) {
    return stub(text, recipe);
  },
  parseRecipe(value) {
    if (!isRecord(value) || value.r !== 1) return null;
    const { handle, headLines, headChars } = value;
    if (handle !== null && typeof handle !== 'string') return null;
    if (typeof headLines !== 'number' || !Number.isInteger(headLines) || headLines < 0) return null;
    if (typeof headChars !== 'number' || !Number.isInteger(headChars) || headChars < 0) return null;
    return { r: 1, handle, headLines, headChars };
  },
};
