import type { IncomingHttpHeaders } from 'node:http';

/**
 * The key arrives as `Authorization: Bearer`, `x-gw-api-key` or `x-api-key` (Messages-native clients).
 * A WebSocket upgrade may carry it as a subprotocol instead (`subprotocolKey`). `x-gw-api-key` wins so a subscription-passthrough client can carry its vendor token in Authorization.
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
  if (apiKey) return apiKey.trim();
  return subprotocolKey(headers);
}

/** The WebSocket subprotocol that carries a key where browsers cannot set headers (`openai-insecure-api-key.<key>`). */
export const keySubprotocolPrefix = 'openai-insecure-api-key.';

/** A browser's realtime client offers its key as a subprotocol of the upgrade; only an upgrade is read for it. */
function subprotocolKey(headers: IncomingHttpHeaders): string | null {
  const offered = single(headers['sec-websocket-protocol']);
  if (!offered || single(headers.upgrade)?.toLowerCase() !== 'websocket') return null;
  for (const protocol of offered.split(',')) {
    const trimmed = protocol.trim();
    if (trimmed.startsWith(keySubprotocolPrefix) && trimmed.length > keySubprotocolPrefix.length)
      return trimmed.slice(keySubprotocolPrefix.length);
  }
  return null;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
