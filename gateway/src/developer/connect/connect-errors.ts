import type { FastifyInstance } from 'fastify';
import { normalizeRequestError } from '@gw/platform';
import { gatewayError, KeyFailure } from '../../errors.js';

/** Coded errors of the connect surface, from the gateway's catalog (`src/errors.ts`). */
export const connectErrors = {
  handleNotFound: () => gatewayError('handle_not_found'),
  retrievalUnavailable: () => gatewayError('retrieval_unavailable'),
  sliceUnsupported: () => gatewayError('slice_unsupported'),
  leaseStoreUnavailable: () => gatewayError('lease_store_unavailable'),
  // A static message, whatever failed underneath.
  deviceTokenUnavailable: () => gatewayError('device_token_unavailable'),
  deviceTokenTaken: () => gatewayError('device_token_taken'),
  seatStoreUnavailable: () => gatewayError('seat_store_unavailable'),
  directiveNotFound: () => gatewayError('directive_not_found'),
  enrollmentRejected: (failure: 'unknown' | 'expired' | 'exhausted' | 'revoked') => gatewayError(`enrollment_${failure}`),
  enrollmentUserMismatch: () => gatewayError('enrollment_user_mismatch'),
  enrollmentUserBlocked: () => gatewayError('user_access_revoked', 'This developer’s access is revoked or deactivated; the link mints no key for them.'),
  enrollmentIdentityTaken: () => gatewayError('enrollment_identity_taken'),
  enrollmentUserRequired: () => gatewayError('invalid_request', 'body.user: this enrollment link names no developer; send your e-mail address.'),
  serviceKeyNotAllowed: () => gatewayError('service_key_not_allowed'),
  unsupportedMediaType: () => gatewayError('unsupported_media_type', 'Connect routes read JSON: send content-type application/json.'),
  invalidJson: () => gatewayError('invalid_json'),
} as const;

/**
 * One envelope for the whole connect surface: `{status: "failure", code, message, hint?}` — the machine envelope that
 * client-key failures use (spec 000 §7), extended to every connect error so the CLI reads one shape.
 */
export function installConnectErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (thrown, request, reply) => {
    const failure = normalizeRequestError(thrown, { service: 'gateway' });
    const hint = failure.error instanceof KeyFailure ? failure.error.hint : undefined;
    if (failure.kind === 'internal') request.log.error({ err: thrown }, 'unhandled connect error');
    return reply
      .code(failure.status)
      .headers(failure.headers)
      .send({ status: 'failure', code: failure.code, message: failure.message, ...(hint ? { hint } : {}) });
  });
}
