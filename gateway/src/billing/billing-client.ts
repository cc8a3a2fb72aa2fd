import { parseJson } from '../providers/translate/parse-wire.js';
import {
  billingError,
  orgHubIdentityResponse,
  type OrgHubIdentityRequest,
  type OrgHubIdentityResponse,
  cliSsoPollResponse,
  cliSsoStartResponse,
  entitlementResponse,
  latestReleaseResponse,
  meterResponse,
  supportBundleReceipt,
  type ReleaseManifest,
  type CliSsoPollResponse,
  type CliSsoStartRequest,
  type MeterReport,
  type MeterResponse,
  type SignedLease,
  type SupportBundleReceipt,
  type SupportBundleUpload,
  enrollmentIdentitiesResponse,
  tenantContextResponse,
  type EnrollmentIdentitiesRequest,
  type EnrollmentIdentitiesResponse,
  type TenantContext,
} from '@gw/contracts';

/** Why a call to billing did not produce a lease; recorded on the report row and shown on the metering lane. */
export class BillingCallFailed extends Error {
  constructor(
    readonly code: string,
    readonly httpStatus: number | null,
    message: string,
    /** Seconds billing asked us to wait (429, 503), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'BillingCallFailed';
  }
}

export interface BillingClientOptions {
  baseUrl: string;
  deploymentToken: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * The gateway's side of the billing machine API (`POST /v1/meter`, `GET /v1/entitlement` and the rest below), with
 * the deployment bearer (`adt_`). Only content-free rollups leave; nothing billing answers is trusted before the
 * lease verifies (the caller's job).
 */
export class BillingClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: BillingClientOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  async meter(report: MeterReport): Promise<MeterResponse> {
    const answer = await this.call('POST', '/v1/meter', JSON.stringify(report));
    const parsed = meterResponse.safeParse(answer);
    if (!parsed.success)
      throw new BillingCallFailed(
        'invalid_billing_response',
        200,
        'billing answered the usage report with a body that is not a lease',
      );
    return parsed.data;
  }

  async entitlement(deploymentId: string): Promise<SignedLease> {
    const answer = await this.call('GET', `/v1/entitlement?deploymentId=${encodeURIComponent(deploymentId)}`);
    const parsed = entitlementResponse.safeParse(answer);
    if (!parsed.success)
      throw new BillingCallFailed(
        'invalid_billing_response',
        200,
        'billing answered the entitlement refresh with a body that is not a lease',
      );
    return parsed.data.lease;
  }

  /** CLI login, billing's half: the browser activation URL for a session the gateway opened. */
  async cliSsoStart(request: CliSsoStartRequest): Promise<string> {
    const parsed = cliSsoStartResponse.safeParse(await this.call('POST', '/v1/cli-sso/start', JSON.stringify(request)));
    if (!parsed.success)
      throw new BillingCallFailed(
        'invalid_billing_response',
        200,
        'billing answered the CLI login start with a body that is not an activation URL',
      );
    return parsed.data.browserUrl;
  }

  /** Whether the developer finished the browser step, and if so who they are and which teams they may join. */
  async cliSsoPoll(sessionId: string): Promise<CliSsoPollResponse> {
    const parsed = cliSsoPollResponse.safeParse(
      await this.call('POST', '/v1/cli-sso/poll', JSON.stringify({ sessionId })),
    );
    if (!parsed.success)
      throw new BillingCallFailed(
        'invalid_billing_response',
        200,
        'billing answered the CLI login poll with a body that is not a login state',
      );
    return parsed.data;
  }

  /** Hand a reviewed support bundle to billing's intake; the receipt id is what support asks for. */
  async uploadSupportBundle(upload: SupportBundleUpload): Promise<SupportBundleReceipt> {
    const parsed = supportBundleReceipt.safeParse(
      await this.call('POST', '/v1/support-bundles', JSON.stringify(upload)),
    );
    if (!parsed.success)
      throw new BillingCallFailed(
        'invalid_billing_response',
        200,
        'billing answered the support bundle with a body that is not a receipt',
      );
    return parsed.data;
  }

  /** The release line's current release and its requirements, or null when billing publishes none. */
  async latestRelease(): Promise<ReleaseManifest | null> {
    const parsed = latestReleaseResponse.safeParse(await this.call('GET', '/v1/releases/latest'));
    if (!parsed.success)
      throw new BillingCallFailed(
        'invalid_billing_response',
        200,
        'billing answered the release query with a body that is not a release',
      );
    return parsed.data.release;
  }

  /** The organization hub's live identity check: who a verified token's subject is, or why billing refuses them. */
  async orgHubIdentity(request: OrgHubIdentityRequest): Promise<OrgHubIdentityResponse> {
    const parsed = orgHubIdentityResponse.safeParse(
      await this.call('POST', '/v1/org-hub/identity', JSON.stringify(request)),
    );
    if (!parsed.success)
      throw new BillingCallFailed(
        'invalid_billing_response',
        200,
        'billing answered the organization hub identity check with a body that is not a member',
      );
    return parsed.data;
  }

  /** Report a batch of enrolled identities (hashes only); billing keeps the highest revision of each. */
  async putEnrollmentIdentities(request: EnrollmentIdentitiesRequest): Promise<EnrollmentIdentitiesResponse> {
    const parsed = enrollmentIdentitiesResponse.safeParse(
      await this.call('PUT', '/v1/enrollment-identities', JSON.stringify(request)),
    );
    if (!parsed.success)
      throw new BillingCallFailed(
        'invalid_billing_response',
        200,
        'billing answered the enrolled identities with a body that is not a receipt',
      );
    return parsed.data;
  }

  /**
   * Fleet mode: the tenant a client key belongs to, by the key's SHA-256 hex (the key never leaves). Null when billing
   * knows no such key; a deployment billing does not run as a fleet fails with `fleet_mode_disabled`.
   */
  async tenantContext(clientKeyHash: string): Promise<TenantContext | null> {
    let answer: unknown;
    try {
      answer = await this.call('GET', `/v1/tenant-context?clientKeyHash=${encodeURIComponent(clientKeyHash)}`);
    } catch (error) {
      if (error instanceof BillingCallFailed && error.code === 'unknown_client_key') return null;
      throw error;
    }
    const parsed = tenantContextResponse.safeParse(answer);
    if (!parsed.success)
      throw new BillingCallFailed(
        'invalid_billing_response',
        200,
        'billing answered the tenant lookup with a body that is not a tenant context',
      );
    return parsed.data;
  }

  private async call(method: 'GET' | 'POST' | 'PUT', path: string, body?: string): Promise<unknown> {
    let response: Response;
    try {
      response = await this.fetch(new URL(path, this.options.baseUrl), {
        method,
        headers: {
          authorization: `Bearer ${this.options.deploymentToken}`,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body } : {}),
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new BillingCallFailed(
        timedOut ? 'billing_timeout' : 'billing_unreachable',
        null,
        timedOut ? 'billing did not answer in time' : 'billing could not be reached',
      );
    }
    const text = await response.text().catch(() => '');
    const json = parseJson(text);
    if (!response.ok) {
      const envelope = billingError.safeParse(json);
      const code = envelope.success ? envelope.data.error.code : `billing_http_${response.status}`;
      throw new BillingCallFailed(
        code,
        response.status,
        `billing answered ${response.status} (${code})`,
        retryAfterOf(response.headers.get('retry-after')),
      );
    }
    return json;
  }
}

function retryAfterOf(value: string | null): number | null {
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return null;
  return Number(value.trim());
}
