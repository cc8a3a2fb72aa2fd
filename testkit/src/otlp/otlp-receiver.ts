import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJsonTraces, decodeProtobufTraces, type ReceivedSpan } from './otlp-traces.js';

export interface OtlpReceiverHandle {
  /** Base URL: what `OTEL_EXPORTER_OTLP_ENDPOINT` names; traces arrive at `${url}/v1/traces`. */
  url: string;
  /** Every span decoded so far, in arrival order. */
  readonly spans: ReceivedSpan[];
  /** The content types and headers of the exports received. */
  readonly exports: Array<{ contentType: string; headers: Record<string, string | string[] | undefined> }>;
  /** Answer the next `count` exports with `status` (a collector that is down or overloaded). */
  failNext(count: number, status: number): void;
  /** Resolves once at least `count` spans arrived. */
  waitForSpans(count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * An OpenTelemetry collector's OTLP/HTTP traces receiver: `POST /v1/traces` in `application/x-protobuf` or
 * `application/json`, decoded into spans; 415 for anything else, as the OTLP/HTTP specification says.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiverHandle> {
  const spans: ReceivedSpan[] = [];
  const exports: OtlpReceiverHandle['exports'] = [];
  const waiters: Array<{ count: number; resolve: (spans: ReceivedSpan[]) => void }> = [];
  let failures: { count: number; status: number } = { count: 0, status: 503 };

  const answer = (response: ServerResponse, status: number, contentType: string) => {
    response.writeHead(status, { 'content-type': contentType });
    response.end(contentType === 'application/json' ? '{}' : '');
  };

  const server = createServer((request, response) => {
    void readBody(request).then(
      (body) => {
        const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
        if (request.method !== 'POST' || request.url?.split('?')[0] !== '/v1/traces')
          return answer(response, 404, 'application/json');
        if (failures.count > 0) {
          failures = { ...failures, count: failures.count - 1 };
          return answer(
            response,
            failures.status,
            contentType === 'application/json' ? 'application/json' : 'application/x-protobuf',
          );
        }
        let decoded: ReceivedSpan[];
        if (contentType === 'application/x-protobuf') decoded = decodeProtobufTraces(new Uint8Array(body));
        else if (contentType === 'application/json') decoded = decodeJsonTraces(JSON.parse(body.toString('utf8')));
        else return answer(response, 415, 'application/json');
        exports.push({ contentType, headers: request.headers });
        spans.push(...decoded);
        for (const waiter of waiters.splice(0)) {
          if (spans.length >= waiter.count) waiter.resolve([...spans]);
          else waiters.push(waiter);
        }
        // An empty ExportTraceServiceResponse means every span was accepted.
        return answer(response, 200, contentType);
      },
      () => answer(response, 400, 'application/json'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    exports,
    failNext: (count, status) => {
      failures = { count, status };
    },
    waitForSpans: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (spans.length >= count) return resolve([...spans]);
        const timer = setTimeout(() => reject(new Error(`received ${spans.length} of ${count} spans`)), timeoutMs);
        waiters.push({
          count,
          resolve: (received) => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
