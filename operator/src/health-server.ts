import { createServer, type Server } from 'node:http';
import type { OperatorMetrics } from './runtime/metrics.js';

export interface HealthState {
  /** False once shutdown started or the controllers failed to start. */
  healthy(): boolean;
}

/** `/metrics` (Prometheus) and `/healthz` on one port; nothing else is served. */
export function createHealthServer(metrics: OperatorMetrics, state: HealthState): Server {
  return createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://operator').pathname;
    if (request.method === 'GET' && path === '/healthz') {
      const healthy = state.healthy();
      response.writeHead(healthy ? 200 : 503, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: healthy ? 'ok' : 'unhealthy' }));
      return;
    }
    if (request.method === 'GET' && path === '/metrics') {
      metrics.registry
        .metrics()
        .then((text) => {
          response.writeHead(200, { 'content-type': metrics.registry.contentType });
          response.end(text);
        })
        .catch(() => {
          response.writeHead(500);
          response.end();
        });
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: 'not_found' }));
  });
}
