import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:tls';
import { localhostCertificate } from './localhost-certificate.js';

export interface TlsTerminatorHandle {
  /** `https://127.0.0.1:<port>`; the certificate to trust is `localhostCertificate.cert`. */
  url: string;
  close(): Promise<void>;
}

/**
 * What an ingress does in front of the gateway: terminate TLS and pipe the plain bytes to `target` (host:port). Byte
 * for byte, so HTTP upgrades and WebSocket frames pass unchanged; for clients that refuse anything but TLS.
 */
export async function startTlsTerminator(target: { host: string; port: number }): Promise<TlsTerminatorHandle> {
  const open = new Set<{ destroy(): void }>();
  const server = createServer({ cert: localhostCertificate.cert, key: localhostCertificate.key }, (secure) => {
    const plain = connect(target.port, target.host);
    open.add(secure).add(plain);
    secure.pipe(plain).pipe(secure);
    const end = () => {
      open.delete(secure);
      open.delete(plain);
      secure.destroy();
      plain.destroy();
    };
    secure.on('error', end).on('close', end);
    plain.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
