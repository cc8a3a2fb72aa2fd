import { describe, expect, it } from 'vitest';
import { mintCacheKey, openCacheKey } from './cache-key.js';
import { normalizedRequestHash } from './normalize-request.js';
import { cachePartition } from './partition.js';

const secret = Buffer.alloc(32, 7);

describe('cache keys', () => {
  it('open only under the partition they were minted for', () => {
    const key = mintCacheKey(secret, 'default\u0000user\u0000ada', { lane: 'l', requestHash: 'a'.repeat(64) });
    expect(openCacheKey(secret, 'default\u0000user\u0000ada', key)).toEqual({ lane: 'l', requestHash: 'a'.repeat(64) });
    expect(openCacheKey(secret, 'default\u0000user\u0000bob', key)).toBeNull();
    expect(openCacheKey(secret, 'default\u0000user\u0000ada', key.replace('.l.', '.s.'))).toBeNull();
    expect(openCacheKey(Buffer.alloc(32, 8), 'default\u0000user\u0000ada', key)).toBeNull();
  });
});

describe('cachePartition', () => {
  it('takes user, then team, then gateway session, never the userId/teamId aliases', () => {
    expect(cachePartition({ user: 'ada', team: 'core', gatewaySessionId: 'g' })).toBe('default\u0000user\u0000ada');
    expect(cachePartition({ team: 'core', gatewaySessionId: 'g', tenant: 'acme' })).toBe('acme\u0000team\u0000core');
    expect(cachePartition({ gatewaySessionId: 'g' })).toBe('default\u0000session\u0000g');
    expect(cachePartition({ userId: 'ada', teamId: 'core', sessionId: 's' })).toBeNull();
    expect(cachePartition({ user: 'ada', tenant: 'globex' }, 'acme')).toBe('acme\u0000user\u0000ada');
  });
});

describe('normalizedRequestHash', () => {
  it('ignores key order, delivery fields and trailing whitespace but not content or sampling', () => {
    const base = normalizedRequestHash({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(normalizedRequestHash({ messages: [{ content: 'hi \r\n', role: 'user' }], model: 'm', stream: true, user: 'x' })).toBe(base);
    expect(normalizedRequestHash({ model: 'm', messages: [{ role: 'user', content: 'hi!' }] })).not.toBe(base);
    expect(normalizedRequestHash({ model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 1 })).not.toBe(base);
  });

  it('normalizes long strings the same way, and tells them apart by content however often they are seen', () => {
    const log = Array.from({ length: 400 }, (_, index) => `line ${index} of the build log`).join('\n');
    const request = (content: string) => ({ model: 'm', messages: [{ role: 'tool', content }] });
    const base = normalizedRequestHash(request(log));
    expect(normalizedRequestHash(request(`${log.replaceAll('\n', '  \r\n')}\n`))).toBe(base);
    expect(normalizedRequestHash(request(log))).toBe(base);
    const edited = log.replace('line 200 of', 'line 2OO of');
    expect(edited.length).toBe(log.length);
    expect(normalizedRequestHash(request(edited))).not.toBe(base);
    // A short string is never confused with a long one's digest.
    expect(normalizedRequestHash(request('short'))).not.toBe(base);
  });
});
