import { describe, expect, it } from 'vitest';
import { TextMemo } from './text-memo.js';

describe('TextMemo', () => {
  it('computes once per scope and text, and forgets the oldest past its entry or character bound', () => {
    const memo = new TextMemo<number>(2, 1_000);
    let computed = 0;
    const length = (text: string) => () => {
      computed += 1;
      return text.length;
    };
    expect(memo.get('a', 'x'.repeat(10), length('x'.repeat(10)))).toBe(10);
    expect(memo.get('a', 'x'.repeat(10), length('x'.repeat(10)))).toBe(10);
    expect(memo.get('b', 'x'.repeat(10), length('x'.repeat(10)))).toBe(10);
    expect(computed).toBe(2);
    memo.get('a', 'y', length('y'));
    // Two entries at most: the first one is gone.
    memo.get('a', 'x'.repeat(10), length('x'.repeat(10)));
    expect(computed).toBe(4);
    const chars = new TextMemo<string>(10, 100);
    chars.get(
      '',
      'k1',
      () => 'v'.repeat(60),
      (value) => value.length,
    );
    chars.get(
      '',
      'k2',
      () => 'v'.repeat(60),
      (value) => value.length,
    );
    let again = 0;
    chars.get('', 'k1', () => {
      again += 1;
      return '';
    });
    expect(again).toBe(1);
  });
});
