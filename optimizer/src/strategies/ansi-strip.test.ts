import { describe, expect, it } from 'vitest';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { ansiStrip, hasSemanticColour, stripAnsi } from './ansi-strip.js';

describe('ansi_strip', () => {
  it('removes the colour codes of a verbose npm install and keeps every visible character', () => {
    const input = fixture('npm-install-verbose-ansi.txt');
    const planned = ansiStrip.plan(input, spanContext(input));
    expect(planned).not.toBeNull();
    expect(planned?.text).not.toContain('\u001b');
    expect(planned?.text).toContain('npm http fetch GET 200 https://registry.npmjs.org/accepts 71ms (cache updated)');
    expectGolden('npm-install-verbose-ansi.ansi_strip.txt', planned?.text ?? '');
    expect(ansiStrip.render(input, planned!.recipe)).toBe(planned?.text);
  });

  it('keeps the escapes when the colour itself is the fact (a colour matrix printing the same word red and plain)', () => {
    const input = fixture('kleur-colour-matrix.txt');
    expect(hasSemanticColour(input)).toBe(true);
    expect(ansiStrip.plan(input, spanContext(input))).toBeNull();
  });

  it('leaves output without escapes alone', () => {
    const input = fixture('eslint-errors.txt');
    expect(ansiStrip.plan(input, spanContext(input))).toBeNull();
  });

  it('strips cursor movement and hyperlink sequences, not only colours', () => {
    expect(stripAnsi('\u001b[2K\u001b[1Gprogress\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007 done')).toBe('progresslink done');
  });

  it('rejects a recipe of an unknown version', () => {
    expect(ansiStrip.parseRecipe({ r: 2 })).toBeNull();
    expect(ansiStrip.parseRecipe({ r: 1 })).toEqual({ r: 1 });
  });
});
