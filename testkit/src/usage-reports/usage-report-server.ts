import type { ServerResponse } from 'node:http';
import { listen } from '../core/http-server.js';
import { RequestLog, type RecordedRequest } from '../core/request-log.js';
import type { UsageReportControls, VendorUsageDay } from './usage-report-days.js';

export interface UsageReportSimulatorHandle extends UsageReportControls {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface ReportRouteContext {
  query: URLSearchParams;
  days: readonly VendorUsageDay[];
  forever: boolean;
}

export interface VendorReportServer {
  /** Whether the request carries the admin key. */
  authorized(request: RecordedRequest): boolean;
  unauthorized: object;
  rateLimited: object;
  notFound: object;
  routes: Record<string, (context: ReportRouteContext) => unknown>;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** The shared server loop of the vendor report simulators: auth, scripted 429s, then the vendor's own route. */
export async function startReportServer(
  vendor: VendorReportServer,
  initialDays: VendorUsageDay[],
): Promise<UsageReportSimulatorHandle> {
  const log = new RequestLog(true);
  let days = initialDays;
  let forever = false;
  let rateLimits: Array<{ retryAfter: number; path: string | undefined }> = [];
  const server = await listen(async (request, response) => {
    log.add(request);
    if (!vendor.authorized(request)) return send(response, 401, vendor.unauthorized);
    const limited = rateLimits.findIndex((limit) => limit.path === undefined || limit.path === request.path);
    if (limited >= 0) {
      const [limit] = rateLimits.splice(limited, 1);
      return send(response, 429, vendor.rateLimited, { 'retry-after': String(limit?.retryAfter ?? 1) });
    }
    const route = request.method === 'GET' ? vendor.routes[request.path] : undefined;
    if (!route) return send(response, 404, vendor.notFound);
    const query = new URL(request.url, 'http://simulator').searchParams;
    return send(response, 200, route({ query, days, forever }));
  });
  return {
    url: server.url,
    requests: log.requests,
    rateLimit: (count, retryAfterSeconds, path) => {
      rateLimits = [...rateLimits, ...Array.from({ length: count }, () => ({ retryAfter: retryAfterSeconds, path }))];
    },
    paginateForever: (on) => {
      forever = on;
    },
    setDays: (next) => {
      days = next;
    },
    close: () => server.close(),
  };
}
