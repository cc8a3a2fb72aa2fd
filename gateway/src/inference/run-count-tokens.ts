import type { FastifyReply, FastifyRequest } from 'fastify';
import { adapters } from '../providers/adapters.js';
import { assertServableModel } from '../routing/model-naming.js';
import { selectSingle } from '../routing/select-single.js';
import { parseJson } from '../providers/translate/parse-wire.js';
import { upstreamHeaders, upstreamSourceHeaders } from '../providers/upstream/header-policy.js';
import { UpstreamUnreachable } from '../providers/upstream/upstream-client.js';
import { estimateInputTokens } from '../providers/pricing/count-tokens.js';
import type { InferenceDeps } from './inference-deps.js';
import { countTokensResponse } from './inference.schemas.js';
import { relayUpstreamError, readingUpstream, upstreamUnreachableError } from './upstream-error.js';
import { gatewayError } from '../errors.js';

/**
 * `POST /v1/messages/count_tokens` (no inference, not metered): an Anthropic-family provider counts, anything else
 * gets the local estimate. The provider's answer is relayed like any other call's: its errors marked
 * as its own, an unreachable provider a 502, and a count that is not a non-negative integer a 502 rather than
 * something the client would take for a count.
 */
export async function runCountTokens(
  deps: Pick<InferenceDeps, 'providers' | 'routing' | 'upstream'>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const body = request.body as Record<string, unknown>;
  const selection = selectSingle(request, String(body.model), deps.providers, deps.routing);
  const slug = selection.provider.slug;
  reply.header('x-gw-provider', slug);
  assertServableModel(selection.provider, selection.model, deps.routing.documents.models);
  if (selection.provider.family !== 'anthropic') return { input_tokens: await estimateInputTokens(body) };
  const target = adapters[selection.provider.type].target(
    selection.provider,
    { kind: 'count_tokens' },
    selection.model,
  );
  let response;
  try {
    response = await deps.upstream.send({
      url: target.url,
      method: 'POST',
      headers: upstreamHeaders(request.headers, 'anthropic', target.headers, false),
      body: JSON.stringify({ ...body, model: selection.model }),
    });
  } catch (error) {
    if (error instanceof UpstreamUnreachable) throw upstreamUnreachableError(slug);
    throw error;
  }
  const text = await readingUpstream(slug, response.body.text());
  if (response.status >= 400) {
    const relayed = relayUpstreamError({
      status: response.status,
      text,
      upstreamHeaders: response.headers,
      slug,
      lane: null,
      messagesClient: true,
    });
    return reply.code(relayed.status).headers(relayed.headers).send(relayed.body);
  }
  const counted = countTokensResponse.safeParse(parseJson(text));
  if (!counted.success) {
    throw gatewayError(
      'invalid_upstream_response',
      `Provider "${slug}" answered count_tokens without a valid input_tokens count. This is not a gateway failure.`,
      { headers: upstreamSourceHeaders(slug, response.status) },
    );
  }
  return counted.data;
}
