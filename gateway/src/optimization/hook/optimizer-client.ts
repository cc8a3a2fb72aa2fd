import { Agent, request } from 'undici';
import type { z } from 'zod';
import type { Clock, Logger } from '@gw/platform';
import { ed25519PrivateKey, signRequest } from '@gw/platform';
import {
  cacheWriteResponseSchema,
  optimizeResponseResponseSchema,
  optimizeResponseSchema,
  recallResponseSchema,
  retrieveResponseSchema,
  type CacheWriteRequest,
  type OptimizeRequest,
  type OptimizeResponse,
  type OptimizeResponseRequest,
  type OptimizeResponseResponse,
  type RecallRequest,
  type RecallResponse,
  type RetrieveRequest,
  type RetrieveResponse,
} from '@gw/contracts';

export interface OptimizerClientOptions {
  /** `GW_OPTIMIZER_URL`. */
  baseUrl: string;
  /** `GW_OPTIMIZER_TOKEN`, sent as a bearer on every hook. */
  token?: string | undefined;
  /** Raw Ed25519 private key (base64url) for request signing; unset = unsigned. */
  signingKey?: string | undefined;
  /** Hard timeout of the pre-call hook: past it the request goes out unoptimized (fail-open). */
  optimizeTimeoutMs: number;
  /** Timeout of on-demand calls (retrieve, recall) and post-call writes. */
  callTimeoutMs: number;
  clock: Clock;
  logger: Logger;
}

/** The optimizer answered, but not with something usable: an HTTP status or a body that fails the protocol schema. */
export class OptimizerCallError extends Error {
  constructor(
    readonly reason: 'timeout' | 'unreachable' | 'status' | 'malformed',
    readonly status: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'OptimizerCallError';
  }
}

/**
 * Optimizer Protocol v1 client. Every hook is bounded by a hard timeout, signed when a signing key
 * is configured, and validated against the shared contract schemas, so callers can fail open on any error.
 */
export class OptimizerClient {
  private readonly dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  private readonly signingKey;

  constructor(private readonly options: OptimizerClientOptions) {
    this.signingKey = options.signingKey ? ed25519PrivateKey(options.signingKey) : null;
  }

  optimize(body: OptimizeRequest): Promise<OptimizeResponse> {
    return this.post('/v1/optimize', body, optimizeResponseSchema, this.options.optimizeTimeoutMs, true);
  }

  /** On the response path, so the client waits for it: bounded like the pre-call hook, not like background writes. */
  optimizeResponse(body: OptimizeResponseRequest): Promise<OptimizeResponseResponse> {
    return this.post(
      '/v1/optimize-response',
      body,
      optimizeResponseResponseSchema,
      this.options.optimizeTimeoutMs,
      true,
    );
  }

  cache(body: CacheWriteRequest): Promise<z.infer<typeof cacheWriteResponseSchema>> {
    return this.post('/v1/cache', body, cacheWriteResponseSchema, this.options.callTimeoutMs, true);
  }

  retrieve(body: RetrieveRequest): Promise<RetrieveResponse> {
    return this.post('/v1/retrieve', body, retrieveResponseSchema, this.options.callTimeoutMs, false);
  }

  recall(body: RecallRequest): Promise<RecallResponse> {
    return this.post('/v1/recall', body, recallResponseSchema, this.options.callTimeoutMs, true);
  }

  /** Raw passthrough for proxied admin routes (settings): status and parsed body, no schema. */
  async raw(
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    adminToken: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const response = await request(`${this.options.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { body: payload }),
      dispatcher: this.dispatcher,
      headersTimeout: this.options.callTimeoutMs,
      bodyTimeout: this.options.callTimeoutMs,
    });
    const text = await response.body.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep the text
    }
    return { status: response.statusCode, body: parsed };
  }

  private headers(path: string, payload: string, signed: boolean): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    // /v1/retrieve and /v1/record are never signature-gated; the hooks are when a key is configured.
    if (signed && this.signingKey)
      headers['x-gw-signature'] = signRequest(this.signingKey, 'POST', path, payload, this.options.clock.now());
    return headers;
  }

  private async post<Schema extends z.ZodType>(
    path: string,
    body: unknown,
    schema: Schema,
    timeoutMs: number,
    signed: boolean,
  ): Promise<z.infer<Schema>> {
    const payload = JSON.stringify(body);
    const signal = AbortSignal.timeout(timeoutMs);
    let response;
    try {
      response = await request(`${this.options.baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: this.headers(path, payload, signed),
        body: payload,
        signal,
        dispatcher: this.dispatcher,
      });
    } catch (error) {
      const timedOut = signal.aborted || (error as Error).name === 'TimeoutError';
      throw new OptimizerCallError(
        timedOut ? 'timeout' : 'unreachable',
        null,
        timedOut ? `optimizer ${path} timed out after ${timeoutMs} ms` : `optimizer ${path} unreachable`,
      );
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch {
      throw new OptimizerCallError(
        signal.aborted ? 'timeout' : 'unreachable',
        response.statusCode,
        `optimizer ${path} body not read`,
      );
    }
    if (response.statusCode >= 400)
      throw new OptimizerCallError('status', response.statusCode, `optimizer ${path} answered ${response.statusCode}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new OptimizerCallError('malformed', response.statusCode, `optimizer ${path} answered non-JSON`);
    }
    const result = schema.safeParse(parsed);
    if (!result.success)
      throw new OptimizerCallError('malformed', response.statusCode, `optimizer ${path} answered outside the protocol`);
    return result.data;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
