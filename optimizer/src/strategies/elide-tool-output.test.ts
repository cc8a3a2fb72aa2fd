import { describe, expect, it } from 'vitest';
import { bound, goldenHandle } from './__fixtures__/bind.js';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { elideToolOutput } from './elide-tool-output.js';

describe('elide_tool_output', () => {
  it('keeps head, tail and the failure lines of a TAP run and points at the handle for the rest', () => {
    const input = fixture('tap-failures.txt');
    const planned = elideToolOutput.plan(input, spanContext(input));
    expect(planned).not.toBeNull();
    const { recipe, text } = bound(planned!);
    const hint = text.split('\n').find((line) => line.includes('gw_retrieve'));
    expect(hint).toMatch(
      new RegExp(
        `^\\[\\.\\.\\. [\\d,]+ lines elided; .*call gw_retrieve with handle "${goldenHandle}" \\(optionally grep/startLine/endLine\\) to read them \\.\\.\\.\\]$`,
      ),
    );
    expect(text).toContain('not ok 3 - Should add cors headers (custom values)');
    expect(text).toContain('# fail 6');
    expect(text.length).toBeLessThan(input.length / 2);
    expectGolden('tap-failures.elide_tool_output.txt', text);
    expect(elideToolOutput.render(input, recipe)).toBe(text);
  });

  it('cuts a few very long lines by characters', () => {
    const input = `${'{"k":"v"},'.repeat(3_000)}\n${'x'.repeat(200)}`;
    const planned = elideToolOutput.plan(input, spanContext(input, { mode: 'in_place' }));
    expect(planned?.text).toMatch(/\[\.\.\. [\d,]+ characters \(1 line\) elided \(trimmed; not retrievable\) \.\.\.\]/);
    expect(planned!.text.length).toBeLessThan(5_000);
  });

  it('leaves outputs under the size threshold alone', () => {
    const input = fixture('eslint-errors.txt');
    expect(elideToolOutput.plan(input, spanContext(input))).toBeNull();
  });
});
