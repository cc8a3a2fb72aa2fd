import { connect } from 'node:net';

const defaultPorts: Record<string, number> = {
  'postgres:': 5432,
  'postgresql:': 5432,
  'redis:': 6379,
  'rediss:': 6379,
};

/** True when something accepts a TCP connection at the URL's host and port (within `timeoutMs`). */
export function answersAt(url: string, timeoutMs = 1_000): Promise<boolean> {
  const parsed = new URL(url);
  const port = parsed.port === '' ? defaultPorts[parsed.protocol] : Number(parsed.port);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  return new Promise((resolve) => {
    const socket = connect({ host, port: port ?? 0, timeout: timeoutMs });
    const settle = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(false));
    socket.once('error', () => settle(false));
  });
}
