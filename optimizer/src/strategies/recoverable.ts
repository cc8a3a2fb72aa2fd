import { handlePlaceholder, type SpanPlanContext } from './types.js';

/**
 * Whether a cleanup may change this output's bytes: an earlier strategy put the original behind a retrieval handle
 * (the text holds the placeholder), or the lane trims in place anyway. Anywhere else the bytes are
 * the only copy the model has, and a needle is quoted byte for byte (docs/adr/0008).
 */
export function recoverable(text: string, context: Pick<SpanPlanContext, 'mode'>): boolean {
  return text.includes(handlePlaceholder) || context.mode === 'in_place';
}
