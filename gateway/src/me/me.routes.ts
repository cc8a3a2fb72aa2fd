import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

const meResponse = z.object({
  user: z.string().nullable(),
  team: z.string(),
  key: z.object({
    id: z.string(),
    type: z.enum(['client', 'service']),
    keyPrefix: z.string(),
    name: z.string().nullable(),
    label: z.string().nullable(),
    source: z.string(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    monthlyBudgetUsd: z.number().nullable(),
  }),
  metadata: z.record(z.string(), z.string()),
});

/** `GET /v1/me`: identity and key metadata, answered by the gateway (spec 000 §4.1); never the hash. */
export async function meRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v1/me', { schema: { tags: ['self-service'], summary: 'Caller identity and key metadata', security: [{ clientKey: [] }], response: { 200: meResponse } } }, async (request) => {
    const identity = request.gw.identity;
    if (!identity) throw new Error('identity stage did not run');
    const { key } = identity;
    return {
      user: identity.user,
      team: identity.team,
      key: { id: key.id, type: key.type, keyPrefix: key.keyPrefix, name: key.name, label: key.label, source: key.source, createdAt: key.createdAt, expiresAt: key.expiresAt, monthlyBudgetUsd: key.monthlyBudgetUsd },
      metadata: identity.metadata,
    };
  });
}
