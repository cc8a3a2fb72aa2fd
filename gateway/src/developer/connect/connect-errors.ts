import type { FastifyInstance } from 'fastify';
import { normalizeRequestError } from '@gw/platform';
import type { DeviceCertificateFailure, DeviceProofFailure } from '@gw/platform';
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
  enrollmentRejected: (failure: 'unknown' | 'expired' | 'exhausted' | 'revoked') =>
    gatewayError(`enrollment_${failure}`),
  enrollmentUserMismatch: () => gatewayError('enrollment_user_mismatch'),
  enrollmentUserBlocked: () =>
    gatewayError(
      'user_access_revoked',
      'This developer’s access is revoked or deactivated; the link mints no key for them.',
    ),
  enrollmentIdentityTaken: () => gatewayError('enrollment_identity_taken'),
  enrollmentUserRequired: () =>
    gatewayError('invalid_request', 'body.user: this enrollment link names no developer; send your e-mail address.'),
  deviceIdentityUnavailable: () => gatewayError('device_identity_unavailable'),
  apiKeyHeaderRequired: () =>
    gatewayError(
      'invalid_request',
      'Send the current client key in x-gw-api-key: the proof of possession is bound to it.',
    ),
  invalidDeviceCertificate: (reason: DeviceCertificateFailure) =>
    gatewayError(
      'invalid_device_certificate',
      {
        malformed: 'The device certificate is not a signed certificate of the known shape.',
        unknown_key: 'The device certificate is signed by a key this gateway does not trust.',
        bad_signature: 'The device certificate’s signature does not verify.',
        wrong_deployment: 'The device certificate was issued to another deployment.',
        expired: 'The device certificate has expired; renew it at billing.',
        not_yet_valid: 'The device certificate is not valid yet.',
      }[reason],
    ),
  deviceCertificateMismatch: () => gatewayError('device_certificate_mismatch'),
  invalidProof: (reason: Exclude<DeviceProofFailure, 'stale' | 'future'>) =>
    gatewayError(
      'invalid_proof',
      {
        malformed: 'The proof of possession is not a signed proof of the known shape.',
        bad_signature: 'The proof of possession is not signed by the certificate’s key.',
        wrong_purpose: 'The proof of possession was made for another purpose.',
        wrong_certificate: 'The proof of possession was made for another certificate.',
        wrong_key: 'The proof of possession was made for another client key.',
      }[reason],
    ),
  staleProof: (reason: 'stale' | 'future') =>
    gatewayError(
      'stale_proof',
      reason === 'stale'
        ? 'The proof of possession is too old; sign a fresh one.'
        : 'The proof of possession is dated in the future; check the device clock.',
    ),
  proofReplayed: () => gatewayError('proof_replayed'),
  proofStoreUnavailable: () => gatewayError('proof_store_unavailable'),
  keyHeartbeatUnavailable: () =>
    gatewayError('key_store_unavailable', 'The key store is unavailable; the key was not extended. Retry shortly.'),
  serviceKeyNotAllowed: () => gatewayError('service_key_not_allowed'),
  unsupportedMediaType: () =>
    gatewayError('unsupported_media_type', 'Connect routes read JSON: send content-type application/json.'),
  invalidJson: () => gatewayError('invalid_json'),
} as const;

/**
 * One envelope for the whole connect surface: `{status: "failure", code, message, hint?}` — the machine envelope that
 * client-key failures use, extended to every connect error so the CLI reads one shape.
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
