import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BillingReply } from './billing-reply.js';

/** The parts of a request the billing routes read; headers other than the bearer are never kept. */
export interface BillingRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  /** The raw body, or `'too_large'` when it ran past the limit (the excess is read and discarded, never buffered). */
  body: Buffer | 'too_large';
}

export type BillingHandler = (request: BillingRequest) => BillingReply;

export interface BillingServer {
  url: string;
  close(): Promise<void>;
}

export interface BillingServerOptions {
  host: string;
  port: number;
  maxBodyBytes: number;
}

/**
 * Plain node:http, like the other simulators. The body is drained to its end before a 413 goes out: answering while the
 * client is still uploading makes fetch report a reset socket instead of the status a test wants to assert.
 */
export async function listenBilling(handler: BillingHandler, options: BillingServerOptions): Promise<BillingServer> {
  const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 0 }, (request, response) => {
    readLimitedBody(request, options.maxBodyBytes)
      .then((body) => send(response, handler(toBillingRequest(request, body))))
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function toBillingRequest(request: IncomingMessage, body: Buffer | 'too_large'): BillingRequest {
  const url = new URL(request.url ?? '/', 'http://billing.invalid');
  return {
    method: request.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    authorization: request.headers.authorization,
    body,
  };
}

function readLimitedBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    request.on('error', reject);
    request.on('end', () => resolve(size > maxBytes ? 'too_large' : Buffer.concat(chunks)));
  });
}

function send(response: ServerResponse, reply: BillingReply): void {
  const text = reply.html ?? JSON.stringify(reply.body);
  const type = reply.html === undefined ? 'application/json' : 'text/html; charset=utf-8';
  response.writeHead(reply.status, {
    ...reply.headers,
    'content-type': type,
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
