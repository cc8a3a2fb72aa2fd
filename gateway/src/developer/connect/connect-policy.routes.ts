import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Logger, ZodTypeProvider } from '@gw/platform';
import { identityOf } from '../../chain/identity/identity-of.js';
import { lookupModel } from '../../providers/pricing/known-models.js';
import { effectiveTeamPolicy } from '../../policies/effective-team-policy.js';
import { toolTier } from '../../policies/team-policy.schema.js';
import type { TeamPolicyStore } from '../../policies/team-policy.store.js';
import type { RoutingStore } from '../../routing/routing.store.js';
import { connectErrorResponse } from './connect.schema.js';

export interface ConnectPolicyOptions {
  teamPolicies: TeamPolicyStore;
  routing: RoutingStore;
  logger: Logger;
  /** The organization hub's URL when its identity lane runs. */
  orgHubUrl: string | null;
}

const policyQuery = z.looseObject({
  model: z
    .string()
    .regex(/^[\x21-\x7e]{1,256}$/)
    .optional()
    .describe('Adds modelContext.contextTokens for this model'),
});
const policyResponse = z.object({
  status: z.literal('ok'),
  team: z.string().describe('The team the key is bound to'),
  routing: z.object({
    origin: z.string().describe('The gateway origin to send inference to'),
    defaultProvider: z.string().nullable(),
  }),
  skills: z
    .array(z.object({ name: z.string(), description: z.string(), content: z.string() }))
    .describe('Shared skills: the `*` skills and the team’s own'),
  skillsIncomplete: z
    .literal(true)
    .optional()
    .describe('The skills store could not be read: skills are missing and tools fall back to the default'),
  tools: z.object({
    enabled: z.array(z.string()),
    tiers: z.record(z.string(), toolTier).optional(),
    defaulted: z.literal(true).optional().describe('No tool policy was saved for the team or `*`'),
  }),
  modelContext: z
    .object({
      model: z.string(),
      contextTokens: z.number().int().nullable().describe('null when the gateway does not know the model’s window'),
    })
    .optional(),
  mcp: z
    .object({
      org: z.object({ url: z.string().describe('The organization hub (/mcp/org) to register with hosted assistants') }),
    })
    .optional()
    .describe('Present when an organization hub runs'),
});

/** `GET /connect/policy`: the effective policy of the caller's team, never failing on the skills store. */
export async function connectPolicyRoutes(plain: FastifyInstance, options: ConnectPolicyOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/connect/policy',
    {
      schema: {
        tags: ['connect'],
        security: [{ clientKey: [] }],
        summary: 'The effective policy of the caller’s team: shared skills, tools, routing origin',
        querystring: policyQuery,
        response: { 200: policyResponse, 400: connectErrorResponse, 401: connectErrorResponse },
      },
    },
    async (request): Promise<z.infer<typeof policyResponse>> => {
      const identity = identityOf(request);
      const { model } = request.query;
      let teams;
      try {
        teams = (await options.teamPolicies.read()).teams;
      } catch (error) {
        options.logger.warn({ err: error }, 'team policies unreadable; serving the default policy');
      }
      const effective = effectiveTeamPolicy(teams ?? {}, identity.team);
      const models = options.routing.documents.models;
      return {
        status: 'ok',
        team: identity.team,
        routing: {
          origin: `${request.protocol}://${request.host}`,
          defaultProvider: options.routing.documents.default.defaultProvider,
        },
        skills: effective.skills,
        ...(teams ? {} : { skillsIncomplete: true as const }),
        tools: effective.tools,
        ...(model === undefined
          ? {}
          : { modelContext: { model, contextTokens: lookupModel(model, models)?.contextTokens ?? null } }),
        ...(options.orgHubUrl ? { mcp: { org: { url: options.orgHubUrl } } } : {}),
      };
    },
  );
}
