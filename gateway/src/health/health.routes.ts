import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Lifecycle } from '@gw/platform';

const statusBody = z.object({ status: z.enum(['ready', 'draining', 'live']) });

/** spec 000 §4.6: `/` is readiness (503 while draining), `/livez` liveness (checks no dependency). */
export async function healthRoutes(app: FastifyInstance, options: { lifecycle: Lifecycle }): Promise<void> {
  app.get('/', { schema: { tags: ['health'], summary: 'Readiness: 200, or 503 while draining', response: { 200: statusBody, 503: statusBody } } }, async (_request, reply) =>
    options.lifecycle.draining ? reply.code(503).send({ status: 'draining' }) : { status: 'ready' },
  );
  app.get('/livez', { schema: { tags: ['health'], summary: 'Liveness: 200 while the process can serve, draining included', response: { 200: statusBody } } }, async () => ({ status: 'live' }));
}
