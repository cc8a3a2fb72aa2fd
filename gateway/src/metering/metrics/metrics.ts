import type { FastifyInstance } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per app instance (no global state), so two gateways in one test process do not collide. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'gw_process_' });
  return registry;
}

export async function metricsRoutes(app: FastifyInstance, options: { registry: Registry }): Promise<void> {
  app.get(
    '/metrics',
    { schema: { tags: ['health'], summary: 'Prometheus metrics (content-free)' } },
    async (_request, reply) =>
      reply.header('content-type', options.registry.contentType).send(await options.registry.metrics()),
  );
}
