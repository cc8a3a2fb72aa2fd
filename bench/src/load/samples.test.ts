import { describe, expect, it } from 'vitest';
import { Samples, mergeSamples, percentile } from './samples.js';

describe('percentile', () => {
  it('takes the nearest rank of unsorted samples', () => {
    const values = Float64Array.from([5, 1, 4, 2, 3, 10, 9, 8, 7, 6]);
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 99)).toBe(10);
    expect(percentile(values, 10)).toBe(1);
  });

  it('is NaN without samples, so an empty phase never reads as zero latency', () => {
    expect(percentile(new Float64Array(0), 50)).toBeNaN();
  });
});

describe('Samples', () => {
  it('keeps at most its capacity and returns what it kept', () => {
    const samples = new Samples(2);
    samples.add(1);
    samples.add(2);
    samples.add(3);
    expect([...samples.toArray()]).toEqual([1, 2]);
  });

  it('merges rounds into one series', () => {
    expect([...mergeSamples([Float64Array.from([1, 2]), Float64Array.from([3])])]).toEqual([1, 2, 3]);
  });
});
