import { handlePlaceholder, type Planned, type Recipe } from '../types.js';

export const goldenHandle = 'ctx_g0ldenHandle00000000000000000';

/** A planned rewrite with the placeholder bound to a fixed handle, as the pipeline does after the stash write. */
export function bound<R extends Recipe>(planned: Planned<R>): { recipe: R; text: string } {
  const recipe = (planned.recipe as { handle?: unknown }).handle === handlePlaceholder ? { ...planned.recipe, handle: goldenHandle } : planned.recipe;
  return { recipe, text: planned.text.split(handlePlaceholder).join(goldenHandle) };
}
