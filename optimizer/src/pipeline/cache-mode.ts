import type { OptimizeCapabilities } from '@gw/contracts';
import type { RequestView } from '../format/request-view.js';

/** `protect`: the upstream keeps a prompt cache, so bytes it has already seen must not change. */
export type CacheMode = 'protect' | 'none';

// Families whose providers cache prompt prefixes implicitly, without client markers.
const implicitCacheModels =
  /^(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-|o[1-9](?:-|$)|codex|deepseek|gemini-(?:2\.5|[3-9])|grok|kimi|qwen)/i;

export function cachesImplicitly(model: string | undefined): boolean {
  if (!model) return false;
  const bare = model.slice(model.lastIndexOf('/') + 1);
  return implicitCacheModels.test(bare);
}

/**
 * `providerPromptCache` says the upstream caches regardless of model id; `providerPromptCacheKnown`
 * makes a false an answer that releases cache-busting; absent, classify by model id. Both speak of implicit caching:
 * a client that sets `cache_control` breakpoints asks for caching explicitly (the gateway answers false for every
 * Messages-family route), and its cached prefix is protected whatever the route.
 */
export function resolveCacheMode(capabilities: OptimizeCapabilities, view: RequestView): CacheMode {
  if (capabilities.providerPromptCache === true || view.explicitCacheControl) return 'protect';
  if (capabilities.providerPromptCacheKnown === true) return 'none';
  return cachesImplicitly(view.model) ? 'protect' : 'none';
}
