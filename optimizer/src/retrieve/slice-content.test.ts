import { describe, expect, it } from 'vitest';
import { ageBucket } from './age-bucket.js';
import { grepProblem, sliceContent } from './slice-content.js';

const text = ['alpha', 'Beta', 'gamma', 'BETA beta', 'delta'].join('\n');

describe('sliceContent', () => {
  it('returns the whole original, byte for byte, when nothing narrows it', () => {
    expect(sliceContent(`${text}\r\n`, {})).toEqual({ partial: false, content: `${text}\r\n` });
  });

  it('keeps carriage returns inside a range so the bytes match the original lines', () => {
    expect(sliceContent('a\r\nb\r\nc', { startLine: 2, endLine: 2 })).toMatchObject({ content: 'b\r', startLine: 2, endLine: 2 });
  });

  it('counts matching lines, not occurrences, and clamps a range to the content', () => {
    expect(sliceContent(text, { grep: 'beta' })).toMatchObject({ grepMatches: 2, grepTruncated: false, startLine: 1, endLine: 5 });
    expect(sliceContent(text, { startLine: 4.5, endLine: 99 })).toMatchObject({ content: 'delta', startLine: 5, endLine: 5 });
  });

  it('is whitespace-significant', () => {
    expect(sliceContent(text, { grep: 'beta\t' })).toMatchObject({ grepMatches: 0, content: '' });
    expect(sliceContent(text, { grep: 'A B' })).toMatchObject({ grepMatches: 1, content: '1-alpha\n2-Beta\n3-gamma\n4:BETA beta\n5-delta' });
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
