import { Agent, request, type Dispatcher } from 'undici';

export interface UpstreamRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer | string;
  signal?: AbortSignal;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

/** The provider could not be reached or dropped the connection before answering. */
export class UpstreamUnreachable extends Error {
  constructor(cause: unknown) {
    super('provider unreachable', { cause });
    this.name = 'UpstreamUnreachable';
  }
}

export interface UpstreamClientOptions {
  /** Time to wait for response headers (first byte of a stream). */
  headersTimeoutMs?: number;
  /** Longest silence between body chunks. */
  bodyTimeoutMs?: number;
  connections?: number;
}

/**
 * Keep-alive HTTP client toward providers (undici). Redirects are never followed: a provider answering 3xx is
 * relayed, so an allowed host cannot bounce a request to a private address (SSRF guard).
 */
export class UpstreamClient {
  private readonly dispatcher: Agent;

  constructor(options: UpstreamClientOptions = {}) {
    this.dispatcher = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections: options.connections ?? 256,
      headersTimeout: options.headersTimeoutMs ?? 600_000,
      bodyTimeout: options.bodyTimeoutMs ?? 600_000,
      allowH2: false,
    });
  }

  async send(upstream: UpstreamRequest): Promise<UpstreamResponse> {
    try {
      const response = await request(upstream.url, {
        method: upstream.method,
        headers: upstream.headers,
        ...(upstream.body === undefined ? {} : { body: upstream.body }),
        ...(upstream.signal ? { signal: upstream.signal } : {}),
        dispatcher: this.dispatcher,
      });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new UpstreamUnreachable(error);
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
