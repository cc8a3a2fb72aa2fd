import type { FastifyInstance } from 'fastify';
import type { Clock, Db } from '@gw/platform';
import { z } from 'zod';
import { identityOf } from '../../chain/identity/identity-of.js';
import { limitsFor, usageFor, type LimitsSource } from '../../governance/self-service.js';
import { meLimitsResponse, meUsageResponse } from './me.schema.js';

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

export interface MeRouteOptions {
  governance: LimitsSource;
  db: Db;
  clock: Clock;
}

/** `GET /v1/me*`: identity, usage and limits, answered by the gateway with no provider; never the hash. */
export async function meRoutes(app: FastifyInstance, options: MeRouteOptions): Promise<void> {
  const security = [{ clientKey: [] }];
  app.get(
    '/v1/me/usage',
    {
      config: { unmetered: true },
      schema: {
        tags: ['self-service'],
        summary: 'Month-to-date tokens, cost and optimizer savings (UTC month)',
        security,
        response: { 200: meUsageResponse },
      },
    },
    async (request) => usageFor(options.governance, options.db, identityOf(request), options.clock.now()),
  );
  app.get(
    '/v1/me/limits',
    {
      config: { unmetered: true },
      schema: {
        tags: ['self-service'],
        summary: 'The caps and budgets that would answer 402 for this identity, and its rate limits',
        security,
        response: { 200: meLimitsResponse },
      },
    },
    async (request) => limitsFor(options.governance, identityOf(request), options.clock.now()),
  );
  app.get(
    '/v1/me',
    {
      config: { unmetered: true },
      schema: {
        tags: ['self-service'],
        summary: 'Caller identity and key metadata',
        security,
        response: { 200: meResponse },
      },
    },
    async (request) => {
      const identity = identityOf(request);
      const { key } = identity;
      return {
        user: identity.user,
        team: identity.team,
        key: {
          id: key.id,
          type: key.type,
          keyPrefix: key.keyPrefix,
          name: key.name,
          label: key.label,
          source: key.source,
          createdAt: key.createdAt,
          expiresAt: key.expiresAt,
          monthlyBudgetUsd: key.monthlyBudgetUsd,
        },
        metadata: identity.metadata,
      };
    },
  );
}
