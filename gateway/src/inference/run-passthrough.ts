import type { FastifyRequest } from 'fastify';
import { adapters } from '../providers/adapters.js';
import { selectSingle } from '../routing/select-single.js';
import { isPlainObject, parseJson } from '../providers/translate/parse-wire.js';
import { upstreamSourceHeaders } from '../providers/upstream/header-policy.js';
import type { InferenceDeps } from './inference-deps.js';
import { forwardOpaque } from './relay-opaque.js';
import type { LaneReport, LaneScope, Relayed, Sent } from './lane-report.js';
import type { Selection } from '../routing/resolve-route.js';
import type { Optimization } from '../optimization/hook/pre-call-hook.js';
import { optimizeContinuation } from './optimize-continuation.js';
import { gatewayError } from '../errors.js';

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'host',
  'content-length',
]);
const clientCredentials = new Set([
  'authorization',
  'x-api-key',
  'api-key',
  'cookie',
  'openai-organization',
  'openai-project',
]);
// Who the client is and which hops it came through are the gateway's to know, not the provider's.
const clientOrigin = new Set(['forwarded', 'x-real-ip', 'via']);

/**
 * Client headers kept on an opaque passthrough: content negotiation and vendor feature flags, never credentials,
 * hop-by-hop headers (those the client's `Connection` header names included) or the client's address. The answer is
 * asked for unencoded: the gateway reads it for usage and relays it without a `content-encoding` of its own.
 */
function passthroughHeaders(request: FastifyRequest): Record<string, string> {
  const connection = request.headers.connection;
  const named = new Set(
    typeof connection === 'string'
      ? connection
          .toLowerCase()
          .split(',')
          .map((token) => token.trim())
      : [],
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (
      typeof value !== 'string' ||
      hopByHop.has(name) ||
      named.has(name) ||
      clientCredentials.has(name) ||
      clientOrigin.has(name)
    )
      continue;
    // The body is forwarded decoded (`rawBody`), so its encoding header would describe bytes that are not sent.
    if (name === 'content-encoding' || name.startsWith('x-gw-') || name.startsWith('x-forwarded-')) continue;
    headers[name] = value;
  }
  headers['accept-encoding'] = 'identity';
  return headers;
}

/** What a named route adds to the opaque passthrough. */
export interface PassthroughOptions {
  /** Send to this provider rather than the one the request would select (a batch goes to the provider that runs it). */
  provider?: Selection['provider'];
  /** Refuse (400) a call routed to a provider of another wire family, before anything is sent. */
  requiresFamily?: 'openai';
  /** A successful answer read whole, before the client gets it, with the target that gave it; may replace it. */
  beforeRelay?: (raw: Buffer, selection: Selection) => Promise<Buffer | undefined>;
}

/** What the opaque passthrough lane uses: the provider and routing tables, the optimizer hook for Responses continuations, the upstream. */
export type PassthroughLaneDeps = Pick<
  InferenceDeps,
  'clock' | 'coord' | 'logger' | 'optimizer' | 'pins' | 'providers' | 'routing' | 'sleep' | 'throttle' | 'upstream'
>;

/**
 * `/v1/*` paths the gateway does not name are proxied upstream as inference requests (files,
 * batches, audio, images…) with the server-held credential. An upstream 404 means the path exists nowhere, which the
 * spec answers with 500 rather than 404.
 */
export async function runPassthrough(
  deps: PassthroughLaneDeps,
  scope: LaneScope,
  options: PassthroughOptions = {},
): Promise<LaneReport> {
  const { request, reply, signal } = scope;
  const url = new URL(request.url, 'http://gateway.invalid');
  const endpoint = url.pathname;
  const body = (request.body ?? undefined) as Record<string, unknown> | undefined;
  const operation = { kind: 'passthrough' as const, path: endpoint.replace(/^\/v1/, ''), search: url.search };
  let selection: Selection | null = null;
  let sent: Sent | null = null;
  let optimization: Optimization | undefined;
  let sessionId: string | null = null;
  let sentBody = body;
  const report = (end: LaneReport['end']): LaneReport => ({
    call: { endpoint, body: sentBody },
    billingMode: 'api-key',
    selection,
    sent,
    attempts: 1,
    ...(optimization ? { optimization, sessionId } : {}),
    end,
  });
  try {
    const chosen = options.provider
      ? { provider: options.provider, model: '' }
      : selectSingle(request, typeof body?.model === 'string' ? body.model : '', deps.providers, deps.routing);
    selection = chosen;
    const { slug } = chosen.provider;
    reply.header('x-gw-provider', slug);
    if (options.requiresFamily && chosen.provider.family !== options.requiresFamily) {
      throw gatewayError(
        'unsupported_by_provider',
        `Provider "${slug}" (${chosen.provider.type}) does not serve ${endpoint}; files and batches pass through to OpenAI-family providers only.`,
      );
    }
    const target = adapters[chosen.provider.type].target(chosen.provider, operation, chosen.model);
    // A Responses continuation transcript is offered to the optimizer; everything else goes out byte for byte.
    const continuation = endpoint === '/v1/responses' ? await optimizeContinuation(deps, request, body, chosen) : null;
    let upstreamBody = request.rawBody && request.method !== 'GET' ? request.rawBody : undefined;
    if (continuation) {
      ({ optimization, sessionId } = continuation);
      reply.header('x-gw-optimization', continuation.optimization.status);
      if (continuation.body) {
        sentBody = continuation.body;
        upstreamBody = Buffer.from(JSON.stringify(continuation.body));
      }
    }
    const relayed = await forwardOpaque(deps, reply, {
      url: target.url,
      method: request.method,
      headers: { ...passthroughHeaders(request), ...target.headers },
      ...(upstreamBody ? { body: upstreamBody } : {}),
      provider: chosen.provider,
      requestBody: sentBody,
      signal,
      onSend: (at) => (sent = { selection: chosen, at }),
      ...(options.beforeRelay
        ? { beforeRelay: (raw: Buffer) => options.beforeRelay?.(raw, chosen) ?? Promise.resolve(undefined) }
        : {}),
      onNotFound: (raw): Relayed | null => {
        if (!isUnknownPath(raw)) return null;
        // Retrying cannot make the path exist: `x-should-retry` stops the SDKs' automatic retries of a 5xx.
        reply
          .code(500)
          .headers({ ...upstreamSourceHeaders(slug, 404), 'x-should-retry': 'false' })
          .send({
            error: {
              message: `${endpoint} is not a gateway route; it was proxied to provider "${slug}", which does not serve it (HTTP 404).`,
              type: 'api_error',
              code: 'unrecognized_path',
            },
          });
        return {
          status: 500,
          errorCode: 'unrecognized_path',
          usage: undefined,
          usageEstimated: false,
          stream: false,
          firstByteMs: null,
        };
      },
    });
    return report({ kind: 'relayed', relayed });
  } catch (thrown) {
    return report({ kind: 'failed', thrown });
  }
}

/**
 * Whether a provider 404 means the path exists nowhere (the contract answers that with 500) rather than that a
 * resource under a real path is missing (`/v1/models/no-such-model`, a deleted file), which is relayed as the 404 it
 * is. Providers say the former without a specific error: OpenAI `Invalid URL (GET /v1/…)`, Anthropic `Not Found`,
 * and servers behind `openai-compatible` a bare or non-JSON 404.
 */
function isUnknownPath(raw: Buffer): boolean {
  const parsed = parseJson(raw.toString('utf8'));
  const message = isPlainObject(parsed) && isPlainObject(parsed.error) ? parsed.error.message : undefined;
  return typeof message !== 'string' || /^invalid url\b/i.test(message) || /^not found\.?$/i.test(message.trim());
}
