import { createServer, type AddressInfo } from 'node:net';

/**
 * A loopback port nothing listens on right now: for a process whose address another one must know before it
 * starts (a container on the host network, a service started with its port in a variable). Another process may take
 * it in between; callers start their listener right away.
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
