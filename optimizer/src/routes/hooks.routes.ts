import type { FastifyPluginAsync } from 'fastify';
import {
  cacheWriteRequestSchema,
  cacheWriteResponseSchema,
  okResponseSchema,
  optimizeResponseRequestSchema,
  optimizeResponseResponseSchema,
  optimizerErrorSchema,
  recallRequestSchema,
  recallResponseSchema,
  recordRequestSchema,
} from '@gw/contracts';
import { optimizerErrors } from '../errors.js';
import { assignHoldout } from '../holdout/assign-holdout.js';
import { cohortFields } from '../holdout/holdout-response.js';
import { authoritativeTenant } from '../http/auth.js';
import type { ZodTypeProvider } from '../http/zod-schema.js';
import type { OptimizerRuntime } from './runtime.js';

const errors = { 400: optimizerErrorSchema, 401: optimizerErrorSchema, 402: optimizerErrorSchema, 403: optimizerErrorSchema, 413: optimizerErrorSchema };

/** The post-call and on-demand hooks other than optimize and retrieve (spec 001 §2.4, §4.1). */
export function hookRoutes(runtime: OptimizerRuntime): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/v1/optimize-response',
      {
        config: { signed: true, leaseGated: true },
        schema: {
          summary: 'Transform a response (output-stage strategies only)',
          description:
            "Re-derives the audited-holdout arm from the same metadata as /v1/optimize and reports it as `cohort` (and `cohortKind`); a control session's response is returned untouched.",
          tags: ['hooks'],
          body: optimizeResponseRequestSchema,
          response: { 200: optimizeResponseResponseSchema, ...errors },
        },
      },
      async (request) => {
        // Each leg re-derives the holdout arm from the same metadata (spec 001 §2.2); a control row's response stays
        // untouched. No output-stage strategy ships yet, so every arm passes the response through (fail-open shape).
        const tenant = authoritativeTenant(request.caller);
        const metadata = tenant ? { ...request.body.metadata, tenant } : request.body.metadata;
        const holdout = assignHoldout(runtime.settings.current().holdout, metadata, runtime.clock.now());
        return { protocolVersion: 1 as const, response: request.body.response, decisions: [], ...cohortFields(holdout) };
      },
    );

    app.post(
      '/v1/cache',
      {
        config: { signed: true, leaseGated: true },
        schema: { summary: 'Write a live response back to the semantic cache', tags: ['hooks'], body: cacheWriteRequestSchema, response: { 200: cacheWriteResponseSchema, ...errors } },
      },
      async (request) => {
        const stored = runtime.cache.write(request.body, authoritativeTenant(request.caller));
        return stored ? { ok: true as const } : { ok: true as const, stored: false };
      },
    );

    app.post(
      '/v1/recall',
      {
        config: { signed: true, leaseGated: true },
        schema: { summary: "Search the requesting user's own durable stash", tags: ['hooks'], body: recallRequestSchema, response: { 200: recallResponseSchema, ...errors } },
      },
      async (request) => {
        const { metadata } = request.body;
        const tenant = authoritativeTenant(request.caller) ?? metadata?.tenant ?? 'default';
        const owner = metadata?.user ? { tenant, user: metadata.user } : null;
        return { matches: await runtime.recall.recall(owner, request.body.query, request.body.k) };
      },
    );

    app.post(
      '/v1/record',
      {
        schema: { summary: 'Persist a call where no gateway is in the path (opt-in)', tags: ['hooks'], body: recordRequestSchema, response: { 200: okResponseSchema, 404: optimizerErrorSchema, ...errors } },
      },
      async (request) => {
        if (!runtime.records) throw optimizerErrors.recordingDisabled();
        await runtime.records.upsert(request.body);
        return { ok: true as const };
      },
    );
  };
}
