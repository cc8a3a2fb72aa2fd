import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const release = Symbol('gw.unauthenticated-connection.release');
type TrackedSocket = Socket & { [release]?: () => void };

export interface ConnectionCapOptions {
  /** Concurrent unauthenticated connections one address may hold; 0 = no cap. */
  maxPerAddress: number;
  /** Addresses never capped (the proxies in front, whose pooled connections carry many clients). */
  exempt?: (address: string) => boolean;
  /** Called for each connection refused (for a log line or a metric). */
  onRefused?: (address: string) => void;
}

const refusal = JSON.stringify({
  error: {
    code: 'too_many_connections',
    message: 'Too many unauthenticated connections from this address; authenticate on an open one or retry later.',
  },
});
const refusalResponse = `HTTP/1.1 429 Too Many Requests\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(refusal)}\r\nretry-after: 1\r\n\r\n${refusal}`;

/** IPv4 clients of a dual-stack listener appear as `::ffff:a.b.c.d`. */
export const plainAddress = (address: string): string =>
  address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;

/**
 * Caps the connections one address holds before any request on them authenticated: many sockets opened and fed a byte
 * at a time (or not at all) cannot starve the server, whatever the timeouts. A connection stops counting once a request
 * on it authenticated (`markConnectionAuthenticated`) or it closes. Past the cap a new connection is answered 429 and
 * closed at once.
 */
export function capUnauthenticatedConnections(server: Server, options: ConnectionCapOptions): void {
  if (options.maxPerAddress <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: TrackedSocket) => {
    const address = plainAddress(socket.remoteAddress ?? '');
    if (options.exempt?.(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= options.maxPerAddress) {
      options.onRefused?.(address);
      socket.end(refusalResponse);
      return;
    }
    open.set(address, count + 1);
    let counted = true;
    const forget = () => {
      if (!counted) return;
      counted = false;
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    };
    socket[release] = forget;
    socket.once('close', forget);
  });
}

/** A request on this connection authenticated: it no longer counts against its address's cap. */
export function markConnectionAuthenticated(socket: Socket): void {
  (socket as TrackedSocket)[release]?.();
}
