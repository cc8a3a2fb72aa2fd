import { describe, expect, it } from 'vitest';
import { cachePartition } from './partition.js';

describe('cache partition', () => {
  it('takes the gateway scope over the user, team and session, under the tenant', () => {
    const scoped = cachePartition({ user: 'ada', team: 'compilers', cacheScope: 'route-lane-sharer' });
    expect(scoped).toBe('default\u0000scope\u0000route-lane-sharer');
    expect(cachePartition({ user: 'grace', cacheScope: 'route-lane-sharer' })).toBe(scoped);
    expect(cachePartition({ user: 'ada', cacheScope: 'another-route' })).not.toBe(scoped);
    expect(cachePartition({ user: 'ada', cacheScope: 'route-lane-sharer' }, 'tenant-b')).toBe(
      'tenant-b\u0000scope\u0000route-lane-sharer',
    );
  });

  it('falls back to the user, the team, then the session when no scope is sent', () => {
    expect(cachePartition({ user: 'ada', team: 'compilers', cacheScope: ' ' })).toBe('default\u0000user\u0000ada');
    expect(cachePartition({ team: 'compilers' })).toBe('default\u0000team\u0000compilers');
    expect(cachePartition({ gatewaySessionId: 'gws_1' })).toBe('default\u0000session\u0000gws_1');
    expect(cachePartition({})).toBeNull();
  });
});
