import { describe, expect, it } from 'vitest';
import { buildRequestView } from '../format/build-request-view.js';
import { resolveCacheMode } from './cache-mode.js';

function messagesView(cacheControl: boolean, model = 'claude-sonnet-4-5') {
  const system = [
    {
      type: 'text',
      text: 'You are a coding agent.',
      ...(cacheControl ? { cache_control: { type: 'ephemeral' } } : {}),
    },
  ];
  const view = buildRequestView('/v1/messages', {
    model,
    max_tokens: 1024,
    system,
    messages: [{ role: 'user', content: 'hi' }],
  });
  if (!view) throw new Error('no view');
  return view;
}

describe('resolveCacheMode', () => {
  const anthropicRoute = { providerPromptCache: false, providerPromptCacheKnown: true };

  it('protects a prefix the client asked to cache with cache_control, even on a route without implicit caching', () => {
    expect(resolveCacheMode(anthropicRoute, messagesView(true))).toBe('protect');
  });

  it('releases cache-busting when the route answers that nothing is cached implicitly and the client set no breakpoint', () => {
    expect(resolveCacheMode(anthropicRoute, messagesView(false))).toBe('none');
  });

  it('protects whenever the gateway says the upstream caches, and classifies by model id when it does not know', () => {
    expect(resolveCacheMode({ providerPromptCache: true, providerPromptCacheKnown: true }, messagesView(false))).toBe(
      'protect',
    );
    expect(resolveCacheMode({}, messagesView(false, 'gpt-4.1'))).toBe('protect');
    expect(resolveCacheMode({}, messagesView(false))).toBe('none');
  });
});
