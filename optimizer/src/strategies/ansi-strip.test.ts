import { describe, expect, it } from 'vitest';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { ansiStrip, hasSemanticColour, stripAnsi } from './ansi-strip.js';
import { handlePlaceholder } from './types.js';

/** What an output looks like after `elide_tool_output` kept it behind a handle: the original is recoverable. */
const behindHandle = (text: string) => `${text}\n[full output: gw_retrieve ${handlePlaceholder}]`;

describe('ansi_strip', () => {
  it('removes the colour codes of a verbose npm install behind a handle and keeps every visible character', () => {
    const input = fixture('npm-install-verbose-ansi.txt');
    const planned = ansiStrip.plan(behindHandle(input), spanContext(input));
    expect(planned?.recipe).toEqual({ r: 1 });
    expect(planned?.text).not.toContain('\u001b');
    expect(planned?.text).toContain('npm http fetch GET 200 https://registry.npmjs.org/accepts 71ms (cache updated)');
    expect(planned?.text).toBe(behindHandle(stripAnsi(input)));
    expectGolden('npm-install-verbose-ansi.ansi_strip.txt', stripAnsi(input));
    expect(ansiStrip.render(behindHandle(input), planned!.recipe)).toBe(planned?.text);
  });

  it('keeps every escape where nothing could bring the original back', () => {
    const input = fixture('npm-install-verbose-ansi.txt');
    expect(ansiStrip.plan(input, spanContext(input))).toBeNull();
    // GNU grep ends each coloured match with an erase control: part of the line a model may quote.
    const grep = 'lib/levels.js:12:  set \u001b[01;31m\u001b[KlevelVal\u001b[m\u001b[K (n) {';
    expect(ansiStrip.plan(grep, spanContext(grep))).toBeNull();
  });

  it('removes only cursor and erase controls on a lane that trims in place, keeping the colours', () => {
    const spinner = '\u001b[2K\u001b[1G\u001b[?25l\u001b[31mFAIL\u001b[39m test/dates.test.js\u001b[?25h';
    const planned = ansiStrip.plan(spinner, spanContext(spinner, { mode: 'in_place' }));
    expect(planned).toEqual({ recipe: { r: 2 }, text: '\u001b[31mFAIL\u001b[39m test/dates.test.js' });
    expect(ansiStrip.render(spinner, { r: 2 })).toBe(planned?.text);
  });

  it('keeps the colours when the colour itself is the fact (a colour matrix printing the same word red and plain), even behind a handle', () => {
    const input = fixture('kleur-colour-matrix.txt');
    expect(hasSemanticColour(input)).toBe(true);
    expect(ansiStrip.plan(input, spanContext(input))).toBeNull();
    const planned = ansiStrip.plan(behindHandle(input), spanContext(input));
    expect(planned === null || planned.recipe.r === 2).toBe(true);
    expect(planned?.text ?? behindHandle(input)).toContain('\u001b[31mfoo\u001b[39m');
  });

  it('leaves output without escapes alone', () => {
    const input = fixture('eslint-errors.txt');
    expect(ansiStrip.plan(input, spanContext(input))).toBeNull();
  });

  it('strips cursor movement and hyperlink sequences, not only colours', () => {
    expect(stripAnsi('\u001b[2K\u001b[1Gprogress\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007 done')).toBe(
      'progresslink done',
    );
  });

  it('rejects a recipe of an unknown version', () => {
    expect(ansiStrip.parseRecipe({ r: 3 })).toBeNull();
    expect(ansiStrip.parseRecipe({ r: 1 })).toEqual({ r: 1 });
    expect(ansiStrip.parseRecipe({ r: 2 })).toEqual({ r: 2 });
  });
});
