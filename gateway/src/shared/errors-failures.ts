import { defineErrorCatalog } from '@gw/platform';

/** The gateway's catalog entries for calls that failed (499 and 5xx); assembled in `../errors.ts`. */
export const failedCallErrors = defineErrorCatalog({
  // 499 (the nginx convention: a client that left; only the spend row reads it)
  client_closed: {
    status: 499,
    envelope: 'inference',
    message: 'The client closed the connection before the provider answered.',
  },
  // 500
  unrecognized_path: {
    status: 500,
    envelope: 'inference',
    message: 'No provider serves this /v1/* path.',
    headers: { 'x-should-retry': 'false' },
  },
  internal_error: { status: 500, envelope: ['inference', 'admin'], message: 'The gateway failed to answer.' },
  // 502
  upstream_unreachable: {
    status: 502,
    envelope: 'inference',
    message: 'The provider could not be reached. This is not a gateway failure.',
    retryable: true,
  },
  upstream_interrupted: {
    status: 502,
    envelope: 'inference',
    message: 'The provider dropped the connection before its answer was complete. This is not a gateway failure.',
    retryable: true,
  },
  invalid_upstream_response: { status: 502, envelope: 'inference', message: 'The provider answered unusably.' },
  upstream_refused: {
    status: 502,
    envelope: 'inference',
    message: 'The provider refused the realtime session. This is not a gateway failure.',
  },
  optimizer_unreachable: {
    status: 502,
    envelope: 'admin',
    message: 'The optimizer did not answer; nothing was changed through this call.',
    retryable: true,
  },
  optimizer_admin_refused: {
    status: 502,
    envelope: 'admin',
    message:
      "The optimizer refused the gateway's admin bearer: give the optimizer's GW_ADMIN_TOKEN the value of the gateway's GW_OPTIMIZER_ADMIN_TOKEN (or GW_ADMIN_TOKEN).",
  },
  support_intake_unavailable: {
    status: 502,
    code: 'billing_unavailable',
    envelope: 'admin',
    message: 'The support intake did not take the bundle.',
  },
  endpoint_control_unreachable: {
    status: 502,
    envelope: 'admin',
    message: 'The endpoint evidence service did not answer; retry shortly.',
    retryable: true,
  },
  endpoint_control_refused: {
    status: 502,
    envelope: 'admin',
    message:
      'The endpoint evidence service refused the gateway’s admin bearer: set GW_ENDPOINT_CONTROL_ADMIN_TOKEN to its admin token.',
  },
  connector_oauth_unavailable: {
    status: 502,
    envelope: 'connect',
    message: 'The connector’s authorization server could not be used.',
  },
  // 503
  guardrail_unavailable: {
    status: 503,
    envelope: 'inference',
    message:
      'A guardrail could not check this request and is configured to refuse calls it cannot check. Retry shortly.',
    retryable: true,
  },
  governance_unavailable: {
    status: 503,
    envelope: 'inference',
    message: 'Strict budget enforcement cannot reach its counters right now; retry shortly.',
    retryable: true,
    headers: { 'retry-after': '1' },
  },
  gateway_draining: {
    status: 503,
    envelope: 'inference',
    message:
      'This gateway replica is shutting down and stopped the call before the provider answered; retry the request.',
    retryable: true,
    headers: { 'retry-after': '1', 'x-should-retry': 'true' },
  },
  key_store_unavailable: {
    status: 503,
    envelope: ['key-failure', 'connect'],
    message: 'The key store is unavailable; a valid client key cannot be verified right now.',
    retryable: true,
  },
  admin_key_store_unavailable: {
    status: 503,
    envelope: 'admin',
    message: 'The admin key store is unavailable; an admin API key cannot be verified right now.',
    retryable: true,
  },
  unavailable: { status: 503, envelope: 'admin', message: 'A dependency is unavailable.' },
  provisioning_token_store_unavailable: {
    status: 503,
    envelope: 'admin',
    message: 'The provisioning token store is unavailable; the token cannot be verified right now.',
    retryable: true,
  },
  device_identity_unavailable: {
    status: 503,
    envelope: 'connect',
    message:
      'This gateway verifies no device certificates: it needs GW_DEPLOYMENT_ID and a device CA key (pinned or GW_DEVICE_CA_KEY).',
  },
  proof_store_unavailable: {
    status: 503,
    envelope: 'connect',
    message: 'Proofs of possession cannot be checked for replay right now; retry shortly.',
    retryable: true,
  },
  fleet_webhook_unavailable: {
    status: 503,
    envelope: 'connect',
    message:
      'The failing-policies webhook is not configured on this gateway, or its configuration cannot be read; nothing was remediated.',
    retryable: true,
  },
  optimizer_not_configured: {
    status: 503,
    envelope: 'admin',
    message: 'No optimizer is configured (GW_OPTIMIZER_URL).',
  },
  optimizer_unavailable: {
    status: 503,
    envelope: 'admin',
    message: 'The optimizer could not do this right now.',
    retryable: true,
  },
  retrieval_unavailable: {
    status: 503,
    envelope: 'connect',
    message: 'The retrieval store is unavailable; the original cannot be fetched right now.',
    retryable: true,
  },
  slice_unsupported: {
    status: 503,
    envelope: 'connect',
    message:
      'The optimizer behind this gateway does not support startLine, endLine or grep; retrieve the whole original with only the handle.',
  },
  lease_store_unavailable: {
    status: 503,
    envelope: 'connect',
    message: 'The retrieval lease could not be renewed; retry shortly.',
    retryable: true,
  },
  device_token_unavailable: {
    status: 503,
    envelope: 'connect',
    message: 'Device tokens need the shared relational store, which is unavailable.',
    retryable: true,
  },
  seat_store_unavailable: {
    status: 503,
    envelope: 'connect',
    message: 'The seat store is unavailable; retry shortly.',
    retryable: true,
  },
  enroll_secret_unreadable: {
    status: 503,
    envelope: 'admin',
    message: 'The stored enroll secret does not open under the current GW_KEYSTORE_KEY: rotate it again.',
  },
  identity_provider_unavailable: {
    status: 503,
    envelope: ['mcp', 'admin'],
    message: 'The identity provider’s keys could not be fetched; retry shortly.',
    retryable: true,
    headers: { 'retry-after': '5' },
  },
  billing_unavailable: {
    status: 503,
    envelope: ['mcp', 'cli-login'],
    message: 'The billing service cannot be reached right now; retry shortly.',
    retryable: true,
  },
  org_hub_unconfirmed: {
    status: 503,
    envelope: 'mcp',
    message: 'An operator has not yet confirmed the organization policy and this hub’s exact URL with billing.',
    retryable: true,
    headers: { 'retry-after': '60' },
  },
});
