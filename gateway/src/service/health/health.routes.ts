import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Lifecycle } from '@gw/platform';

const statusBody = z.object({ status: z.enum(['ready', 'draining', 'live', 'no_entitlement']) });

/**
 * `/` is readiness (503 while draining, and while a metered gateway holds no entitlement lease at all;
 * an expired or suspended lease still answers 200, the chain refuses its requests), `/livez` liveness (checks no
 * dependency).
 */
export async function healthRoutes(
  app: FastifyInstance,
  options: { lifecycle: Lifecycle; holdsNoLease: () => boolean },
): Promise<void> {
  app.get(
    '/',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: 200, or 503 while draining or while a metered gateway holds no entitlement lease',
        response: { 200: statusBody, 503: statusBody },
      },
    },
    async (_request, reply) => {
      if (options.lifecycle.draining) return reply.code(503).send({ status: 'draining' });
      if (options.holdsNoLease()) return reply.code(503).send({ status: 'no_entitlement' });
      return { status: 'ready' };
    },
  );
  app.get(
    '/livez',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: 200 while the process can serve, draining included',
        response: { 200: statusBody },
      },
    },
    async () => ({ status: 'live' }),
  );
}
