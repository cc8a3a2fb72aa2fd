import { describe, expect, it } from 'vitest';
import { KeyReadBatch } from './key-read-batch.js';

function recordingStore(rows: Record<string, string>) {
  const queries: string[][] = [];
  const batch = new KeyReadBatch<string>(async (hashes) => {
    queries.push(hashes);
    return new Map(hashes.flatMap((hash) => (rows[hash] ? [[hash, rows[hash]] as const] : [])));
  }, 3);
  return { batch, queries };
}

describe('KeyReadBatch', () => {
  it('answers the reads of one event-loop turn with one query, each with its own row', async () => {
    const { batch, queries } = recordingStore({ a: 'row a', b: 'row b' });
    expect(await Promise.all([batch.read('a'), batch.read('b'), batch.read('a'), batch.read('missing')])).toEqual([
      'row a',
      'row b',
      'row a',
      undefined,
    ]);
    expect(queries).toEqual([['a', 'b', 'missing']]);
  });

  it('never lets a later read join a query already sent (a fresh read per request, not a cache)', async () => {
    const { batch, queries } = recordingStore({ a: 'row a' });
    await batch.read('a');
    await batch.read('a');
    expect(queries).toEqual([['a'], ['a']]);
  });

  it('sends a full batch at once and starts another', async () => {
    const { batch, queries } = recordingStore({});
    await Promise.all(['a', 'b', 'c', 'd'].map((hash) => batch.read(hash)));
    expect(queries).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('fails every read of a batch whose query fails (identity answers 503 key_store_unavailable)', async () => {
    const batch = new KeyReadBatch<string>(async () => {
      throw new Error('connection refused');
    });
    const reads = [batch.read('a'), batch.read('b')].map((read) =>
      read.then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
    );
    expect(await Promise.all(reads)).toEqual(['connection refused', 'connection refused']);
  });
});

describe('KeyReadBatch while a query is in flight', () => {
  it('holds the reads of later turns until the query settles, then sends them as one query', async () => {
    const queries: string[][] = [];
    const answers: Array<() => void> = [];
    const batch = new KeyReadBatch<string>(
      (hashes) =>
        new Promise((resolve) => {
          queries.push(hashes);
          answers.push(() => resolve(new Map(hashes.map((hash) => [hash, `row ${hash}`]))));
        }),
    );
    const first = batch.read('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(queries).toEqual([['a']]);
    // Two more turns pass while the first query is out: their reads wait and then share one query.
    const second = batch.read('b');
    await new Promise((resolve) => setImmediate(resolve));
    const third = batch.read('c');
    await new Promise((resolve) => setImmediate(resolve));
    expect(queries).toEqual([['a']]);
    answers[0]?.();
    expect(await first).toBe('row a');
    expect(queries).toEqual([['a'], ['b', 'c']]);
    answers[1]?.();
    expect(await Promise.all([second, third])).toEqual(['row b', 'row c']);
  });
});
