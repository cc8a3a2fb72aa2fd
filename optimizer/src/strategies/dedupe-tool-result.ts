import { isRecord } from '../format/json-value.js';
import type { RequestView, ToolOutputSpan } from '../format/request-view.js';
import type { Recipe, SpanStrategy } from './types.js';

export interface DedupeRecipe extends Recipe {
  readonly r: 1;
  /** Location key of the earlier identical output (`m5`, `m5.p1`). */
  readonly ref: string;
  /** Its tool-call id, when it has one; shown to the model. */
  readonly refCallId: string | null;
}

/** Short outputs (`File written`) cost less than the reference that would replace them. */
const minChars = 200;

function reference(recipe: DedupeRecipe, messageIndex: number): string {
  const target =
    recipe.refCallId === null
      ? `the tool output in message ${messageIndex}`
      : `the output of tool call ${recipe.refCallId}`;
  return `[identical to ${target} above]`;
}

function messageIndexOf(key: string): number {
  return Number(/^m(\d+)/.exec(key)?.[1] ?? -1);
}

/**
 * Lossless: a tool output byte-identical to an earlier one in the same request becomes a reference to it. The
 * earlier copy stays where it is (already in the provider's cached prefix), so the model loses nothing.
 */
export const dedupeToolResult: SpanStrategy<DedupeRecipe> = {
  kind: 'dedupe_tool_result',
  degradable: false,
  minChars,
  plan(_text, context) {
    const earlier = context.earlierIdentical;
    if (!earlier || context.span.text.length < minChars) return null;
    const recipe: DedupeRecipe = { r: 1, ref: earlier.key, refCallId: earlier.toolCallId ?? null };
    return { recipe, text: reference(recipe, earlier.messageIndex) };
  },
  render(_text, recipe) {
    return reference(recipe, messageIndexOf(recipe.ref));
  },
  parseRecipe(value) {
    if (
      !isRecord(value) ||
      value.r !== 1 ||
      typeof value.ref !== 'string' ||
      !/^m\d+(\.p\d+)?(\.s\d+)?$/.test(value.ref)
    )
      return null;
    if (value.refCallId !== null && typeof value.refCallId !== 'string') return null;
    return { r: 1, ref: value.ref, refCallId: value.refCallId };
  },
  canReplay(recipe: DedupeRecipe, span: ToolOutputSpan, view: RequestView) {
    // The reference is only true while the earlier copy is still there, unchanged.
    const targetIndex = view.spans.findIndex((candidate) => candidate.key === recipe.ref);
    const target = view.spans[targetIndex];
    return target !== undefined && targetIndex < view.spans.indexOf(span) && target.text === span.text;
  },
};
