import type { IncomingHttpHeaders } from 'node:http';

/**
 * spec 000 §5: the key arrives as `Authorization: Bearer`, `x-gw-api-key` or `x-api-key` (Messages-native clients).
 * `x-gw-api-key` wins so a subscription-passthrough client can carry its vendor token in Authorization.
 */
export function extractClientKey(headers: IncomingHttpHeaders): string | null {
  const explicit = single(headers['x-gw-api-key']);
  if (explicit) return explicit.trim();
  const authorization = single(headers.authorization);
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match?.[1]?.startsWith('ark_')) return match[1].trim();
  }
  const apiKey = single(headers['x-api-key']);
  if (apiKey?.startsWith('ark_')) return apiKey.trim();
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match?.[1]) return match[1].trim();
  }
  return apiKey ? apiKey.trim() : null;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
