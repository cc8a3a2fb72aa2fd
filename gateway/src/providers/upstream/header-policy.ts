import type { IncomingHttpHeaders } from 'node:http';

// Client headers a provider needs to honour the request as sent (feature flags and API versions), forwarded on
// every lane. Credentials (authorization, x-api-key, x-gw-*), cookies and hop-by-hop headers never are.
const forwardedClientHeaders = ['anthropic-version', 'anthropic-beta', 'openai-beta', 'accept', 'user-agent'] as const;

export const defaultAnthropicVersion = '2023-06-01';

export function upstreamHeaders(
  client: IncomingHttpHeaders,
  family: 'openai' | 'anthropic',
  credential: Record<string, string>,
  crossing: boolean,
): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'accept-encoding': 'identity' };
  for (const name of forwardedClientHeaders) {
    const value = client[name];
    if (typeof value !== 'string') continue;
    // A version header of the other family means nothing to this provider.
    if (crossing && (name === 'anthropic-version' || name === 'anthropic-beta' || name === 'openai-beta')) continue;
    headers[name] = value;
  }
  // Newer SDKs send anthropic-version dates we do not know; forward them unchanged and reject none.
  if (family === 'anthropic' && !headers['anthropic-version']) headers['anthropic-version'] = defaultAnthropicVersion;
  headers.accept = 'application/json, text/event-stream';
  return { ...headers, ...credential };
}

// Provider response headers a client may act on. Retry hints are capped (see `capRetryAfter`).
const relayedResponseHeaders = [
  'retry-after',
  'retry-after-ms',
  'x-ratelimit-limit-requests',
  'x-ratelimit-limit-tokens',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-requests',
  'x-ratelimit-reset-tokens',
  'anthropic-ratelimit-requests-limit',
  'anthropic-ratelimit-requests-remaining',
  'anthropic-ratelimit-requests-reset',
  'anthropic-ratelimit-tokens-limit',
  'anthropic-ratelimit-tokens-remaining',
  'anthropic-ratelimit-tokens-reset',
  'openai-processing-ms',
] as const;

/** Older OpenAI SDKs sleep for any Retry-After they get, so never tell a client to wait more than 60 s. */
export const maxRetryAfterSeconds = 60;

/** The named headers the upstream sent, as single values. */
export function pickHeaders(
  upstream: Record<string, string | string[] | undefined>,
  names: readonly string[],
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = upstream[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

export function relayHeaders(upstream: Record<string, string | string[] | undefined>): Record<string, string> {
  const relayed = pickHeaders(upstream, relayedResponseHeaders);
  if (relayed['retry-after'] !== undefined) relayed['retry-after'] = capRetryAfter(relayed['retry-after']);
  if (relayed['retry-after-ms'] !== undefined) {
    const ms = Number(relayed['retry-after-ms']);
    relayed['retry-after-ms'] = Number.isFinite(ms)
      ? String(Math.min(Math.max(ms, 0), maxRetryAfterSeconds * 1000))
      : String(maxRetryAfterSeconds * 1000);
  }
  return relayed;
}

/** Seconds or an HTTP date → whole seconds, capped at 60. */
export function capRetryAfter(value: string, now = Date.now()): string {
  const seconds = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : (Date.parse(value) - now) / 1000;
  if (!Number.isFinite(seconds)) return String(maxRetryAfterSeconds);
  return String(Math.min(Math.max(Math.ceil(seconds), 0), maxRetryAfterSeconds));
}

/** An error that came from the provider says so, naming the provider and its status when known. */
export function upstreamSourceHeaders(slug?: string, status?: number): Record<string, string> {
  return {
    'x-gw-error-source': 'upstream',
    ...(slug ? { 'x-gw-upstream-provider': slug } : {}),
    ...(status === undefined ? {} : { 'x-gw-upstream-status': String(status) }),
  };
}
