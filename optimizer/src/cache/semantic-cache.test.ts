import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '@gw/platform';
import { SemanticCache } from './semantic-cache.js';

const partition = 'default\u0000user\u0000ada';
const answer = { id: 'chatcmpl-1', choices: [{ message: { role: 'assistant', content: 'Paris.' } }] };
const exact = 'e'.repeat(64);

function cacheWith(shadow: boolean) {
  const cache = new SemanticCache({ clock: new ManualClock() });
  cache.store(partition, exact, answer, 600, shadow, null);
  return cache;
}

describe('SemanticCache near-duplicate hash', () => {
  it('is never computed for an exact hit that is served', () => {
    const nearHash = vi.fn(() => 'n'.repeat(64));
    expect(cacheWith(false).lookup(partition, { requestHash: exact, nearHash }, true)).toEqual({
      response: answer,
      tier: 'exact',
    });
    expect(nearHash).not.toHaveBeenCalled();
  });

  it('is computed once on a miss, which it looks up and indexes the written-back answer by', () => {
    const cache = cacheWith(false);
    const nearHash = vi.fn(() => 'n'.repeat(64));
    const other = 'o'.repeat(64);
    expect(cache.lookup(partition, { requestHash: other, nearHash }, true)).toBeNull();
    expect(nearHash).toHaveBeenCalledTimes(1);
    // The shared-token write-back carries no request: the hash seen at lookup indexes its entry.
    cache.store(partition, other, answer, 600, false);
    const layoutTwin = { requestHash: 't'.repeat(64), nearHash: () => 'n'.repeat(64) };
    expect(cache.lookup(partition, layoutTwin, true)).toEqual({ response: answer, tier: 'near' });
  });

  it('is computed for an exact hit that is not served, whose live answer is written back next', () => {
    const nearHash = vi.fn(() => null);
    expect(cacheWith(true).lookup(partition, { requestHash: exact, nearHash }, true)).toBeNull();
    expect(cacheWith(false).lookup(partition, { requestHash: exact, nearHash }, false)).toBeNull();
    expect(nearHash).toHaveBeenCalledTimes(2);
  });
});
