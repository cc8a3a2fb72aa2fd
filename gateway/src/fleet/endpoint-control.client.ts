import { gatewayError } from '../errors.js';

export interface EndpointControlOptions {
  /** `GW_ENDPOINT_CONTROL_URL`. */
  baseUrl: string;
  /** The evidence service's admin bearer (`GW_ENDPOINT_CONTROL_ADMIN_TOKEN`, else `GW_ADMIN_TOKEN`). */
  adminToken: string | undefined;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface EndpointAnswer {
  status: number;
  body: unknown;
}

const defaultTimeoutMs = 5_000;

/** The evidence service could not be reached or answered with a failure of its own (never the caller's fault). */
export const endpointControlUnreachable = () => gatewayError('endpoint_control_unreachable');

/**
 * The gateway's client of the endpoint evidence service's admin plane ("the gateway re-serves these as
 * `/admin/endpoint/*`"). In-network, admin bearer, bounded by a timeout; it never follows redirects.
 */
export class EndpointControlClient {
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: EndpointControlOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  }

  async request(method: string, path: string, body?: unknown): Promise<EndpointAnswer> {
    let response: Response;
    try {
      response = await this.fetchImpl(new URL(path, this.options.baseUrl), {
        method,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: {
          ...(this.options.adminToken ? { authorization: `Bearer ${this.options.adminToken}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw endpointControlUnreachable();
    }
    const text = await response.text().catch(() => '');
    if (text === '') return { status: response.status, body: null };
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      throw endpointControlUnreachable();
    }
  }
}
