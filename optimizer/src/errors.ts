import { AppError } from '@gw/platform';

/**
 * The optimizer's one catalog of coded errors (spec 001 §7). Every non-2xx answer is `{error: {code, message}}`.
 * The model path never sees these: the gateway fails open on any optimizer error.
 */
export const optimizerErrors = {
  invalidRequest: (message: string) => new AppError({ status: 400, code: 'invalid_request', message }),
  invalidGrep: (message: string) => new AppError({ status: 400, code: 'invalid_grep', message }),
  cacheRequestRequired: () =>
    new AppError({ status: 400, code: 'cache_request_required', message: 'a per-tenant bearer must send `request` so the cache key can be re-derived' }),
  activationTooSoon: () =>
    new AppError({ status: 400, code: 'activation_too_soon', message: 'rollouts.agentContinuationV1ActivateAt must be at least 60 seconds in the future when first set' }),
  activationImmutable: () => new AppError({ status: 409, code: 'activation_immutable', message: 'rollouts.agentContinuationV1ActivateAt is immutable once set' }),
  unauthorized: () => new AppError({ status: 401, code: 'unauthorized', message: 'missing or invalid bearer token' }),
  adminDisabled: () => new AppError({ status: 401, code: 'unauthorized', message: 'admin routes are disabled: GW_ADMIN_TOKEN is not set' }),
  signatureRejected: (reason: SignatureFailure) => new AppError({ status: 401, code: `signature_${reason}`, message: signatureMessages[reason] }),
  optimizerPaused: () => new AppError({ status: 402, code: 'optimizer_paused', message: 'optimization is paused for this deployment' }),
  leaseInvalid: () => new AppError({ status: 402, code: 'lease_invalid', message: 'the entitlement lease is expired or does not verify' }),
  subscriptionSuspended: () => new AppError({ status: 403, code: 'subscription_suspended', message: 'the subscription is suspended' }),
  handleNotFound: () => new AppError({ status: 404, code: 'handle_not_found', message: 'unknown or expired handle' }),
  recordingDisabled: () =>
    new AppError({ status: 404, code: 'recording_disabled', message: 'recording is disabled: start the optimizer with GW_OBSERVABILITY_DB_URL or GW_SPEND_DB_URL' }),
  notFound: () => new AppError({ status: 404, code: 'not_found', message: 'no such route' }),
  bodyTooLarge: (limit: number) => new AppError({ status: 413, code: 'body_too_large', message: `request body exceeds ${limit} bytes (GW_OPTIMIZER_MAX_BODY_BYTES)` }),
  unsupportedMediaType: () => new AppError({ status: 415, code: 'unsupported_media_type', message: 'send application/json' }),
  storeUnavailable: (message = 'the retrieval store is unavailable') => new AppError({ status: 503, code: 'store_unavailable', message, retryable: true }),
  rowUnreadable: () => new AppError({ status: 503, code: 'row_unreadable', message: 'the stashed row cannot be decrypted', retryable: false }),
  internal: () => new AppError({ status: 500, code: 'internal', message: 'internal error', retryable: true }),
  durableUnavailable: (message: string) => new AppError({ status: 503, code: 'durable_unavailable', message, retryable: true }),
} as const;

export type SignatureFailure = 'missing' | 'malformed' | 'non_canonical' | 'stale' | 'replayed' | 'invalid';

const signatureMessages: Record<SignatureFailure, string> = {
  missing: 'x-gw-signature is required',
  malformed: 'x-gw-signature must be <timestamp>.<signature>',
  non_canonical: 'x-gw-signature is not spelled canonically',
  stale: 'x-gw-signature is outside the 60-second window',
  replayed: 'x-gw-signature was already used',
  invalid: 'x-gw-signature does not verify',
};
