import type { FastifyPluginAsync } from 'fastify';
import { retrieveResponseSchema, type RetrieveResponse } from '@gw/contracts';
import { optimizerError, optimizerErrorResponses } from '../errors.js';
import { authoritativeTenant } from '../http/auth.js';
import type { ZodTypeProvider } from '@gw/platform';
import { ageBucket } from '../retrieve/age-bucket.js';
import { mayRetrieve } from '../retrieve/may-retrieve.js';
import { retrieveBodySchema } from '../retrieve/retrieve.schema.js';
import { grepProblem, sliceContent } from '../retrieve/slice-content.js';
import { RowUnreadableError, StoreUnavailableError, type OwnerCheck } from '../stash/durable-tier.js';
import type { StashEntry } from '../stash/stash-entry.js';
import type { OptimizerRuntime } from './runtime.js';

/**
 * POST /v1/retrieve, exactly the contract rules 5–6: never signature- or lease-gated; 404 for an unknown or
 * expired handle or one that is not the named caller's (`mayRetrieve`), 503 when the durable store cannot answer or
 * the caller's row does not decrypt; each hit extends life.
 */
export function retrieveRoutes(
  runtime: Pick<OptimizerRuntime, 'clock' | 'guard' | 'metrics' | 'stash'>,
): FastifyPluginAsync {
  return async (app) => {
    app.withTypeProvider<ZodTypeProvider>().post(
      '/v1/retrieve',
      {
        schema: {
          summary: 'Fetch a stashed original by handle (whole, a line range, or grep windows)',
          description:
            'A retrieve without `metadata.source` is the model asking for an elided original: a regret signal charged to the strategies that elided it (once per handle per guard window). Automated callers set `metadata.source`. Ownership: a per-tenant bearer finds only its tenant’s handles. A retrieve whose metadata names a caller (`user`, `team` or `tenant`; the tenant is the per-tenant bearer’s, else `metadata.tenant`, else `default`) finds only that caller’s handles: a handle stashed for a user only by the same user in the same tenant, one stashed without a user only by a caller without a user in the same team and tenant. Any other handle answers 404 `handle_not_found`, exactly like an unknown one (its existence is never revealed), counts as a miss, and neither extends its life nor counts as a regret signal. A retrieve that names nobody (gateways before this rule) trusts the bearer.',
          tags: ['hooks'],
          body: retrieveBodySchema,
          response: {
            200: retrieveResponseSchema,
            ...optimizerErrorResponses([
              'invalid_request',
              'invalid_grep',
              'unauthorized',
              'handle_not_found',
              'store_unavailable',
              'row_unreadable',
            ]),
          },
        },
      },
      async (request) => {
        const body = request.body;
        const problem = grepProblem(body.grep);
        if (problem) throw optimizerError('invalid_grep', problem);
        // Another caller's handle is indistinguishable from an unknown one: no regret signal, no life extension, and
        // refused on its owner before its row is decrypted.
        const bearerTenant = authoritativeTenant(request.caller);
        const entry = await read(runtime, body.handle, (owner) => mayRetrieve(owner, body.metadata, bearerTenant));
        if (!entry) {
          runtime.metrics.retrieves.inc({ result: 'miss' });
          throw optimizerError('handle_not_found');
        }
        runtime.metrics.retrieves.inc({ result: 'hit' });
        // The model needed an elided original back: a regret signal; automated callers set `metadata.source`
        // and are never counted.
        if (!body.metadata?.source) runtime.guard.retrieved(entry.handle, runtime.clock.now());
        const age = ageBucket(runtime.clock.now() - entry.createdAt);
        await runtime.stash.extend(entry);
        const slice = sliceContent(entry.content, body);
        const response: RetrieveResponse = {
          handle: entry.handle,
          content: slice.content,
          totalLines: entry.totalLines,
          totalChars: entry.totalChars,
          partial: slice.partial,
          ...(age ? { ageBucket: age } : {}),
        };
        if (slice.partial) {
          Object.assign(response, {
            startLine: slice.startLine,
            endLine: slice.endLine,
            grepMatches: slice.grepMatches,
            grepTruncated: slice.grepTruncated,
          });
          if (slice.nextStartLine !== undefined) response.nextStartLine = slice.nextStartLine;
        }
        return response;
      },
    );
  };
}

/**
 * The live entry this caller may have. Another caller's row is refused before it is decrypted, so its being
 * unreadable never shows either: a 503 is only ever about the caller's own row.
 */
async function read(
  runtime: Pick<OptimizerRuntime, 'metrics' | 'stash'>,
  handle: string,
  mayRead: OwnerCheck,
): Promise<StashEntry | null> {
  try {
    return await runtime.stash.read(handle, mayRead);
  } catch (error) {
    runtime.metrics.retrieves.inc({ result: 'unavailable' });
    if (error instanceof RowUnreadableError) throw optimizerError('row_unreadable');
    if (error instanceof StoreUnavailableError) throw optimizerError('store_unavailable');
    throw error;
  }
}
