import { defineErrorCatalog } from '@gw/platform';

/** The gateway's catalog entries for conflicts, oversize bodies and limits (409 to 429); assembled in `../errors.ts`. */
export const conflictAndLimitErrors = defineErrorCatalog({
  // 409
  conflict: { status: 409, envelope: ['admin', 'connect'], message: 'The request conflicts with the current state.' },
  device_token_taken: {
    status: 409,
    envelope: 'connect',
    message: 'This device token is registered to another seat; generate a new one.',
  },
  enrollment_identity_taken: {
    status: 409,
    envelope: 'connect',
    message: 'This address already belongs to a developer; ask an administrator for a link made out to it.',
  },
  enroll_secret_unavailable: {
    status: 409,
    envelope: ['connect', 'admin'],
    message:
      'No agent enroll secret is available yet: an administrator rotates one at POST /admin/v1/fleet/enroll-secret/rotate.',
  },
  support_intake_not_configured: {
    status: 409,
    envelope: 'admin',
    message: 'Sharing needs the billing service (GW_BILLING_URL); download the bundle and send it to support yourself.',
  },
  desktop_policy_disabled_for_profile: {
    status: 409,
    code: 'desktop_policy_disabled',
    envelope: 'admin',
    message:
      'The desktop policy is disabled, so its bootstrap endpoint answers 404; enable it (PUT /admin/v1/policies/claude-desktop) before downloading the profile.',
  },
  provider_not_configured: {
    status: 409,
    envelope: 'inference',
    message: 'The provider that ran this batch is no longer configured.',
  },
  batch_output_not_ready: {
    status: 409,
    envelope: 'inference',
    message: 'The batch has no output yet; download it once the batch has completed.',
  },
  // 413, 415
  body_too_large: { status: 413, envelope: 'inference', message: 'The request body is too large.' },
  payload_too_large: { status: 413, envelope: 'admin', message: 'The payload is too large.' },
  installer_too_large: {
    status: 413,
    envelope: 'admin',
    message: 'The installer is larger than GW_FLEET_INSTALLER_MAX_BYTES allows; nothing was stored.',
  },
  installer_media_type: {
    status: 415,
    envelope: 'admin',
    message: 'The Content-Type does not name a package of the kind this OS installs (or application/octet-stream).',
  },
  range_not_satisfiable: {
    status: 416,
    envelope: 'admin',
    message: 'The requested byte range is not within the installer.',
  },
  unsupported_content_encoding: {
    status: 415,
    envelope: 'inference',
    message: 'The Content-Encoding is not supported.',
  },
  upgrade_required: {
    status: 426,
    envelope: 'inference',
    message: 'This is a WebSocket endpoint: connect with an Upgrade: websocket request.',
    headers: { upgrade: 'websocket' },
  },
  unsupported_media_type: {
    status: 415,
    envelope: ['inference', 'connect'],
    message: 'This route reads a JSON body: send it with Content-Type: application/json.',
  },
  // 429
  rate_limit_exceeded: {
    status: 429,
    envelope: 'inference',
    message: 'Too many requests; retry after the Retry-After seconds.',
    retryable: true,
  },
  concurrency_limit_exceeded: {
    status: 429,
    envelope: 'inference',
    message: 'Too many concurrent requests; retry after the Retry-After seconds.',
    retryable: true,
  },
  upstream_throttled: {
    status: 429,
    envelope: 'inference',
    message: 'The provider is rate limiting; retry after the Retry-After seconds.',
    retryable: true,
  },
  auth_failures_throttled: {
    status: 429,
    envelope: ['inference', 'key-failure'],
    message: 'Too many requests with invalid keys from this address; slow down.',
  },
  rate_limited: {
    status: 429,
    envelope: ['admin', 'mcp', 'cli-login'],
    message: 'Too many requests; retry after the Retry-After seconds.',
  },
  support_bundle_throttled: {
    status: 429,
    envelope: 'admin',
    message: 'Support takes one bundle a minute from a deployment; retry shortly.',
  },
});
