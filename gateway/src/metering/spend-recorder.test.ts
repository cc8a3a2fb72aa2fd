import { describe, expect, it } from 'vitest';
import type { SpendRecord } from './spend-record.js';
import { SpendRing } from './spend-recorder.js';

const record = (id: number) => ({ id: String(id) }) as SpendRecord;

describe('SpendRing', () => {
  it('keeps the latest records up to its capacity, oldest first', () => {
    const ring = new SpendRing(3);
    for (let id = 1; id <= 2; id += 1) ring.push(record(id));
    expect(ring.snapshot().map((entry) => entry.id)).toEqual(['1', '2']);
    for (let id = 3; id <= 7; id += 1) ring.push(record(id));
    expect(ring.snapshot().map((entry) => entry.id)).toEqual(['5', '6', '7']);
  });
});
