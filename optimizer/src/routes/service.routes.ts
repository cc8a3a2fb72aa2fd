import type { FastifyPluginAsync } from 'fastify';
import { healthReport, type HealthSource } from '../health/health-report.js';
import { optimizerHealthReportSchema } from '../health/health-report.schema.js';
import type { ZodTypeProvider } from '@gw/platform';
import type { OptimizerRuntime } from './runtime.js';

/** Unauthenticated service routes: health and Prometheus metrics. */
export function serviceRoutes(runtime: HealthSource & Pick<OptimizerRuntime, 'metrics'>): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/health',
      { schema: { summary: 'Health report', tags: ['service'], response: { 200: optimizerHealthReportSchema } } },
      async () => healthReport(runtime),
    );
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      const body = await runtime.metrics.registry.metrics();
      return reply.type(runtime.metrics.registry.contentType).send(body);
    });
  };
}
