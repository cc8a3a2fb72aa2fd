import type { OrgHubRefusal } from '@gw/contracts';

/** What a billing route decides: a status and a body. The server sends it; the router records its status. */
export interface BillingReply {
  status: number;
  /** Sent as JSON, unless `html` is set. */
  body: unknown;
  headers?: Readonly<Record<string, string>>;
  /** A page of the browser surface (`/sso/cli/*`), sent as text/html instead of `body`. */
  html?: string;
}

/** Billing's error codes: one catalog, so a test can name exactly what the gateway got back. */
export type BillingErrorCode =
  | 'invalid_deployment_token'
  | 'invalid_report'
  | 'invalid_request'
  | 'payload_too_large'
  | 'deployment_mismatch'
  | 'session_exists'
  | 'rate_limited'
  | 'not_found'
  | 'method_not_allowed'
  | 'internal_error'
  | 'bad_gateway'
  | 'service_unavailable'
  | 'gateway_timeout'
  | 'simulated_failure'
  | 'org_hub_unconfirmed'
  | 'invalid_device_certificate'
  | 'invalid_proof'
  | 'proof_replayed'
  | 'developer_revoked'
  | 'fleet_mode_disabled'
  | 'unknown_client_key'
  | OrgHubRefusal;

/** Billing's machine API shares the gateway's envelope (`billingError` in contracts). */
export function errorReply(
  status: number,
  code: BillingErrorCode,
  message: string,
  headers?: Readonly<Record<string, string>>,
): BillingReply {
  return { status, body: { error: { code, message } }, ...(headers ? { headers } : {}) };
}

export function okReply(body: unknown): BillingReply {
  return { status: 200, body };
}

export function htmlReply(status: number, html: string, headers?: Readonly<Record<string, string>>): BillingReply {
  return { status, body: null, html, ...(headers ? { headers } : {}) };
}
