import type { FastifyPluginAsync } from 'fastify';
import {
  cacheWriteResponseSchema,
  okResponseSchema,
  optimizeResponseResponseSchema,
  recallResponseSchema,
} from '@gw/contracts';
import { hookGateErrors, optimizerError, optimizerErrorResponses } from '../errors.js';
import { assignHoldout } from '../holdout/assign-holdout.js';
import { cohortFields } from '../holdout/holdout-response.js';
import { modelOf } from '../format/json-value.js';
import { authoritativeTenant } from '../http/auth.js';
import { callerOwner, withBearerTenant } from '../http/caller-owner.js';
import { cacheWriteBodySchema, optimizeResponseBodySchema, recallBodySchema } from '../http/caller-metadata.schema.js';
import type { ZodTypeProvider } from '@gw/platform';
import { runOutputStage } from '../output/run-output-stage.js';
import { recordBodySchema } from '../record/record.schema.js';
import { inputPricePerToken } from '../settings/input-prices.js';
import { kindsOffFor } from '../settings/kill-switch.js';
import type { OptimizerRuntime } from './runtime.js';

const errors = optimizerErrorResponses([...hookGateErrors, 'cache_request_required']);

/** The post-call and on-demand hooks other than optimize and retrieve. */
export function hookRoutes(
  runtime: Pick<OptimizerRuntime, 'cache' | 'clock' | 'recall' | 'records' | 'settings'>,
): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/v1/optimize-response',
      {
        config: { signed: true, leaseGated: true },
        schema: {
          summary: 'Transform a response (output-stage strategies only)',
          description:
            "Output-stage strategies: `tool_arguments_minify` removes the JSON layout (indentation, line breaks) from tool-call arguments of chat-completions (`choices[].message.tool_calls[].function.arguments`) and Responses (`output[]` `function_call`) bodies, lexically, so every parsed value, key order and number spelling stays the model's; the client then carries the compact form on every later turn. Kill switches by endpoint, model, user or team apply. Re-derives the audited-holdout arm from the same metadata as /v1/optimize and reports it as `cohort` (and `cohortKind`); a whole-optimizer control session's response is returned untouched. Skip streamed responses.",
          tags: ['hooks'],
          body: optimizeResponseBodySchema,
          response: { 200: optimizeResponseResponseSchema, ...errors },
        },
      },
      async (request) => {
        // Each leg re-derives the holdout arm from the same metadata: a whole-optimizer control row's
        // response stays untouched, a per-strategy row withholds only its kind.
        const { body } = request;
        const metadata = withBearerTenant(body.metadata, authoritativeTenant(request.caller));
        const config = runtime.settings.current();
        const holdout = assignHoldout(config.holdout, metadata, runtime.clock.now());
        const cohort = cohortFields(holdout);
        if (holdout?.cohort === 'holdout' && !holdout.cohortKind)
          return { protocolVersion: 1 as const, response: body.response, decisions: [], ...cohort };
        const model = modelOf(body.response) ?? (body.request ? modelOf(body.request) : undefined);
        const disabled = kindsOffFor(
          config.strategies,
          { endpoint: body.endpoint, model, metadata },
          holdout?.cohortKind,
        );
        const result = runOutputStage({ response: body.response, disabled, pricePerToken: inputPricePerToken(model) });
        return { protocolVersion: 1 as const, response: result.response, decisions: result.decisions, ...cohort };
      },
    );

    app.post(
      '/v1/cache',
      {
        config: { signed: true, leaseGated: true },
        schema: {
          summary: 'Write a live response back to the semantic cache',
          description:
            'The entry is stored under the key’s caller partition and endpoint: the same body sent to another endpoint is another entry, so an answer is only ever served in the wire format of the endpoint that produced it. `stored: false` when there is no caller partition or the key is not one this service minted for this caller’s scope. With a per-tenant bearer the entry is re-derived from `request` for the endpoint and lane the key carries.',
          tags: ['hooks'],
          body: cacheWriteBodySchema,
          response: { 200: cacheWriteResponseSchema, ...errors },
        },
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
        schema: {
          summary: "Search the requesting user's own durable stash",
          tags: ['hooks'],
          body: recallBodySchema,
          response: { 200: recallResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { tenant, user } = callerOwner(request.body.metadata, authoritativeTenant(request.caller));
        const owner = user === undefined ? null : { tenant, user };
        return { matches: await runtime.recall.recall(owner, request.body.query, request.body.k) };
      },
    );

    app.post(
      '/v1/record',
      {
        schema: {
          summary: 'Persist a call where no gateway is in the path (opt-in)',
          tags: ['hooks'],
          body: recordBodySchema,
          response: { 200: okResponseSchema, ...optimizerErrorResponses([...hookGateErrors, 'recording_disabled']) },
        },
      },
      async (request) => {
        if (!runtime.records) throw optimizerError('recording_disabled');
        const records = runtime.records;
        await records.upsert(request.body);
        return { ok: true as const };
      },
    );
  };
}
