import { defineErrorCatalog } from '@gw/platform';

/** The gateway's catalog entries for requests refused as asked (400 to 404); assembled in `../errors.ts`. */
export const refusedRequestErrors = defineErrorCatalog({
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
  idp_config_invalid: {
    status: 400,
    envelope: 'admin',
    message:
      'The identity provider did not validate: its OpenID discovery document could not be used. Nothing was saved.',
  },
  sso_callback_invalid: {
    status: 400,
    envelope: 'admin',
    message:
      'This sign-in link is not valid: it was already used, has expired, or was started in another browser. Sign in again.',
  },
  installer_not_a_package: {
    status: 400,
    envelope: 'admin',
    message: 'The upload does not start like a package of the kind this OS installs; nothing was stored.',
  },
  installer_incomplete: {
    status: 400,
    envelope: 'admin',
    message: 'The upload ended before the length its Content-Length announced; nothing was stored.',
  },
  // 401
  sso_token_invalid: {
    status: 401,
    envelope: 'admin',
    message: 'The identity provider’s answer was refused; sign in again.',
  },
  invalid_device_certificate: {
    status: 401,
    envelope: 'connect',
    message: 'The device certificate does not verify.',
  },
  invalid_proof: { status: 401, envelope: 'connect', message: 'The proof of possession does not verify.' },
  stale_proof: {
    status: 401,
    envelope: 'connect',
    message: 'The proof of possession is too old or dated in the future; sign a fresh one.',
  },
  proof_replayed: {
    status: 401,
    envelope: 'connect',
    message: 'This proof of possession was already used; sign a fresh one.',
  },
  fleet_webhook_unauthorized: {
    status: 401,
    envelope: 'connect',
    message: 'The webhook secret is missing or wrong: send it as the bearer token or as ?token=.',
  },
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
  device_certificate_mismatch: {
    status: 403,
    envelope: 'connect',
    message: 'The device certificate belongs to another developer than this key.',
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
  sso_not_admin: {
    status: 403,
    envelope: 'admin',
    message:
      'You signed in, but you hold no console role: ask an administrator to add you to the administrator group (or a group mapped to a role).',
  },
  csrf_failed: {
    status: 403,
    envelope: 'admin',
    message: 'A console change needs the session’s CSRF token in x-gw-csrf-token, sent from the console’s own origin.',
  },
  update_not_soft: {
    status: 403,
    envelope: 'admin',
    message: 'No soft update is pending: the available release needs an operator (or there is none).',
  },
  // 404
  not_found: { status: 404, envelope: ['inference', 'admin', 'connect'], message: 'Not found.' },
  desktop_policy_disabled: {
    status: 404,
    envelope: 'connect',
    message: 'No desktop policy is served: an administrator has not enabled it.',
  },
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
  sso_not_configured: {
    status: 404,
    envelope: 'admin',
    message: 'Console sign-in is not configured: set the identity provider with PUT /admin/v1/sso.',
  },
  cli_login_not_found: {
    status: 404,
    envelope: 'cli-login',
    message: 'No such CLI login session, or it has expired or finished; run the login again.',
  },
  installer_not_found: {
    status: 404,
    envelope: 'admin',
    message: 'No installer has been uploaded for this OS yet (PUT /admin/v1/fleet/installers/{os}).',
  },
});
