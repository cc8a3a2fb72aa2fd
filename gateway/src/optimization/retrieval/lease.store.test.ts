import { describe, expect, it } from 'vitest';
import { ManualClock, MemoryCoord } from '@gw/platform';
import { coordWith } from '@gw/testkit';
import { RetrievalLeaseStore, lapsedLeaseMemoryMs, retrievalLeaseMs } from './lease.store.js';

describe('RetrievalLeaseStore', () => {
  it('holds a lease for six hours from the last renewal, per key', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const lease = new RetrievalLeaseStore(new MemoryCoord({ clock }), clock);
    expect(await lease.isLeased('key_a')).toBe(false);
    expect(await lease.renew('key_a')).toBe(clock.now() + retrievalLeaseMs);
    clock.advance(retrievalLeaseMs - 1);
    expect(await lease.isLeased('key_a')).toBe(true);
    expect(await lease.isLeased('key_b')).toBe(false);
    await lease.renew('key_a');
    clock.advance(retrievalLeaseMs - 1);
    expect(await lease.isLeased('key_a')).toBe(true);
    clock.advance(1);
    expect(await lease.isLeased('key_a')).toBe(false);
    expect(await lease.expiresAt('key_a')).toBeNull();
  });

  it('tells a lapsed lease from none, and forgets the lapse after a month', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const lease = new RetrievalLeaseStore(new MemoryCoord({ clock }), clock);
    expect(await lease.standing('key_a')).toBe('none');
    await lease.renew('key_a');
    expect(await lease.standing('key_a')).toBe('live');
    clock.advance(retrievalLeaseMs);
    expect(await lease.standing('key_a')).toBe('lapsed');
    expect(await lease.isLeased('key_a')).toBe(false);
    await lease.renew('key_a');
    expect(await lease.standing('key_a')).toBe('live');
    clock.advance(retrievalLeaseMs + lapsedLeaseMemoryMs);
    expect(await lease.standing('key_a')).toBe('none');
  });

  it('answers "not leased" when Coord is down, and lets renewal failures surface', async () => {
    const clock = new ManualClock(0);
    const redisDown = () => Promise.reject(new Error('redis down'));
    const down = coordWith(new MemoryCoord({ clock }), { getValue: redisDown, setValue: redisDown });
    const lease = new RetrievalLeaseStore(down, clock);
    expect(await lease.isLeased('key_a')).toBe(false);
    await expect(lease.renew('key_a')).rejects.toThrow('redis down');
  });
});
