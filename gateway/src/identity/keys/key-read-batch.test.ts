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
