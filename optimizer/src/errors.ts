import { defineErrorCatalog, errorRaiser, errorResponseSchemas } from '@gw/platform';
import { optimizerErrorSchema } from '@gw/contracts';

/**
 * The optimizer's one catalog of coded errors. Every non-2xx answer is `{error: {code, message}}` (the `error`
 * envelope). The model path never sees these: the gateway fails open on any optimizer error.
 */
export const optimizerErrorCatalog = defineErrorCatalog({
  invalid_request: { status: 400, envelope: 'error', message: 'the request is invalid' },
  invalid_grep: { status: 400, envelope: 'error', message: 'the grep pattern is invalid' },
  cache_request_required: {
    status: 400,
    envelope: 'error',
    message: 'a per-tenant bearer must send `request` so the cache key can be re-derived',
  },
  activation_too_soon: {
    status: 400,
    envelope: 'error',
    message: 'rollouts.agentContinuationV1ActivateAt must be at least 60 seconds in the future when first set',
  },
  unauthorized: { status: 401, envelope: 'error', message: 'missing or invalid bearer token' },
  admin_disabled: {
    status: 401,
    code: 'unauthorized',
    envelope: 'error',
    message: 'admin routes are disabled: GW_ADMIN_TOKEN is not set',
  },
  signature_missing: { status: 401, envelope: 'error', message: 'x-gw-signature is required' },
  signature_malformed: { status: 401, envelope: 'error', message: 'x-gw-signature must be <timestamp>.<signature>' },
  signature_non_canonical: { status: 401, envelope: 'error', message: 'x-gw-signature is not spelled canonically' },
  signature_stale: { status: 401, envelope: 'error', message: 'x-gw-signature is outside the 60-second window' },
  signature_replayed: { status: 401, envelope: 'error', message: 'x-gw-signature was already used' },
  signature_invalid: { status: 401, envelope: 'error', message: 'x-gw-signature does not verify' },
  optimizer_paused: { status: 402, envelope: 'error', message: 'optimization is paused for this deployment' },
  lease_invalid: { status: 402, envelope: 'error', message: 'the entitlement lease is expired or does not verify' },
  subscription_suspended: { status: 403, envelope: 'error', message: 'the subscription is suspended' },
  handle_not_found: { status: 404, envelope: 'error', message: 'unknown or expired handle' },
  recording_disabled: {
    status: 404,
    envelope: 'error',
    message: 'recording is disabled: start the optimizer with GW_OBSERVABILITY_DB_URL or GW_SPEND_DB_URL',
  },
  not_found: { status: 404, envelope: 'error', message: 'no such route' },
  activation_immutable: {
    status: 409,
    envelope: 'error',
    message: 'rollouts.agentContinuationV1ActivateAt is immutable once set',
  },
  body_too_large: {
    status: 413,
    envelope: 'error',
    message: 'request body exceeds the limit (GW_OPTIMIZER_MAX_BODY_BYTES)',
  },
  unsupported_media_type: { status: 415, envelope: 'error', message: 'send application/json' },
  internal: { status: 500, envelope: 'error', message: 'internal error', retryable: true },
  store_unavailable: { status: 503, envelope: 'error', message: 'the retrieval store is unavailable', retryable: true },
  row_unreadable: { status: 503, envelope: 'error', message: 'the stashed row cannot be decrypted' },
  durable_unavailable: { status: 503, envelope: 'error', message: 'the durable store is unavailable', retryable: true },
});

export type OptimizerErrorKey = keyof typeof optimizerErrorCatalog;

/** Raises an optimizer error by its catalog key, with a specific message where it says more. */
export const optimizerError = errorRaiser(optimizerErrorCatalog);

/** A route's error responses in the OpenAPI document, from the catalog entries it can answer with. */
export const optimizerErrorResponses = (keys: readonly OptimizerErrorKey[]) =>
  errorResponseSchemas(optimizerErrorCatalog, keys, optimizerErrorSchema);

export type SignatureFailure = 'missing' | 'malformed' | 'non_canonical' | 'stale' | 'replayed' | 'invalid';

/** What a signed, lease-gated hook can answer besides its own errors. */
export const hookGateErrors = [
  'invalid_request',
  'unauthorized',
  'signature_missing',
  'signature_malformed',
  'signature_non_canonical',
  'signature_stale',
  'signature_replayed',
  'signature_invalid',
  'optimizer_paused',
  'lease_invalid',
  'subscription_suspended',
  'body_too_large',
] as const satisfies readonly OptimizerErrorKey[];
