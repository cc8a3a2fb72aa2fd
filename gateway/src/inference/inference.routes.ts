import type { FastifyInstance } from 'fastify';
import { runCountTokens } from './run-count-tokens.js';
import type { InferenceDeps } from './inference-deps.js';
import {
  chatCompletionBody,
  completionBody,
  countTokensBody,
  countTokensResponse,
  embeddingBody,
  messagesBody,
  modelListResponse,
} from './inference.schemas.js';
import { describeModel, listModels } from './models.js';
import { runInference } from './run-inference.js';
import type { InferenceCall } from './inference-call.js';
import { runPassthrough } from './run-passthrough.js';
import { batchRoutes } from './batches/batch.routes.js';
import { meteredLane } from './metered-lane.js';
import { runSubscription } from './seat/run-subscription.js';
import { runVendorLane } from './seat/run-vendor-lane.js';
import { runVscodeOptimize, vscodeOptimizeBody, vscodeOptimizeResponse } from './vscode-optimize.js';
import { toSeatChatBody } from './seat/responses-envelope.js';
import { subscriptionCredential } from './seat/subscription-headers.js';

type Json = Record<string, unknown>;
const security = [{ clientKey: [] }];

/**
 * The named inference routes and the `/v1/*` catch-all. Registered inside the chain's scope; every
 * route that calls a lane goes through `meteredLane`, which records the call's one spend row and trace.
 */
export async function inferenceRoutes(app: FastifyInstance, deps: InferenceDeps): Promise<void> {
  const call =
    (
      endpoint: string,
      operation: InferenceCall['operation'],
      clientFormat: InferenceCall['clientFormat'],
      requiresFamily?: 'openai',
    ) =>
    (body: unknown): InferenceCall => ({
      endpoint,
      operation,
      clientFormat,
      body: body as Json,
      ...(requiresFamily ? { requiresFamily } : {}),
    });

  const chat = call('/v1/chat/completions', { kind: 'chat' }, 'chat-completions');
  app.post(
    '/v1/chat/completions',
    {
      schema: {
        tags: ['inference'],
        summary: 'Chat completions (JSON or SSE of chat.completion.chunk ending with [DONE])',
        security,
        body: chatCompletionBody,
      },
    },
    meteredLane(deps, (scope) => runInference(deps, chat(scope.request.body), scope)),
  );

  const messages = call('/v1/messages', { kind: 'messages' }, 'messages');
  app.post(
    '/v1/messages',
    {
      schema: {
        tags: ['inference'],
        summary:
          'Messages (JSON or SSE of message events); subscription passthrough when the gateway key is in x-gw-api-key and the developer token in Authorization or x-api-key',
        security,
        body: messagesBody,
      },
    },
    meteredLane(deps, (scope) => {
      const { request } = scope;
      const credential = request.headers['x-gw-api-key'] ? subscriptionCredential(request.headers) : null;
      return credential
        ? runSubscription(deps, messages(request.body), scope, credential)
        : runInference(deps, messages(request.body), scope);
    }),
  );

  const completions = call('/v1/completions', { kind: 'completions' }, 'chat-completions', 'openai');
  app.post(
    '/v1/completions',
    { schema: { tags: ['inference'], summary: 'Legacy completions', security, body: completionBody } },
    meteredLane(deps, (scope) => runInference(deps, completions(scope.request.body), scope)),
  );

  const embeddings = call('/v1/embeddings', { kind: 'embeddings' }, 'chat-completions', 'openai');
  app.post(
    '/v1/embeddings',
    {
      schema: {
        tags: ['inference'],
        summary: 'Embeddings (float or base64, one vector per input)',
        security,
        body: embeddingBody,
      },
    },
    meteredLane(deps, (scope) => runInference(deps, embeddings(scope.request.body), scope)),
  );

  app.post(
    '/v1/messages/count_tokens',
    {
      config: { unmetered: true },
      schema: {
        tags: ['inference'],
        summary: 'Count input tokens (no inference, not metered)',
        security,
        body: countTokensBody,
        response: { 200: countTokensResponse },
      },
    },
    (request, reply) => runCountTokens(deps, request, reply),
  );

  app.get(
    '/v1/models',
    {
      config: { unmetered: true },
      schema: {
        tags: ['inference'],
        summary: 'Models of the configured providers and aliases',
        security,
        response: { 200: modelListResponse },
      },
    },
    async (request) =>
      listModels(deps.providers, deps.routing, typeof request.headers['anthropic-version'] === 'string'),
  );

  // Ids contain slashes (`openai/gpt-4o`); an id the gateway does not list goes upstream like any other path.
  const passthrough = meteredLane(deps, (scope) => runPassthrough(deps, scope));
  app.get(
    '/v1/models/*',
    {
      schema: {
        tags: ['inference'],
        summary:
          'One model: an alias or a model the gateway lists is answered here; any other id is proxied to the provider',
        security,
      },
    },
    async (request, reply) => {
      const id = (request.params as { '*': string })['*'];
      const model = describeModel(
        deps.providers,
        deps.routing,
        typeof request.headers['anthropic-version'] === 'string',
        id,
      );
      return model ?? passthrough(request, reply);
    },
  );

  app.post(
    '/v1/extensions/vscode/optimize',
    {
      schema: {
        tags: ['inference'],
        summary: 'Optimize a request for the VS Code extension (fail-open; no provider call; zero-token spend row)',
        security,
        body: vscodeOptimizeBody,
        response: { 200: vscodeOptimizeResponse },
      },
    },
    meteredLane(deps, (scope) => runVscodeOptimize(deps, scope)),
  );

  app.post(
    '/v1/seat/vendor/chat/completions',
    {
      schema: {
        tags: ['inference'],
        summary:
          'Subscription-seat chat lane: chat body, flat tools or a Responses-style envelope; missing model is gw-default',
        security,
      },
    },
    meteredLane(deps, (scope) => {
      const body = toSeatChatBody((scope.request.body ?? {}) as Json);
      return runInference(
        deps,
        {
          endpoint: '/v1/seat/vendor/chat/completions',
          operation: { kind: 'chat' },
          clientFormat: 'chat-completions',
          body,
          rawBody: null,
          seat: true,
        },
        scope,
      );
    }),
  );

  app.all(
    '/v1/vendor/:plan/:seat/*',
    {
      schema: {
        tags: ['inference'],
        summary: 'Seat carrier lane: the seat token is forwarded so the vendor bills its plan',
        security,
      },
    },
    meteredLane(deps, (scope) => runVendorLane(deps, scope)),
  );

  batchRoutes(app, deps);

  // Anything else under /v1 is proxied upstream, never a 404 from the gateway.
  app.all(
    '/v1/*',
    {
      schema: {
        tags: ['inference'],
        summary:
          'Opaque passthrough to the selected provider (Responses, files, batches, audio, images, …), relayed as the provider sends it: event streams event by event, downloads chunk by chunk. A Responses agent-continuation transcript (trailing function_call_output, no callable tools) is offered to the optimizer first and fails open',
        security,
      },
    },
    passthrough,
  );
}
