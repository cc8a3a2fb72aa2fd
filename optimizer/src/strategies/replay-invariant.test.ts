import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { spanStrategies } from './registry.js';
import { handlePlaceholder, type Recipe } from './types.js';
import { windowBudget } from './window-budget.js';

const inputs = [
  'npm-install-verbose-ansi.txt',
  'express-debug-log.txt',
  'pino-log-head.txt',
  'tap-failures.txt',
  'npm-view-fastify.txt',
  'npm-view-qs.txt',
  'read-file-listing.txt',
  'eslint-errors.txt',
  'read-file-response-js.txt',
  'find-listing.txt',
  'mocha-failures.txt',
].map((name) => [name, fixture(name)] as const);

function bind(recipe: Recipe, text: string, handle: string): { recipe: Recipe; text: string } {
  if ((recipe as { handle?: unknown }).handle !== handlePlaceholder) return { recipe, text };
  return { recipe: { ...recipe, handle } as Recipe, text: text.split(handlePlaceholder).join(handle) };
}

describe('every strategy replays its own decision byte for byte', () => {
  it('render(original, recipe) equals the planned rewrite, whatever the handle the stash mints', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^ctx_[A-Za-z0-9_-]{1,100}$/),
        fc.constantFrom(...inputs),
        fc.constantFrom('handle' as const, 'in_place' as const),
        (handle, [, input], mode) => {
          for (const strategy of [...spanStrategies, windowBudget as never]) {
            const planned = strategy.plan(input, spanContext(input, { mode }));
            if (!planned) continue;
            const bound = bind(planned.recipe, planned.text, handle);
            expect(strategy.render(input, bound.recipe), strategy.kind).toBe(bound.text);
            expect(strategy.parseRecipe(JSON.parse(JSON.stringify(bound.recipe))), strategy.kind).toEqual(bound.recipe);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
