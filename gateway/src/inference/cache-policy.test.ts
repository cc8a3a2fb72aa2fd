import { describe, expect, it } from 'vitest';
import { singleTarget } from '../routing/routing-config.js';
import { cacheScopeOf, decideCachePolicy, isDeterministic, type CachePolicyInput } from './cache-policy.js';

const base: CachePolicyInput = {
  endpoint: '/v1/chat/completions',
  body: { model: 'gpt-4o', temperature: 0, messages: [{ role: 'user', content: 'hi' }] },
  cacheControl: undefined,
  modeHeader: undefined,
  requestSettings: null,
  storedSettings: null,
  plan: singleTarget('openai'),
  producer: { provider: 'openai', model: 'gpt-4o', family: 'openai' },
  billingLane: 'api_key',
  caller: { user: 'ada@example.com', team: 'compilers', keyId: 'key-1' },
};
const policy = (overrides: Partial<CachePolicyInput> = {}) => decideCachePolicy({ ...base, ...overrides });
const scopeOf = (overrides: Partial<CachePolicyInput> = {}) => cacheScopeOf(policy(overrides));

describe('response cache policy', () => {
  it('treats temperature 0, an OpenAI-family seed and embeddings as deterministic, and nothing else', () => {
    expect(isDeterministic({ temperature: 0 }, 'anthropic', '/v1/messages')).toBe(true);
    expect(isDeterministic({ seed: 3, temperature: 1 }, 'openai', '/v1/chat/completions')).toBe(true);
    expect(isDeterministic({ seed: 3 }, 'anthropic', '/v1/messages')).toBe(false);
    expect(isDeterministic({}, 'openai', '/v1/chat/completions')).toBe(false);
    expect(isDeterministic({ input: 'x' }, 'openai', '/v1/embeddings')).toBe(true);
  });

  it('partitions by billing lane, route, producer and caller', () => {
    const scope = scopeOf();
    expect(scopeOf({ billingLane: 'subscription' })).not.toBe(scope);
    expect(scopeOf({ producer: { provider: 'p2', model: 'gpt-4o', family: 'openai' } })).not.toBe(scope);
    expect(scopeOf({ producer: { provider: 'openai', model: 'gpt-4o-mini', family: 'openai' } })).not.toBe(scope);
    expect(scopeOf({ endpoint: '/v1/messages' })).not.toBe(scope);
    expect(scopeOf({ caller: { user: 'grace@example.com', team: 'compilers', keyId: 'key-2' } })).not.toBe(scope);
    expect(scopeOf({ body: { ...base.body, user: 'end-user' } })).not.toBe(scope);
    // Sharing across the team comes from the stored routing only: a request config cannot widen its partition.
    const teamShared = { storedSettings: { share: 'team' as const } };
    expect(scopeOf({ ...teamShared, caller: { user: 'grace@example.com', team: 'compilers', keyId: 'key-2' } })).toBe(
      scopeOf(teamShared),
    );
    expect(
      scopeOf({
        requestSettings: { share: 'team' } as never,
        caller: { user: 'grace@example.com', team: 'compilers', keyId: 'key-2' },
      }),
    ).not.toBe(scope);
  });

  it('reads Cache-Control, the per-request mode and the stored mode', () => {
    expect(policy({ cacheControl: 'no-store' })).toMatchObject({ mode: 'bypass', reason: 'no_store', store: false });
    expect(policy({ cacheControl: 'No-Cache' })).toMatchObject({ mode: 'refresh', store: true });
    expect(policy({ cacheControl: 'max-age=0' })).toMatchObject({ mode: 'refresh' });
    expect(policy({ cacheControl: 'max-age=600' })).toMatchObject({ mode: 'use' });
    const sampled = { body: { model: 'gpt-4o', temperature: 1.2 } };
    expect(policy(sampled)).toMatchObject({ mode: 'bypass', reason: 'sampled', store: true });
    expect(policy({ ...sampled, modeHeader: 'semantic' })).toMatchObject({ mode: 'use' });
    expect(policy({ ...sampled, storedSettings: { mode: 'simple', max_age: 30 } })).toMatchObject({
      mode: 'use',
      maxAgeSeconds: 30,
    });
    expect(policy({ storedSettings: { mode: 'off' } })).toMatchObject({ mode: 'bypass', reason: 'off', store: false });
    expect(policy({ storedSettings: { mode: 'off' }, modeHeader: 'simple' })).toMatchObject({ mode: 'use' });
    expect(policy({ body: { ...base.body, stream: true } })).toMatchObject({ mode: 'bypass', reason: 'stream' });
    expect(policy({ body: { ...base.body, n: 2 } })).toMatchObject({ mode: 'bypass', reason: 'choices' });
  });
});
