import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@gw/platform';
import { adapters } from '../providers/adapters.js';
import { selectSingle } from '../routing/select-single.js';
import { isPlainObject, parseJson } from '../providers/translate/parse-wire.js';
import { upstreamSourceHeaders } from '../providers/upstream/header-policy.js';
import type { InferenceDeps } from './inference-deps.js';
import { forwardOpaque } from './relay-opaque.js';
import { buildSpendRecord, type CallOutcome } from './spend-from-call.js';
import { recordSpend } from '../metering/record-spend.js';

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'proxy-connection', 'host', 'content-length']);
const clientCredentials = new Set(['authorization', 'x-api-key', 'api-key', 'cookie', 'openai-organization', 'openai-project']);
// Who the client is and which hops it came through are the gateway's to know, not the provider's.
const clientOrigin = new Set(['forwarded', 'x-real-ip', 'via']);

/**
 * Client headers kept on an opaque passthrough: content negotiation and vendor feature flags, never credentials,
 * hop-by-hop headers (those the client's `Connection` header names included) or the client's address. The answer is
 * asked for unencoded: the gateway reads it for usage and relays it without a `content-encoding` of its own.
 */
function passthroughHeaders(request: FastifyRequest): Record<string, string> {
  const connection = request.headers.connection;
  const named = new Set(typeof connection === 'string' ? connection.toLowerCase().split(',').map((token) => token.trim()) : []);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value !== 'string' || hopByHop.has(name) || named.has(name) || clientCredentials.has(name) || clientOrigin.has(name)) continue;
    // The body is forwarded decoded (`rawBody`), so its encoding header would describe bytes that are not sent.
    if (name === 'content-encoding' || name.startsWith('x-gw-') || name.startsWith('x-forwarded-')) continue;
    headers[name] = value;
  }
  headers['accept-encoding'] = 'identity';
  return headers;
}

/**
 * spec 000 §1.16: `/v1/*` paths the gateway does not name are proxied upstream as inference requests (files,
 * batches, audio, images…) with the server-held credential. An upstream 404 means the path exists nowhere, which the
 * spec answers with 500 rather than 404.
 */
export async function runPassthrough(deps: InferenceDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const url = new URL(request.url, 'http://gateway.invalid');
  const endpoint = url.pathname;
  const body = (request.body ?? undefined) as Record<string, unknown> | undefined;
  const outcome: CallOutcome = { status: 500, selection: null, usage: undefined, upstreamMs: null, errorCode: null, stream: false, firstByteMs: null, attempts: 1 };
  const call = { endpoint, operation: { kind: 'passthrough' as const, path: endpoint.replace(/^\/v1/, ''), search: url.search }, clientFormat: 'chat-completions' as const, body };
  try {
    const selection = selectSingle(request, typeof body?.model === 'string' ? body.model : '', deps.providers, deps.routing);
    const { slug } = selection.provider;
    outcome.selection = selection;
    reply.header('x-gw-provider', slug);
    const target = adapters[selection.provider.type].target(selection.provider, call.operation, selection.model);
    return await forwardOpaque(deps, reply, outcome, {
      url: target.url,
      method: request.method,
      headers: { ...passthroughHeaders(request), ...target.headers },
      ...(request.rawBody && request.method !== 'GET' ? { body: request.rawBody } : {}),
      provider: selection.provider,
      requestBody: body,
      onNotFound: (raw) => {
        if (!isUnknownPath(raw)) return null;
        outcome.status = 500;
        outcome.errorCode = 'unrecognized_path';
        // Retrying cannot make the path exist: `x-should-retry` stops the SDKs' automatic retries of a 5xx.
        return reply
          .code(500)
          .headers({ ...upstreamSourceHeaders(slug, 404), 'x-should-retry': 'false' })
          .send({ error: { message: `${endpoint} is not a gateway route; it was proxied to provider "${slug}", which does not serve it (HTTP 404).`, type: 'api_error', code: 'unrecognized_path' } });
      },
    });
  } catch (error) {
    outcome.status = error instanceof AppError ? error.status : 500;
    outcome.errorCode = error instanceof AppError ? error.code : 'internal_error';
    throw error;
  } finally {
    recordSpend(deps.spend, request, buildSpendRecord({ request, call, outcome, now: deps.clock.now(), id: randomUUID() }));
  }
}

/**
 * Whether a provider 404 means the path exists nowhere (spec 000 §1.16 answers that with 500) rather than that a
 * resource under a real path is missing (`/v1/models/no-such-model`, a deleted file), which is relayed as the 404 it
 * is. Providers say the former without a specific error: OpenAI `Invalid URL (GET /v1/…)`, Anthropic `Not Found`,
 * and servers behind `openai-compatible` a bare or non-JSON 404.
 */
function isUnknownPath(raw: Buffer): boolean {
  const parsed = parseJson(raw.toString('utf8'));
  const message = isPlainObject(parsed) && isPlainObject(parsed.error) ? parsed.error.message : undefined;
  return typeof message !== 'string' || /^invalid url\b/i.test(message) || /^not found\.?$/i.test(message.trim());
}
