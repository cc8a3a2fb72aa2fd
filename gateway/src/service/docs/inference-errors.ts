import { keyFailureCodes } from '../../errors.js';

/**
 * The inference plane's error answers in the OpenAPI document. Spec 000 §7 fixes the envelopes but leaves the codes of
 * 400 and 429 bodies unshown; these are the gateway's, published here. They are added to the generated document
 * rather than declared as route response schemas, because a response schema would also serialise (and could reject)
 * the error bodies the handlers build, and the Messages lane's envelope differs from the others.
 */

type Json = Record<string, unknown>;

const codesByStatus: ReadonlyArray<[status: string, summary: string, codes: readonly string[]]> = [
  ['400', 'Malformed or unserviceable request', ['invalid_json', 'invalid_request', 'invalid_content_encoding', 'unknown_provider', 'unknown_model', 'no_provider', 'no_default_model', 'invalid_config', 'config_carries_credential', 'custom_host_not_allowed', 'unsupported_feature', 'unsupported_by_provider', 'seat_token_required']],
  ['402', 'Governance ceiling (terminal; `x-should-retry: false`)', ['user_token_cap_exceeded', 'user_budget_exceeded', 'service_key_budget_exceeded']],
  ['413', 'Body (or decompressed body) over the limit', ['body_too_large']],
  ['415', 'Content-Encoding the gateway cannot decode, or a body that is not JSON on a route that reads JSON', ['unsupported_content_encoding', 'unsupported_media_type']],
  ['429', 'Rate limited; `Retry-After` (at most 60 s) says when to retry', ['rate_limit_exceeded', 'concurrency_limit_exceeded', 'upstream_throttled', 'auth_failures_throttled']],
  ['500', 'A `/v1/*` path no provider serves (`x-should-retry: false`), or a gateway failure', ['unrecognized_path', 'internal_error']],
  ['502', 'The provider could not be reached, dropped its answer midway, or answered unusably or refused a realtime session (`x-gw-error-source: upstream`)', ['upstream_unreachable', 'upstream_interrupted', 'invalid_upstream_response', 'upstream_refused']],
  ['503', 'A dependency is unreachable (`key_store_unavailable` arrives in the key-failure envelope), or the replica is shutting down and stopped a call the provider had not answered by its drain deadline (`gateway_draining`: `retry-after: 1`, `x-should-retry: true`; a stream already under way ends with an SSE error event of that code instead)', ['governance_unavailable', 'gateway_draining']],
];

const envelopes: Json = {
  InferenceError: {
    type: 'object',
    description: 'Chat completions, completions, embeddings and passthrough errors (spec 000 §7). Provider errors keep the provider body; a provider 5xx gains a sentence naming the provider in `error.message`.',
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
      error: { type: 'object', required: ['type', 'message'], properties: { type: { type: 'string' }, message: { type: 'string' } } },
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
    '401': { description: 'Missing, malformed, unknown, expired, revoked or deactivated client key', content: { 'application/json': { schema: ref('KeyFailure') } } },
  };
  for (const [status, summary, codes] of codesByStatus) {
    responses[status] = { description: `${summary}. Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`, content: { 'application/json': { schema: envelope } } };
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
      Object.entries(item).map(([method, operation]) => [method, typeof operation === 'object' && operation !== null && 'responses' in operation ? { ...operation, responses: { ...responses, ...(operation.responses as Json) } } : operation]),
    );
  }
  return { ...document, components: { ...components, schemas }, paths };
}
