import { hash } from 'node:crypto';
import type { ProviderFamily } from '../providers/provider-types.js';
import type { CacheSettings } from '../routing/cache-settings.js';
import type { RoutingNode } from '../routing/routing-config.js';

/**
 * `use`: a stored answer may be served and a fresh one is written back. `refresh`: never served, but the fresh
 * answer replaces the entry (`Cache-Control: no-cache`). `bypass`: never served; at most a measurement-only write,
 * and none at all under `no-store`.
 */
export type CacheMode = 'use' | 'refresh' | 'bypass';

export interface CachePolicy {
  mode: CacheMode;
  /** Why the cache is not used, for logs and tests (`sampled`, `no_store`, `no_cache`, `stream`, `off`, ...). */
  reason: string | null;
  /** Whether any write, even a measurement-only one, may follow. */
  store: boolean;
  /**
   * What the partition the gateway hands the optimizer is made of: endpoint, producer, plan, billing lane and sharer.
   * Only a call that reaches an optimizer needs it as a digest (`cacheScopeOf`), so it is not hashed before then.
   */
  partition: readonly unknown[];
  /** The target whose answer an entry holds: a hit names it, and only its answer is written back. */
  producer: { provider: string; model: string };
  /** Seconds an entry written by this call lives (`max_age`), null: the optimizer's default. */
  maxAgeSeconds: number | null;
}

export interface CachePolicyInput {
  endpoint: string;
  body: Record<string, unknown> | undefined;
  /** `Cache-Control` request header. */
  cacheControl: string | undefined;
  /** `x-gw-cache-mode` request header: `simple`/`semantic` opt a sampled request in, `off` bypasses. */
  modeHeader: string | undefined;
  /** The `cache` block of the request's own routing config, then the stored routing's. */
  requestSettings: CacheSettings | null;
  storedSettings: CacheSettings | null | undefined;
  plan: RoutingNode;
  producer: { provider: string; model: string; family: ProviderFamily };
  billingLane: 'subscription' | 'api_key';
  caller: { user: string | null; team: string | null; keyId: string | null };
}

const optIn = new Set(['simple', 'semantic']);

/** Whether the request asks for the same answer every time: temperature 0, or a seed on a family that honours one. */
export function isDeterministic(
  body: Record<string, unknown> | undefined,
  family: ProviderFamily,
  endpoint: string,
): boolean {
  if (endpoint.endsWith('/embeddings')) return true;
  if (!body) return false;
  if (body.temperature === 0) return true;
  // Anthropic's API has no seed; an OpenAI-family seed makes sampling repeatable.
  return family === 'openai' && typeof body.seed === 'number' && Number.isInteger(body.seed);
}

function cacheControlDirectives(header: string | undefined): Set<string> {
  return new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split('=')[0])
      .filter((part) => part.length > 0),
  );
}

/** The end user a service key speaks for: OpenAI's `user`, or Anthropic's `metadata.user_id`. */
function endUserOf(body: Record<string, unknown> | undefined): string {
  if (!body) return '';
  if (typeof body.user === 'string') return body.user;
  const metadata = body.metadata;
  if (
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof (metadata as { user_id?: unknown }).user_id === 'string'
  )
    return (metadata as { user_id: string }).user_id;
  return '';
}

/** Who shares an entry: each user or service key (and the end user it names) unless the team is configured to share. */
function sharerOf(input: CachePolicyInput, share: CacheSettings['share']): string[] {
  if (share === 'team' && input.caller.team) return ['team', input.caller.team];
  const owner = input.caller.user ? ['user', input.caller.user] : ['key', input.caller.keyId ?? 'anonymous'];
  return [...owner, endUserOf(input.body)];
}

/**
 * The response cache's rule for one call: which calls may be served from it, which may write to it, and the partition
 * that keeps one route's, one billing lane's and one caller's answers from another's. The request's body is hashed by
 * the optimizer (every field that can change the answer), the endpoint keeps the client format apart, and the scope
 * here adds what the body does not say: the resolved provider, upstream model and plan, the lane and the sharer.
 */
export function decideCachePolicy(input: CachePolicyInput): CachePolicy {
  const stored = input.storedSettings ?? {};
  const settings = { ...stored, ...(input.requestSettings ?? {}), share: stored.share };
  const producer = { provider: input.producer.provider, model: input.producer.model };
  const partition = [
    input.endpoint,
    producer.provider,
    producer.model,
    input.plan,
    input.billingLane,
    ...sharerOf(input, settings.share),
  ];
  const base = { partition, producer, maxAgeSeconds: settings.max_age ?? null };
  const directives = cacheControlDirectives(input.cacheControl);
  const modeHeader = input.modeHeader?.trim().toLowerCase();
  if (directives.has('no-store')) return { ...base, mode: 'bypass', reason: 'no_store', store: false };
  if (modeHeader === 'off' || (modeHeader === undefined && settings.mode === 'off'))
    return { ...base, mode: 'bypass', reason: 'off', store: false };
  if (input.body?.stream === true) return { ...base, mode: 'bypass', reason: 'stream', store: true };
  // Several choices are measured by the optimizer's shadow tier, never served.
  if (typeof input.body?.n === 'number' && input.body.n > 1)
    return { ...base, mode: 'bypass', reason: 'choices', store: true };
  const optedIn =
    (modeHeader !== undefined && optIn.has(modeHeader)) || (settings.mode !== undefined && optIn.has(settings.mode));
  if (!optedIn && !isDeterministic(input.body, input.producer.family, input.endpoint))
    return { ...base, mode: 'bypass', reason: 'sampled', store: true };
  if (directives.has('no-cache') || directives.has('max-age')) {
    // `max-age=0` is how many clients say no-cache; a longer one asks for nothing this cache cannot give.
    const maxAge = /max-age\s*=\s*(\d+)/i.exec(input.cacheControl ?? '');
    if (directives.has('no-cache') || (maxAge && Number(maxAge[1]) === 0))
      return { ...base, mode: 'refresh', reason: 'no_cache', store: true };
  }
  return { ...base, mode: 'use', reason: null, store: true };
}

/** The cache partition as the optimizer receives it: a digest of what the policy partitions by. */
export function cacheScopeOf(policy: Pick<CachePolicy, 'partition'>): string {
  return hash('sha256', JSON.stringify(policy.partition), 'base64url').slice(0, 32);
}
