import { codesByStatus, listCodes } from '@gw/platform';
import { carriedBy, gatewayErrorCatalog, keyFailureCodes } from '../../errors.js';

/**
 * The inference plane's error answers in the OpenAPI document, generated from the gateway's error catalog
 * (`src/errors.ts`): every entry the inference envelope carries, grouped by status. The envelopes are fixed; the
 * codes are the gateway's. They are added to the generated document rather than declared as route response schemas,
 * because a response schema would also serialise (and could reject) the error bodies the handlers build, and the
 * Messages lane's envelope differs from the others.
 */

type Json = Record<string, unknown>;

// What each status means on `/v1/*`; a status without a summary (499, which only the spend row reads) is not published.
const statusSummaries: Readonly<Record<number, string>> = {
  400: 'Malformed or unserviceable request',
  402: "Governance ceiling (terminal; `x-should-retry: false`), or the deployment's entitlement lease expired",
  403: "The deployment's subscription is suspended, or a guardrail denied the request",
  404: 'A batch or file this key did not create, or that does not exist (the answer the provider gives for an unknown id)',
  409: 'A batch whose output is not ready yet, or whose provider is no longer configured',
  413: 'Body (or decompressed body) over the limit',
  426: 'A WebSocket endpoint (`/v1/realtime`) asked for without an upgrade',
  415: 'Content-Encoding the gateway cannot decode, or a body that is not JSON on a route that reads JSON',
  429: 'Rate limited; `Retry-After` (at most 60 s) says when to retry',
  500: 'A `/v1/*` path no provider serves (`x-should-retry: false`), or a gateway failure',
  502: 'The provider could not be reached, dropped its answer midway, or answered unusably, or refused a realtime session (`x-gw-error-source: upstream`)',
  503: 'A dependency is unreachable (`key_store_unavailable` arrives in the key-failure envelope), or the replica is shutting down and stopped a call the provider had not answered by its drain deadline (`gateway_draining`: `retry-after: 1`, `x-should-retry: true`; a stream already under way ends with an SSE error event of that code instead)',
};

const inferenceCodes = [...codesByStatus(gatewayErrorCatalog, carriedBy('inference'))].filter(
  ([status]) => statusSummaries[status] !== undefined,
);

const envelopes: Json = {
  InferenceError: {
    type: 'object',
    description:
      'Chat completions, completions, embeddings and passthrough errors. Provider errors keep the provider body; a provider 5xx gains a sentence naming the provider in `error.message`.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['message', 'type'],
        properties: { message: { type: 'string' }, type: { type: 'string' }, code: { type: ['string', 'null'] } },
      },
    },
  },
  MessagesError: {
    type: 'object',
    description: 'Errors on the Messages lane (`/v1/messages`, `count_tokens`): the Anthropic envelope.',
    required: ['type', 'error'],
    properties: {
      type: { const: 'error' },
      error: {
        type: 'object',
        required: ['type', 'message'],
        properties: { type: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
  KeyFailure: {
    type: 'object',
    description: 'Client-key failures (401; 503 `key_store_unavailable`): the fixed machine envelope.',
    required: ['status', 'code', 'message'],
    properties: {
      status: { const: 'failure' },
      code: { enum: [...keyFailureCodes] },
      message: { type: 'string' },
      hint: { type: 'string' },
    },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function errorResponses(messagesLane: boolean): Json {
  const envelope = messagesLane ? ref('MessagesError') : ref('InferenceError');
  const responses: Json = {
    '401': {
      description: 'Missing, malformed, unknown, expired, revoked or deactivated client key',
      content: { 'application/json': { schema: ref('KeyFailure') } },
    },
  };
  for (const [status, codes] of inferenceCodes) {
    responses[String(status)] = {
      description: `${statusSummaries[status]}. Codes: ${listCodes(codes)}.`,
      content: { 'application/json': { schema: envelope } },
    };
  }
  return responses;
}

/** Adds the envelopes and, to every `/v1/*` operation, the error answers it can give (keeping any it declares). */
export function withInferenceErrors<Document extends Json>(document: Document): Document {
  const components = (document.components ?? {}) as Json;
  const schemas = { ...((components.schemas ?? {}) as Json), ...envelopes };
  const paths = { ...((document.paths ?? {}) as Record<string, Record<string, Json>>) };
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/v1/')) continue;
    const responses = errorResponses(path.startsWith('/v1/messages'));
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, operation]) => [
        method,
        typeof operation === 'object' && operation !== null && 'responses' in operation
          ? { ...operation, responses: { ...responses, ...(operation.responses as Json) } }
          : operation,
      ]),
    );
  }
  return { ...document, components: { ...components, schemas }, paths };
}
