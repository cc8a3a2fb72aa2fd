import { describe, expect, it } from 'vitest';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { handlePlaceholder } from './types.js';
import { trimWhitespace, whitespaceTrim } from './whitespace-trim.js';

describe('whitespace_trim', () => {
  it('drops trailing whitespace of a TAP run behind a handle and keeps every line', () => {
    const input = fixture('tap-failures.txt');
    const planned = whitespaceTrim.plan(`${input}${handlePlaceholder}`, spanContext(input));
    expect(planned).not.toBeNull();
    const output = planned?.text ?? '';
    expect(output.split('\n')).toHaveLength(input.split('\n').length);
    expect(output.split('\n').every((line) => line === line.trimEnd() || line.trim() === '')).toBe(true);
    expectGolden('tap-failures.whitespace_trim.txt', output.replace(handlePlaceholder, ''));
    expect(whitespaceTrim.render(`${input}${handlePlaceholder}`, planned!.recipe)).toBe(output);
  });

  it('keeps the bytes where nothing could bring them back, and trims on a lane that trims in place', () => {
    // unittest prints `... ` before the break when a test writes output; the space is part of the quoted line.
    const input = 'test_formats (ledger.tests.ParseAmountTests.test_formats) ... \nFAIL   \n';
    expect(whitespaceTrim.plan(input, spanContext(input))).toBeNull();
    expect(whitespaceTrim.plan(input, spanContext(input, { mode: 'in_place' }))?.text).toBe(
      'test_formats (ledger.tests.ParseAmountTests.test_formats) ...\nFAIL\n',
    );
  });

  it('shrinks runs of more than two blank lines to two', () => {
    expect(trimWhitespace('a\n\n\n\n\n\nb\n\nc  \n')).toBe('a\n\n\nb\n\nc\n');
  });

  it('keeps CRLF line ends', () => {
    expect(trimWhitespace('one  \r\ntwo\t\r\n')).toBe('one\r\ntwo\r\n');
  });

  it('leaves the whitespace of a unified diff alone: there a space is the change', () => {
    const input = fixture('git-diff.txt');
    expect(trimWhitespace(input)).toBe(input);
    expect(whitespaceTrim.plan(`${input}${handlePlaceholder}`, spanContext(input))).toBeNull();
  });
});
