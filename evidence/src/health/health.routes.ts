import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db, Lifecycle } from '@gw/platform';

const status = z.object({ status: z.string() });

/** `/livez` is process-only (200 while draining); `/readyz` pings the store and is 503 while draining. */
export async function healthRoutes(
  app: FastifyInstance,
  options: { db: Db; lifecycle: Lifecycle | undefined },
): Promise<void> {
  app.get(
    '/livez',
    { schema: { tags: ['health'], summary: 'Liveness: process only, 200 while draining', response: { 200: status } } },
    async () => ({ status: 'live' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: pings the store; 503 during a store outage or a drain',
        response: { 200: status, 503: status },
      },
    },
    async (_request, reply) => {
      if (options.lifecycle?.draining) return reply.code(503).send({ status: 'draining' });
      const reachable = await options.db.ping().catch(() => false);
      return reachable ? { status: 'ready' } : reply.code(503).send({ status: 'store_unavailable' });
    },
  );
}
