import type { FastifyInstance } from 'fastify';
import type { Logger, ZodTypeProvider } from '@gw/platform';
import { identityOf } from '../../chain/identity/identity-of.js';
import type { OptimizerClient } from '../../optimization/hook/optimizer-client.js';
import { lookupModel } from '../../providers/pricing/known-models.js';
import type { RoutingStore } from '../../routing/routing.store.js';
import type { HookSavingsStore } from '../seats/hook-savings.store.js';
import { seatOf } from '../seats/seat.js';
import { connectErrorResponse } from './connect.schema.js';
import { optimizeOutput, optimizeOutputBody, optimizeOutputResponse } from './optimize-output.js';

export interface ConnectOptimizeOutputOptions {
  optimizer: OptimizerClient | null;
  hookSavings: HookSavingsStore;
  routing: RoutingStore;
  logger: Logger;
}

// A tool output may be large; the rest of the connect surface takes small control messages.
const outputBodyLimitBytes = 5 * 1024 * 1024;

/** `POST /connect/optimize-output`: a tool output optimized at the source; its saving counts as the seat's. */
export async function connectOptimizeOutputRoutes(
  plain: FastifyInstance,
  options: ConnectOptimizeOutputOptions,
): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/connect/optimize-output',
    {
      bodyLimit: outputBodyLimitBytes,
      schema: {
        tags: ['connect'],
        security: [{ clientKey: [] }],
        summary: 'Optimize one tool output before it enters the transcript',
        description:
          'Always `handled: true`. An explicit read with `reversible: true` is trimmed reversibly (with `ctx_` handles) only when `retrievalContext` is `available`; `unavailable`, `unknown`, an invalid value or none returns the output byte for byte. Other output keeps handle-free terminal trimming for every value. Fails open: without an optimizer, or when it errs, the original bytes come back.',
        body: optimizeOutputBody,
        response: {
          200: optimizeOutputResponse,
          400: connectErrorResponse,
          401: connectErrorResponse,
          413: connectErrorResponse,
        },
      },
    },
    async (request) => {
      const input = request.body;
      const identity = identityOf(request);
      const result = await optimizeOutput(options.optimizer, input, { user: identity.user, team: identity.team });
      if (result.tokensSaved > 0) {
        const facts =
          input.model === undefined ? undefined : lookupModel(input.model, options.routing.documents.models);
        // Best-effort: the trimmed output is the answer; a lost counter must not fail the hook.
        await options.hookSavings
          .record(seatOf(identity), result.tokensSaved, facts ? Math.round(result.tokensSaved * facts.inputPerMTok) : 0)
          .catch((error: unknown) => options.logger.warn({ err: error }, 'hook saving not recorded'));
      }
      return result;
    },
  );
}
