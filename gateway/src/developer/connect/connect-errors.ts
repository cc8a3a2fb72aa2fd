import type { FastifyInstance } from 'fastify';
import { AppError, normalizeRequestError } from '@gw/platform';
import type { DeviceCertificateFailure, DeviceProofFailure } from '@gw/platform';
import { KeyFailure } from '../../errors.js';

/** Coded errors of the connect surface (spec 000 §4.2, §7). */
export const connectErrors = {
  handleNotFound: () => new AppError({ status: 404, code: 'handle_not_found', message: 'The handle is unknown or has expired.' }),
  retrievalUnavailable: () => new AppError({ status: 503, code: 'retrieval_unavailable', message: 'The retrieval store is unavailable; the original cannot be fetched right now.', retryable: true }),
  sliceUnsupported: () =>
    new AppError({
      status: 503,
      code: 'slice_unsupported',
      message: 'The optimizer behind this gateway does not support startLine, endLine or grep; retrieve the whole original with only the handle.',
    }),
  leaseStoreUnavailable: () => new AppError({ status: 503, code: 'lease_store_unavailable', message: 'The retrieval lease could not be renewed; retry shortly.', retryable: true }),
  // spec 000 §7: a static message, whatever failed underneath.
  deviceTokenUnavailable: () => new AppError({ status: 503, code: 'device_token_unavailable', message: 'Device tokens need the shared relational store, which is unavailable.', retryable: true }),
  deviceTokenTaken: () => new AppError({ status: 409, code: 'device_token_taken', message: 'This device token is registered to another seat; generate a new one.' }),
  seatStoreUnavailable: () => new AppError({ status: 503, code: 'seat_store_unavailable', message: 'The seat store is unavailable; retry shortly.', retryable: true }),
  directiveNotFound: () => new AppError({ status: 404, code: 'directive_not_found', message: 'No such directive for this seat.' }),
  enrollmentRejected: (failure: 'unknown' | 'expired' | 'exhausted' | 'revoked') =>
    new AppError({
      status: 401,
      code: `enrollment_${failure}`,
      message: { unknown: 'The enrollment token is not valid.', expired: 'The enrollment link has expired; ask an administrator for a new one.', exhausted: 'The enrollment link has been used as many times as it allows; ask an administrator for a new one.', revoked: 'The enrollment link was revoked; ask an administrator for a new one.' }[failure],
    }),
  enrollmentUserMismatch: () => new AppError({ status: 403, code: 'enrollment_user_mismatch', message: 'This enrollment link is for another developer.' }),
  enrollmentUserBlocked: () => new AppError({ status: 403, code: 'user_deactivated', message: 'This developer’s access is revoked or deactivated; the link mints no key for them.' }),
  enrollmentIdentityTaken: () => new AppError({ status: 409, code: 'enrollment_identity_taken', message: 'This address already belongs to a developer; ask an administrator for a link made out to it.' }),
  enrollmentUserRequired: () => new AppError({ status: 400, code: 'invalid_request', message: 'body.user: this enrollment link names no developer; send your e-mail address.' }),
  deviceIdentityUnavailable: () =>
    new AppError({ status: 503, code: 'device_identity_unavailable', message: 'This gateway verifies no device certificates: it needs GW_DEPLOYMENT_ID and a device CA key (pinned or GW_DEVICE_CA_KEY).' }),
  apiKeyHeaderRequired: () => new AppError({ status: 400, code: 'invalid_request', message: 'Send the current client key in x-gw-api-key: the proof of possession is bound to it.' }),
  invalidDeviceCertificate: (reason: DeviceCertificateFailure) =>
    new AppError({
      status: 401,
      code: 'invalid_device_certificate',
      message: {
        malformed: 'The device certificate is not a signed certificate of the known shape.',
        unknown_key: 'The device certificate is signed by a key this gateway does not trust.',
        bad_signature: 'The device certificate’s signature does not verify.',
        wrong_deployment: 'The device certificate was issued to another deployment.',
        expired: 'The device certificate has expired; renew it at billing.',
        not_yet_valid: 'The device certificate is not valid yet.',
      }[reason],
    }),
  deviceCertificateMismatch: () => new AppError({ status: 403, code: 'device_certificate_mismatch', message: 'The device certificate belongs to another developer than this key.' }),
  invalidProof: (reason: Exclude<DeviceProofFailure, 'stale' | 'future'>) =>
    new AppError({
      status: 401,
      code: 'invalid_proof',
      message: {
        malformed: 'The proof of possession is not a signed proof of the known shape.',
        bad_signature: 'The proof of possession is not signed by the certificate’s key.',
        wrong_purpose: 'The proof of possession was made for another purpose.',
        wrong_certificate: 'The proof of possession was made for another certificate.',
        wrong_key: 'The proof of possession was made for another client key.',
      }[reason],
    }),
  staleProof: (reason: 'stale' | 'future') =>
    new AppError({ status: 401, code: 'stale_proof', message: reason === 'stale' ? 'The proof of possession is too old; sign a fresh one.' : 'The proof of possession is dated in the future; check the device clock.' }),
  proofReplayed: () => new AppError({ status: 401, code: 'proof_replayed', message: 'This proof of possession was already used; sign a fresh one.' }),
  proofStoreUnavailable: () => new AppError({ status: 503, code: 'proof_store_unavailable', message: 'Proofs of possession cannot be checked for replay right now; retry shortly.', retryable: true }),
  keyHeartbeatUnavailable: () => new AppError({ status: 503, code: 'key_store_unavailable', message: 'The key store is unavailable; the key was not extended. Retry shortly.', retryable: true }),
  serviceKeyNotAllowed: () =>
    new AppError({ status: 403, code: 'service_key_not_allowed', message: 'The connect API serves developers’ tools: use a developer’s client key, not a service key (service keys are for /v1/*).' }),
  unsupportedMediaType: () => new AppError({ status: 415, code: 'unsupported_media_type', message: 'Connect routes read JSON: send content-type application/json.' }),
  invalidJson: () => new AppError({ status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' }),
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
