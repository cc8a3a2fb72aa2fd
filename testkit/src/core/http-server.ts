import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './request-log.js';

export type RecordedHandler = (request: RecordedRequest, response: ServerResponse) => Promise<void>;

export interface ListeningServer {
  /** Origin, e.g. `http://127.0.0.1:53121`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ListenOptions {
  host?: string | undefined;
  port?: number | undefined;
}

/**
 * Plain node:http (no framework) keeps the simulators' own overhead out of the gateway benchmark. Keep-alive
 * outlives undici's idle sockets so pooled connections are never closed under a request in flight.
 */
export async function listen(handler: RecordedHandler, options: ListenOptions = {}): Promise<ListeningServer> {
  const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 0, noDelay: true }, (request, response) => {
    readRequest(request)
      .then(
        (recorded) => handler(recorded, response),
        () => undefined,
      )
      .catch((error: unknown) => failResponse(response, error));
  });
  server.headersTimeout = 66_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function readRequest(request: IncomingMessage): Promise<RecordedRequest> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', reject);
    request.on('end', () => {
      const rawUrl = request.url ?? '/';
      const queryStart = rawUrl.indexOf('?');
      const body = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
      resolve({
        method: request.method ?? 'GET',
        path: queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart),
        url: rawUrl,
        query: queryStart === -1 ? {} : Object.fromEntries(new URLSearchParams(rawUrl.slice(queryStart + 1))),
        headers: request.headers,
        body,
        json: parseJson(body),
        receivedAt: Date.now(),
      });
    });
  });
}

function parseJson(body: string): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function failResponse(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(`simulator failure: ${message}`);
}
