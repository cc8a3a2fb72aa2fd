import { describe, expect, it } from 'vitest';
import { parseOptimizerOptions } from './options.js';

describe('parseOptimizerOptions', () => {
  it('defaults to the shared corpus beside the repository, 30 s between turns and every session', () => {
    expect(parseOptimizerOptions([], '/work/main')).toEqual({
      corpusDirs: ['/work/shared/corpus'],
      thinkMs: 30_000,
      limit: undefined,
      only: undefined,
      retrieveEvidence: false,
      lane: 'default',
      pgUrl: undefined,
      perSession: false,
    });
  });

  it('takes several corpora, a think time past the cache lifetime and the retrieval lease', () => {
    const options = parseOptimizerOptions(
      ['--corpus', '/a', '--corpus', '/b', '--think-seconds', '400', '--retrieve-evidence', '--limit', '3'],
      '/repo',
    );
    expect(options).toMatchObject({ corpusDirs: ['/a', '/b'], thinkMs: 400_000, retrieveEvidence: true, limit: 3 });
  });

  it('takes the connected lane and refuses any other name', () => {
    expect(parseOptimizerOptions(['--lane', 'connected'], '/repo').lane).toBe('connected');
    expect(() => parseOptimizerOptions(['--lane', 'turbo'], '/repo')).toThrow(
      '--lane must be one of default, connected, got turbo',
    );
  });

  it('rejects unknown flags and nonsense numbers', () => {
    expect(() => parseOptimizerOptions(['--turbo'], '/repo')).toThrow();
    expect(() => parseOptimizerOptions(['--limit', '0'], '/repo')).toThrow('--limit must be a number ≥ 1, got 0');
    expect(() => parseOptimizerOptions(['--think-seconds', 'soon'], '/repo')).toThrow(
      '--think-seconds must be a number ≥ 0, got soon',
    );
  });
});
