import { describe, expect, it } from 'vitest';
import { ageBucket } from './age-bucket.js';
import { grepProblem, sliceContent } from './slice-content.js';

const text = ['alpha', 'Beta', 'gamma', 'BETA beta', 'delta'].join('\n');

describe('sliceContent', () => {
  it('returns the whole original, byte for byte, when nothing narrows it', () => {
    expect(sliceContent(`${text}\r\n`, {})).toEqual({ partial: false, content: `${text}\r\n` });
  });

  it('keeps carriage returns inside a range so the bytes match the original lines', () => {
    expect(sliceContent('a\r\nb\r\nc', { startLine: 2, endLine: 2 })).toMatchObject({
      content: 'b\r',
      startLine: 2,
      endLine: 2,
    });
  });

  it('counts matching lines, not occurrences, and clamps a range to the content', () => {
    expect(sliceContent(text, { grep: 'beta' })).toMatchObject({
      grepMatches: 2,
      grepTruncated: false,
      startLine: 1,
      endLine: 5,
    });
    expect(sliceContent(text, { startLine: 4.5, endLine: 99 })).toMatchObject({
      content: 'delta',
      startLine: 5,
      endLine: 5,
    });
  });

  it('is whitespace-significant', () => {
    expect(sliceContent(text, { grep: 'beta\t' })).toMatchObject({ grepMatches: 0, content: '' });
    expect(sliceContent(text, { grep: 'A B' })).toMatchObject({
      grepMatches: 1,
      content: '1-alpha\n2-Beta\n3-gamma\n4:BETA beta\n5-delta',
    });
  });
});

describe('a broad grep stays small', () => {
  const testLog = [
    ...Array.from({ length: 2_999 }, (_, index) => `ok ${index + 1} - test_case_${index + 1}`),
    '# pass 2999',
  ].join('\n');

  it('renders the windows of the first 20 matches only, merged for display, and says where to page on', () => {
    const slice = sliceContent(testLog, { grep: 'test_case_' });
    expect(slice).toMatchObject({
      partial: true,
      grepMatches: 2_999,
      grepTruncated: true,
      nextStartLine: 21,
      startLine: 1,
      endLine: 3_000,
    });
    // Twenty adjacent matches merge into one window: the matches and three lines after the last.
    const rendered = slice.content.split('\n');
    expect(rendered).toHaveLength(23);
    expect(rendered[0]).toBe('1:ok 1 - test_case_1');
    expect(rendered[22]).toBe('23:ok 23 - test_case_23');
  });

  it('pages on from nextStartLine to the following 20 matches', () => {
    const page = sliceContent(testLog, { grep: 'test_case_', startLine: 21 });
    expect(page).toMatchObject({ grepMatches: 2_979, grepTruncated: true, nextStartLine: 41, startLine: 21 });
    expect(page.content.split('\n')[0]).toBe('21:ok 21 - test_case_21');
    const last = sliceContent(testLog, { grep: 'test_case_', startLine: 2_990 });
    expect(last).toMatchObject({ grepMatches: 10, grepTruncated: false });
    expect(last).not.toHaveProperty('nextStartLine');
  });

  it('keeps separate windows apart with -- and counts matches, not windows, against the limit', () => {
    const lines = Array.from({ length: 400 }, (_, index) =>
      index % 10 === 0 ? `Error: boom ${index + 1}` : `fine ${index + 1}`,
    );
    const slice = sliceContent(lines.join('\n'), { grep: 'error:' });
    expect(slice).toMatchObject({ grepMatches: 40, grepTruncated: true, nextStartLine: 201 });
    expect(slice.content.split('\n--\n')).toHaveLength(20);
    expect(slice.content).not.toContain('Error: boom 201');
  });

  it('is not truncated at exactly 20 matches', () => {
    const lines = Array.from({ length: 20 }, (_, index) => `match ${index + 1}`);
    expect(sliceContent(lines.join('\n'), { grep: 'match' })).toMatchObject({ grepMatches: 20, grepTruncated: false });
  });
});

describe('grepProblem', () => {
  it('refuses empty, whitespace-only and oversized patterns', () => {
    expect(grepProblem('')).not.toBeNull();
    expect(grepProblem(' \t')).not.toBeNull();
    expect(grepProblem('x'.repeat(257))).not.toBeNull();
    expect(grepProblem(' x ')).toBeNull();
    expect(grepProblem(undefined)).toBeNull();
  });
});

describe('ageBucket', () => {
  it.each([
    [0, 'lt_1m'],
    [59_999, 'lt_1m'],
    [60_000, 'lt_5m'],
    [29 * 60_000, 'lt_30m'],
    [119 * 60_000, 'lt_2h'],
    [3.9 * 3_600_000, 'lt_4h'],
    [11 * 3_600_000, 'lt_12h'],
    [23 * 3_600_000, 'lt_24h'],
    [47 * 3_600_000, 'lt_48h'],
    [48 * 3_600_000, 'gte_48h'],
  ])('buckets %d ms as %s', (age, bucket) => {
    expect(ageBucket(age)).toBe(bucket);
  });

  it('is absent when the age is unknown', () => {
    expect(ageBucket(undefined)).toBeUndefined();
    expect(ageBucket(Number.NaN)).toBeUndefined();
  });
});
