import { isoInstant } from '@gw/platform';
import type { FastifyPluginAsync } from 'fastify';
import {
  bootstrapDurableRequestSchema,
  optimizerPurgeRequestSchema,
  optimizerPurgeResponseSchema,
  bootstrapDurableResponseSchema,
  settingsPutBodySchema,
  settingsResponseSchema,
  type OptimizerConfig,
  type SettingsResponse,
} from '@gw/contracts';
import { optimizerError, optimizerErrorResponses } from '../errors.js';
import { guardSettingsOf, guardThresholdsView } from '../guard/guard-thresholds.js';
import { holdoutKindsProblem } from '../holdout/holdout-kinds.js';
import { adminGate } from '../http/auth.js';
import type { ZodTypeProvider } from '@gw/platform';
import type { DurableManager } from '../stash/durable-manager.js';
import type { OptimizerRuntime } from './runtime.js';

const adminErrorKeys = [
  'invalid_request',
  'unauthorized',
  'admin_disabled',
  'activation_too_soon',
  'activation_immutable',
  'body_too_large',
] as const;
const errors = optimizerErrorResponses(adminErrorKeys);

/** Admin routes: GW_ADMIN_TOKEN bearer, never the optimizer token. */
export function adminRoutes(
  runtime: Pick<
    OptimizerRuntime,
    | 'cache'
    | 'cacheLint'
    | 'clock'
    | 'guard'
    | 'holdout'
    | 'logger'
    | 'settings'
    | 'stash'
    | 'strategyKinds'
    | 'telemetry'
  >,
  durable: DurableManager,
  adminToken: string | undefined,
): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    // onRequest, before the body is parsed or validated: an unauthenticated caller learns nothing about the schema.
    app.addHook('onRequest', adminGate(adminToken));

    app.get(
      '/admin/optimizer/settings',
      {
        schema: {
          summary: 'Runtime config and live telemetry',
          description:
            'Telemetry blocks are per replica: `guard` lists each tenant and strategy lane with its state and regret rate and the thresholds in force; `holdout` counts arms over the last hour (conclusions come from the gateway).',
          tags: ['admin'],
          response: { 200: settingsResponseSchema, ...optimizerErrorResponses(['unauthorized', 'admin_disabled']) },
        },
      },
      async () => settingsView(runtime, runtime.settings.current()),
    );

    app.put(
      '/admin/optimizer/settings',
      {
        schema: {
          summary: 'Replace the runtime config (bare or wrapped in {config})',
          tags: ['admin'],
          body: settingsPutBodySchema,
          response: { 200: settingsResponseSchema, ...errors },
        },
      },
      async (request) => {
        const body = request.body;
        const config =
          'config' in body && body.config !== undefined && Object.keys(body).length === 1
            ? body.config
            : (body as OptimizerConfig);
        const problem = holdoutKindsProblem(config.holdout?.kinds, runtime.strategyKinds);
        if (problem) throw optimizerError('invalid_request', problem);
        // jsonb cannot hold U+0000 or an unpaired surrogate in a string: the error handler answers that 400.
        return settingsView(runtime, await runtime.settings.replace(config));
      },
    );

    app.post(
      '/admin/optimizer/purge',
      {
        schema: {
          summary: 'Purge stashed originals: one user, one tenant, or all',
          description:
            'Deletes from the durable tier every replica reads and from this replica’s memory tier; handles of purged spans then read as unknown (404).',
          tags: ['admin'],
          body: optimizerPurgeRequestSchema,
          response: {
            200: optimizerPurgeResponseSchema,
            ...optimizerErrorResponses([...adminErrorKeys, 'durable_unavailable']),
          },
        },
      },
      async (request) => {
        const body = request.body;
        const filter =
          'all' in body
            ? {}
            : {
                ...('tenant' in body && body.tenant !== undefined ? { tenant: body.tenant } : {}),
                ...('user' in body ? { user: body.user } : {}),
              };
        try {
          return { purged: await runtime.stash.purge(filter) };
        } catch (error) {
          runtime.logger.warn({ errName: error instanceof Error ? error.name : 'unknown' }, 'stash purge failed');
          throw optimizerError(
            'durable_unavailable',
            'the durable store could not be purged; nothing was reported as purged',
          );
        }
      },
    );

    app.post(
      '/admin/optimizer/bootstrap-durable',
      {
        schema: {
          summary: 'Gateway pushes durable config (store, content key, content mode)',
          tags: ['admin'],
          body: bootstrapDurableRequestSchema,
          response: {
            200: bootstrapDurableResponseSchema,
            ...optimizerErrorResponses([...adminErrorKeys, 'durable_unavailable']),
          },
        },
      },
      async (request) => {
        try {
          return { durable: await durable.bootstrap(request.body) };
        } catch (error) {
          // Never echo the body or the connection string: it carries credentials.
          runtime.logger.warn({ errName: error instanceof Error ? error.name : 'unknown' }, 'durable bootstrap failed');
          throw optimizerError('durable_unavailable', 'the durable store could not be opened');
        }
      },
    );
  };
}

/** Config plus the live telemetry blocks: per replica, except the shadow counters (fleet when durable). */
async function settingsView(
  runtime: Pick<OptimizerRuntime, 'cache' | 'cacheLint' | 'clock' | 'guard' | 'holdout' | 'stash' | 'telemetry'>,
  config: OptimizerConfig,
): Promise<SettingsResponse> {
  const now = runtime.clock.now();
  const guard = guardSettingsOf(config);
  return {
    config,
    guard: {
      enabled: guard.enabled,
      thresholds: guardThresholdsView(guard.thresholds),
      strategies: runtime.guard.snapshots(now).map((lane) => ({
        ...lane,
        reopensAt: lane.reopensAt === null ? null : isoInstant(lane.reopensAt),
      })),
    },
    census: runtime.telemetry.census(),
    cacheLint: { ...runtime.cacheLint.view(now) },
    holdout: {
      enabled: config.holdout?.enabled ?? false,
      arms: runtime.holdout.arms(now),
      windowSeconds: runtime.holdout.windowSeconds,
      scope: 'replica',
      authoritativeSource: 'gateway GET /admin/spend/quality-parity',
    },
    semanticCacheShadow: { ...(await runtime.cache.shadow.telemetry(runtime.stash.durableDb)) },
  };
}
