import type { IncomingHttpHeaders } from 'node:http';

// The client header families kept on subscription passthrough.
const keptPrefixes = [
  'user-agent',
  'anthropic-',
  'x-anthropic-',
  'x-app',
  'x-claude-',
  'x-cc-',
  'x-client-',
  'x-stainless-',
];

// Edge-infrastructure and hop-by-hop headers never forwarded, even with `x-gw-custom-host`.
const edgeHeaders =
  /^(x-forwarded-.*|forwarded|x-real-ip|via|cf-.*|true-client-ip|x-envoy-.*|x-amzn-.*|x-cloud-trace-context|traceparent|tracestate|x-request-start|connection|keep-alive|transfer-encoding|te|trailer|upgrade|proxy-.*|host|content-length|cookie|accept-encoding)$/;

/** The developer's own subscription credential, when the gateway identity travels in `x-gw-api-key`. */
export function subscriptionCredential(
  headers: IncomingHttpHeaders,
): { header: 'authorization' | 'x-api-key'; value: string } | null {
  const authorization = headers.authorization;
  if (
    typeof authorization === 'string' &&
    /^Bearer\s+\S+/i.test(authorization) &&
    !/^Bearer\s+ark_/i.test(authorization)
  )
    return { header: 'authorization', value: authorization };
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.length > 0 && !apiKey.startsWith('ark_'))
    return { header: 'x-api-key', value: apiKey };
  return null;
}

/**
 * Headers sent upstream on a subscription seat: the kept client families plus the client's own credential. With
 * `x-gw-custom-host` the client keeps all its own headers (minus edge infrastructure and gateway controls).
 */
export function subscriptionUpstreamHeaders(
  headers: IncomingHttpHeaders,
  credential: { header: string; value: string },
  keepAll: boolean,
): Record<string, string> {
  const out: Record<string, string> = { 'content-type': 'application/json', 'accept-encoding': 'identity' };
  for (const [name, value] of Object.entries(headers)) {
    if (
      typeof value !== 'string' ||
      name.startsWith('x-gw-') ||
      edgeHeaders.test(name) ||
      name === 'authorization' ||
      name === 'x-api-key'
    )
      continue;
    if (keepAll || keptPrefixes.some((prefix) => name.startsWith(prefix))) out[name] = value;
  }
  out['anthropic-version'] ??= '2023-06-01';
  out[credential.header] = credential.value;
  return out;
}
