import { describe, expect, it } from 'vitest';
import { bound, goldenHandle } from './__fixtures__/bind.js';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { jsonMinify, minifyJsonLayout } from './json-minify.js';

const sample = `npm warn something noisy
{
  "z-last-key": 1.0,
  "big": 12345678901234567890123,
  "exp": 1E+3,
  "text": "keeps   its\\n spaces \\" and escapes \\u00e9",
  "list": [
    true,
    null,
    -0.50
  ],
  "nested": {
    "a": "b"
  }
}
`;

describe('json_minify', () => {
  it('compacts the layout of `npm view qs --json` behind a handle, quoting form "key": "value" intact', () => {
    const input = fixture('npm-view-qs.txt');
    const planned = jsonMinify.plan(input, spanContext(input));
    expect(planned).not.toBeNull();
    const { recipe, text } = bound(planned!);
    expect(text).toContain('"_id": "qs@6.17.1"');
    expect(text).toContain(`handle "${goldenHandle}"`);
    expect(text.length).toBeLessThan(input.length * 0.9);
    expectGolden('npm-view-qs.json_minify.txt', text);
    expect(jsonMinify.render(input, recipe)).toBe(text);
  });

  it('never touches numbers, key order or string contents (no parse and re-serialise)', () => {
    expect(minifyJsonLayout(sample, null)).toBe(
      'npm warn something noisy\n{"z-last-key": 1.0,"big": 12345678901234567890123,"exp": 1E+3,"text": "keeps   its\\n spaces \\" and escapes \\u00e9","list": [true,null,-0.50],"nested": {"a": "b"}}\n',
    );
  });

  it('in place it adds no hint: every value is still there', () => {
    const input = fixture('npm-view-qs.txt');
    const planned = jsonMinify.plan(input, spanContext(input, { mode: 'in_place' }));
    expect(planned?.recipe.handle).toBeNull();
    expect(planned?.text).not.toContain('gw_retrieve');
  });

  it('leaves text that is not a JSON document alone', () => {
    const input = fixture('eslint-errors.txt').repeat(3);
    expect(jsonMinify.plan(input, spanContext(input))).toBeNull();
    const invalid = `{\n  "a": 1,\n  "b": [1, 2,]\n}\n${' '.repeat(2_000)}`;
    expect(jsonMinify.plan(invalid, spanContext(invalid))).toBeNull();
  });
});
