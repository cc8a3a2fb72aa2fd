import { AppError, defineErrorCatalog, envelopesOf, errorRaiser, type ErrorCatalogEntry } from '@gw/platform';

/**
 * The gateway's one catalog of coded errors: what a caller sees (status, code, default message) and whether a retry
 * can help. `envelope` names the surfaces whose envelope carries the code: `inference` (the OpenAI or Messages shape
 * on `/v1/*`), `key-failure` (the fixed machine envelope for client-key failures), `admin` (the v1 envelope with
 * `request_id` on `/admin/v1`, `{error: {code, message}}` on legacy `/admin`), `connect` (the connect API's machine
 * envelope), `mcp` (the tool servers) and `cli-login`. Call sites raise an entry by its key with `gatewayError`,
 * giving a specific message where it says more; the inference plane's OpenAPI error responses are generated from the
 * entries its envelope carries (`src/service/docs/inference-errors.ts`). An entry whose key is not its wire code is
 * a second status for that code.
 */
export const gatewayErrorCatalog = defineErrorCatalog({
  // 400
  invalid_json: { status: 400, envelope: ['inference', 'connect'], message: 'The request body is not valid JSON.' },
  invalid_request: {
    status: 400,
    envelope: ['inference', 'admin', 'connect', 'cli-login'],
    message: 'The request is invalid.',
  },
  invalid_content_encoding: {
    status: 400,
    envelope: 'inference',
    message: 'The request body is not valid for its Content-Encoding.',
  },
  unknown_provider: { status: 400, envelope: 'inference', message: 'Unknown provider.' },
  unknown_model: { status: 400, envelope: 'inference', message: 'Unknown model for the selected provider.' },
  no_provider: {
    status: 400,
    envelope: 'inference',
    message:
      'No provider selected: send x-gw-provider, an x-gw-config target, or configure a default provider (PUT /admin/v1/routing).',
  },
  no_default_model: {
    status: 400,
    envelope: 'inference',
    message: 'The request names no model and no default model is configured (PUT /admin/v1/routing {defaultModel}).',
  },
  invalid_config: { status: 400, envelope: ['inference', 'admin'], message: 'The routing config is invalid.' },
  config_carries_credential: {
    status: 400,
    envelope: ['inference', 'admin'],
    message: 'A routing config must not carry credentials; provider keys are held by the gateway.',
  },
  custom_host_not_allowed: {
    status: 400,
    envelope: 'inference',
    message: 'The custom host is not in GW_CUSTOM_HOST_ALLOWLIST.',
  },
  unsupported_feature: {
    status: 400,
    envelope: 'inference',
    message: 'The request uses a feature that cannot be sent to a provider of the other family.',
  },
  unsupported_by_provider: {
    status: 400,
    envelope: 'inference',
    message: 'The provider does not serve this endpoint.',
  },
  seat_token_required: {
    status: 400,
    envelope: 'inference',
    message:
      'The vendor lane forwards your own seat token: send it in Authorization (or x-api-key) and your gw key in x-gw-api-key.',
  },
  invalid_base_url: { status: 400, envelope: 'admin', message: 'The base URL is not a public https URL.' },
  policy_carries_credential: {
    status: 400,
    envelope: 'admin',
    message: 'A policy served to clients never carries secrets.',
  },
  team_not_allowed: {
    status: 400,
    envelope: 'cli-login',
    message: 'x-gw-team must be one of the teams this developer may join.',
  },
  authorization_expired: {
    status: 400,
    envelope: 'connect',
    message: 'This authorization link has expired or was already used; start again.',
  },
  authorization_denied: { status: 400, envelope: 'connect', message: 'The authorization server did not grant access.' },
  guardrail_refused_request: {
    status: 400,
    code: 'guardrail_denied',
    envelope: 'inference',
    message: 'A guardrail refused the request as malformed.',
  },
  // 401
  missing_key: { status: 401, envelope: ['key-failure', 'mcp'], message: 'A valid client key is required.' },
  key_unknown: { status: 401, envelope: ['key-failure', 'mcp'], message: 'A valid client key is required.' },
  key_expired: { status: 401, envelope: 'key-failure', message: 'A valid client key is required.' },
  key_revoked: { status: 401, envelope: 'key-failure', message: 'A valid client key is required.' },
  user_deactivated: { status: 401, envelope: 'key-failure', message: 'A valid client key is required.' },
  unauthenticated: { status: 401, envelope: 'admin', message: 'A valid admin credential is required.' },
  invalid_token: { status: 401, envelope: 'mcp', message: 'The access token was refused.' },
  enrollment_unknown: { status: 401, envelope: 'connect', message: 'The enrollment token is not valid.' },
  enrollment_expired: {
    status: 401,
    envelope: 'connect',
    message: 'The enrollment link has expired; ask an administrator for a new one.',
  },
  enrollment_exhausted: {
    status: 401,
    envelope: 'connect',
    message: 'The enrollment link has been used as many times as it allows; ask an administrator for a new one.',
  },
  enrollment_revoked: {
    status: 401,
    envelope: 'connect',
    message: 'The enrollment link was revoked; ask an administrator for a new one.',
  },
  // 402
  user_token_cap_exceeded: {
    status: 402,
    envelope: 'inference',
    message: 'The per-user token cap for this period is reached.',
    headers: { 'x-should-retry': 'false' },
  },
  user_budget_exceeded: {
    status: 402,
    envelope: 'inference',
    message: 'The per-user USD budget for this period is reached.',
    headers: { 'x-should-retry': 'false' },
  },
  service_key_budget_exceeded: {
    status: 402,
    envelope: 'inference',
    message: 'The service key’s monthly budget is reached.',
    headers: { 'x-should-retry': 'false' },
  },
  entitlement_expired: {
    status: 402,
    envelope: ['inference', 'connect'],
    message:
      "This deployment's entitlement lease has expired or cannot be verified; requests are refused until the gateway reaches billing again. Contact your administrator.",
  },
  // 403
  subscription_suspended: {
    status: 403,
    envelope: ['inference', 'connect'],
    message:
      "This deployment's subscription is suspended; requests are refused until billing restores it. Contact your administrator.",
  },
  guardrail_denied: { status: 403, envelope: 'inference', message: 'A guardrail denied the request.' },
  forbidden: {
    status: 403,
    envelope: 'admin',
    message: 'This operation requires a capability the caller does not hold.',
  },
  insufficient_scope: {
    status: 403,
    envelope: 'admin',
    message: 'This operation requires a scope the caller does not hold.',
  },
  deployment_scope_required: {
    status: 403,
    envelope: 'admin',
    message: 'This operation acts on the whole deployment; a tenant-bound principal cannot call it.',
  },
  service_key_not_allowed: {
    status: 403,
    envelope: ['connect', 'mcp'],
    message:
      'This surface serves people: use a developer’s client key, not a service key (service keys are for /v1/*).',
  },
  developer_required: {
    status: 403,
    envelope: 'connect',
    message: 'Connector authorization belongs to a developer: use a key minted for a person.',
  },
  enrollment_user_mismatch: {
    status: 403,
    envelope: 'connect',
    message: 'This enrollment link is for another developer.',
  },
  user_access_revoked: {
    status: 403,
    code: 'user_deactivated',
    envelope: ['connect', 'mcp', 'cli-login'],
    message: 'This developer’s access is revoked or deactivated.',
  },
  cli_login_denied: { status: 403, envelope: 'cli-login', message: 'The sign-in was refused.' },
  org_member_refused: {
    status: 403,
    envelope: 'mcp',
    message: 'The organization does not admit this member to the hub.',
  },
  sso_not_activated: {
    status: 403,
    envelope: 'mcp',
    message: 'The organization does not admit this member to the hub.',
  },
  no_active_connection: {
    status: 403,
    envelope: 'mcp',
    message: 'The organization does not admit this member to the hub.',
  },
  membership_not_unique: {
    status: 403,
    envelope: 'mcp',
    message: 'The organization does not admit this member to the hub.',
  },
  domain_not_allowed: {
    status: 403,
    envelope: 'mcp',
    message: 'The organization does not admit this member to the hub.',
  },
  member_revoked: { status: 403, envelope: 'mcp', message: 'The organization does not admit this member to the hub.' },
  // 404
  not_found: { status: 404, envelope: ['admin', 'connect'], message: 'Not found.' },
  handle_not_found: { status: 404, envelope: 'connect', message: 'The handle is unknown or has expired.' },
  directive_not_found: { status: 404, envelope: 'connect', message: 'No such directive for this seat.' },
  connector_not_found: {
    status: 404,
    envelope: 'connect',
    message: 'No remote MCP server of that name is in the desktop policy.',
  },
  claim_not_found: {
    status: 404,
    envelope: 'connect',
    message: 'The claim code is unknown, expired, already used, or belongs to another authorization.',
  },
  grant_not_found: { status: 404, envelope: 'admin', message: 'The hub holds no grant of that name.' },
  endpoint_control_not_configured: {
    status: 404,
    envelope: ['connect', 'admin'],
    message: 'This gateway has no endpoint evidence service (GW_ENDPOINT_CONTROL_URL is not set).',
  },
  cli_login_not_configured: {
    status: 404,
    envelope: 'cli-login',
    message:
      'CLI login needs the billing service, which this gateway is not connected to; ask an administrator for an enrollment link instead.',
  },
  cli_login_not_found: {
    status: 404,
    envelope: 'cli-login',
    message: 'No such CLI login session, or it has expired or finished; run the login again.',
  },
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
    envelope: 'connect',
    message:
      'No agent enroll secret is available yet: an administrator rotates one at POST /admin/v1/fleet/enroll-secret/rotate.',
  },
  support_intake_not_configured: {
    status: 409,
    envelope: 'admin',
    message: 'Sharing needs the billing service (GW_BILLING_URL); download the bundle and send it to support yourself.',
  },
  // 413, 415
  body_too_large: { status: 413, envelope: 'inference', message: 'The request body is too large.' },
  payload_too_large: { status: 413, envelope: 'admin', message: 'The payload is too large.' },
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
    envelope: 'key-failure',
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
    envelope: 'mcp',
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

export type GatewayErrorKey = keyof typeof gatewayErrorCatalog;

/** Raises a gateway error by its catalog key, with a specific message where it says more. */
export const gatewayError = errorRaiser(gatewayErrorCatalog);

/** Whether an entry's envelope is the named surface's (a filter for `codesByStatus`). */
export const carriedBy = (envelope: string) => (entry: ErrorCatalogEntry) => envelopesOf(entry).includes(envelope);

/** The codes of the machine envelope for client-key failures; the OpenAPI document publishes this list. */
export const keyFailureCodes = [
  'missing_key',
  'key_unknown',
  'key_expired',
  'key_revoked',
  'user_deactivated',
  'key_store_unavailable',
] as const satisfies readonly GatewayErrorKey[];
export type KeyFailureCode = (typeof keyFailureCodes)[number];

// A fixed message: a valid client key is required; the hint is safe to show and says what to do.
const keyFailureHints: Readonly<Record<KeyFailureCode, string>> = {
  missing_key: 'Send your gw client key as "Authorization: Bearer ark_…", "x-gw-api-key" or "x-api-key".',
  key_unknown: 'The key is not recognised. Check for copy errors or ask your administrator for a new key.',
  key_expired: 'The key has expired. Sign in again with the connect CLI or ask your administrator for a new key.',
  key_revoked: 'The key was revoked. Ask your administrator for a new key.',
  user_deactivated: 'Your account is deactivated in the identity provider. Contact your administrator.',
  key_store_unavailable:
    'The gateway cannot reach its key store. This is an infrastructure fault, not a problem with your key; retry shortly.',
};

/** A client-key failure: the catalog's entry, rendered in the machine envelope with its hint. */
export class KeyFailure extends AppError {
  constructor(readonly failure: KeyFailureCode) {
    const entry: ErrorCatalogEntry = gatewayErrorCatalog[failure];
    super({ status: entry.status, code: failure, message: entry.message, retryable: entry.retryable ?? false });
  }
  get hint(): string {
    return keyFailureHints[this.failure];
  }
}

/** The errors whose message is built from what the call site knows. */
export const gatewayErrors = {
  notFound: (what: string) => gatewayError('not_found', `${what} not found`),
  tooManyAuthFailures: (retryAfterSeconds: number) =>
    gatewayError('auth_failures_throttled', undefined, { headers: { 'retry-after': String(retryAfterSeconds) } }),
};
