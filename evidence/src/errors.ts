import { z } from 'zod';
import { defineErrorCatalog, errorRaiser, errorResponseSchemas } from '@gw/platform';

export const errorEnvelope = z
  .object({ error: z.object({ code: z.string(), message: z.string() }) })
  .describe('Every non-2xx answer');

/**
 * The evidence service's one catalog of coded errors. The admin and report surfaces answer `{error: {code, message}}`
 * (the `error` envelope); the agent lane renders the same errors in the agent protocol's own body (`agent`: osquery's
 * `node_invalid`, orbit's `{message, errors}`), where `node_invalid` and `enroll_refused` tell the agent to enroll.
 */
export const evidenceErrorCatalog = defineErrorCatalog({
  invalid_request: { status: 400, envelope: 'error', message: 'The request is invalid.' },
  invalid_report: { status: 400, envelope: 'error', message: 'The report is invalid.' },
  unauthorized: { status: 401, envelope: 'error', message: 'A valid bearer is required.' },
  node_invalid: { status: 401, envelope: 'agent', message: 'The node key is unknown or was replaced: enroll again.' },
  enroll_refused: { status: 401, envelope: 'agent', message: 'The enroll secret is not valid for any organization.' },
  not_found: { status: 404, envelope: 'error', message: 'The resource was not found.' },
  conflict: { status: 409, envelope: 'error', message: 'The request conflicts with the current state.' },
  monitor_only: {
    status: 409,
    envelope: 'error',
    message: 'This host is customer-managed and monitor-only: the gateway runs no script on it.',
  },
  no_remediation: {
    status: 409,
    envelope: 'error',
    message: 'The policy has no remediation script: it is monitor-only.',
  },
  policy_disabled: { status: 409, envelope: 'error', message: 'The policy is disabled for this organization.' },
  platform_mismatch: {
    status: 409,
    envelope: 'error',
    message: 'The policy checks another platform than this host runs.',
  },
  nothing_to_remediate: {
    status: 409,
    envelope: 'error',
    message: 'No failing check on this host has a remediation script.',
  },
  remediation_suspended: {
    status: 409,
    envelope: 'error',
    message: 'A vendor-delivered check replaces this check: its remediation is suspended while it does.',
  },
  delivered_check_unverified: {
    status: 400,
    envelope: 'error',
    message: 'The delivered check does not verify against a key pinned in the image.',
  },
  delivered_check_names_script: {
    status: 400,
    envelope: 'error',
    message: 'A delivered check can never carry or name a script.',
  },
  delivered_check_not_read_only: {
    status: 400,
    envelope: 'error',
    message: 'A delivered check’s query must be one read-only SELECT.',
  },
  delivered_check_invalid: {
    status: 400,
    envelope: 'error',
    message: 'The delivered check is not a monitor-only, non-critical check of the known shape.',
  },
  delivered_check_stale: {
    status: 409,
    envelope: 'error',
    message: 'The service holds a later revision of this delivered check.',
  },
  delivered_check_name_taken: {
    status: 409,
    envelope: 'error',
    message: 'Another delivered check already uses this name.',
  },
  delivered_checks_off: {
    status: 409,
    envelope: 'error',
    message: 'The policy-push lane is switched off for this organization: delivered checks are refused.',
  },
  body_too_large: { status: 413, envelope: 'error', message: 'The body is larger than the limit.' },
  unsupported_media_type: { status: 415, envelope: 'error', message: 'Send application/json.' },
  internal_error: { status: 500, envelope: 'error', message: 'The evidence service failed to answer.' },
  store_unavailable: {
    status: 503,
    envelope: 'error',
    message: 'The evidence store is unavailable; retry shortly.',
    retryable: true,
    headers: { 'retry-after': '1' },
  },
});

export type EvidenceErrorKey = keyof typeof evidenceErrorCatalog;

/** Raises an evidence error by its catalog key, with a specific message where it says more. */
export const evidenceError = errorRaiser(evidenceErrorCatalog);

/** A route's error responses in the OpenAPI document, from the catalog entries it can answer with. */
export const evidenceErrorResponses = (keys: readonly EvidenceErrorKey[]) =>
  errorResponseSchemas(evidenceErrorCatalog, keys, errorEnvelope);

/** The errors whose message is built from what the call site knows. */
export const evidenceErrors = {
  notFound: (what = 'The resource') => evidenceError('not_found', `${what} was not found.`),
  bodyTooLarge: (limit: number) => evidenceError('body_too_large', `The body is larger than ${limit} bytes.`),
} as const;
