import { describe, expect, it } from 'vitest';
import { bound, goldenHandle } from './__fixtures__/bind.js';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { isSalientLine } from './salient-lines.js';
import { testLogFailures } from './test-log-failures.js';

const mocha = fixture('mocha-failures.txt');
const tap = fixture('tap-failures.txt');

function keptVerbatim(original: string, text: string, lines: readonly string[]): void {
  const kept = text.split('\n');
  for (const line of lines) expect(kept, line).toContain(line);
  expect(original.split('\n').length).toBeGreaterThan(kept.length);
}

describe('test_log_failures', () => {
  it('cuts a micromatch mocha run to its suites, failures and summary', () => {
    const planned = testLogFailures.plan(mocha, spanContext(mocha));
    expect(planned).not.toBeNull();
    const { recipe, text } = bound(planned!);
    expect(text.split('\n')[0]).toMatch(
      new RegExp(
        `^\\[\\.\\.\\. outline of a test run: [\\d,]+ passing tests \\([\\d,]+ lines\\) elided; .*handle "${goldenHandle}"`,
      ),
    );
    expect(text).not.toContain('✔ should match dollar signs');
    keptVerbatim(mocha, text, [
      '  1947 passing (280ms)',
      '  7 failing',
      '      at Context.<anonymous> (test/api.capture.js:24:12)',
      '       should capture globstars:',
      '    single stars',
    ]);
    // Lossless on error lines: every line that names a failure is still there.
    keptVerbatim(mocha, text, mocha.split('\n').filter(isSalientLine));
    expectGolden('mocha-failures.test_log_failures.txt', text);
    expect(testLogFailures.render(mocha, recipe)).toBe(text);
  });

  it('drops node --test passes with their subtest header and YAML block, keeping every failure block', () => {
    const { text } = bound(testLogFailures.plan(tap, spanContext(tap))!);
    expect(text).not.toContain('# Subtest: Should add cors headers\nok 1 - Should add cors headers');
    expect(text).not.toContain('duration_ms: 122.547909');
    keptVerbatim(tap, text, [
      '# Subtest: Should add cors headers (custom values)',
      'not ok 3 - Should add cors headers (custom values)',
      "    +   'access-control-expose-headers': 'foo,bar',",
      '# fail 6',
    ]);
    keptVerbatim(tap, text, tap.split('\n').filter(isSalientLine));
    expectGolden('tap-failures.test_log_failures.txt', text);
  });

  it('leaves alone what is not a test run', () => {
    const listing = fixture('find-listing.txt');
    expect(testLogFailures.plan(listing, spanContext(listing))).toBeNull();
    const debug = fixture('express-debug-log.txt');
    expect(testLogFailures.plan(debug, spanContext(debug))).toBeNull();
  });
});
