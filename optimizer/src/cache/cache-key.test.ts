import { describe, expect, it } from 'vitest';
import { mintCacheKey, openCacheKey, readCacheKey } from './cache-key.js';
import { endpointScope } from './endpoint-scope.js';
import { normalizedRequestHash as scopedHash } from './normalize-request.js';
import { cachePartition } from './partition.js';

const secret = Buffer.alloc(32, 7);
const chat = endpointScope('/v1/chat/completions');
const normalizedRequestHash = (request: Record<string, unknown>) => scopedHash(chat, request);

describe('cache keys', () => {
  it('open only under the partition they were minted for', () => {
    const parts = { lane: 'l' as const, endpointScope: chat, requestHash: 'a'.repeat(64) };
    const key = mintCacheKey(secret, 'default\u0000user\u0000ada', parts);
    expect(openCacheKey(secret, 'default\u0000user\u0000ada', key)).toEqual(parts);
    expect(openCacheKey(secret, 'default\u0000user\u0000bob', key)).toBeNull();
    expect(openCacheKey(secret, 'default\u0000user\u0000ada', key.replace('.l.', '.s.'))).toBeNull();
    expect(openCacheKey(Buffer.alloc(32, 8), 'default\u0000user\u0000ada', key)).toBeNull();
  });

  it('carry the endpoint they were minted for, and open for no other', () => {
    const messages = endpointScope('/v1/messages');
    const key = mintCacheKey(secret, 'default\u0000user\u0000ada', {
      lane: 'l',
      endpointScope: chat,
      requestHash: 'a'.repeat(64),
    });
    expect(key).toMatch(/^gwc2\.l\.[0-9a-f]{32}\.[0-9a-f]{64}\.[0-9a-f]{32}$/);
    expect(readCacheKey(key)?.endpointScope).toBe(chat);
    expect(openCacheKey(secret, 'default\u0000user\u0000ada', key.replace(chat, messages))).toBeNull();
    // A key minted before the endpoint was part of it opens nowhere.
    expect(openCacheKey(secret, 'default\u0000user\u0000ada', `gwc1.l.${'a'.repeat(64)}.${'0'.repeat(32)}`)).toBeNull();
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
    expect(
      normalizedRequestHash({ messages: [{ content: 'hi \r\n', role: 'user' }], model: 'm', stream: true, user: 'x' }),
    ).toBe(base);
    expect(normalizedRequestHash({ model: 'm', messages: [{ role: 'user', content: 'hi!' }] })).not.toBe(base);
    expect(normalizedRequestHash({ model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 1 })).not.toBe(
      base,
    );
  });

  it('tells the same body on two endpoints apart, and is the same on the same endpoint every time', () => {
    const request = { model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'x' }] };
    expect(scopedHash(endpointScope('/v1/messages'), request)).not.toBe(normalizedRequestHash(request));
    expect(scopedHash(endpointScope('/v1/messages'), request)).toBe(
      scopedHash(endpointScope('/v1/messages'), { ...request }),
    );
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
