import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { buildReply, estimateTokens } from '../core/reply.js';
import type { RecordedRequest } from '../core/request-log.js';
import { sendBody, sendEvents, type Turn } from '../core/responder.js';
import {
  acceptsKey,
  answerScripted,
  bearerToken,
  headerValue,
  startSimulator,
  type SimulatorContext,
  type SimulatorHandle,
  type SimulatorOptions,
} from '../core/simulator.js';
import { renderAnthropicError, renderAnthropicStreamError } from './anthropic-errors.js';
import { messageEvents } from './message-stream.js';
import { messageJson, summarizeMessagesRequest } from './messages.js';

export type AnthropicSimulatorOptions = SimulatorOptions;

export const DEFAULT_ANTHROPIC_MODELS: readonly string[] = [
  'claude-sonnet-4-20250514',
  'claude-opus-4-1-20250805',
  'claude-3-5-haiku-20241022',
];

const BASE_HEADERS: OutgoingHttpHeaders = Object.freeze({
  'anthropic-organization-id': '00000000-0000-4000-8000-000000000000',
  'anthropic-ratelimit-requests-limit': '4000',
  'anthropic-ratelimit-requests-remaining': '3999',
  'anthropic-ratelimit-input-tokens-limit': '2000000',
  'anthropic-ratelimit-input-tokens-remaining': '1999000',
});

type Json = Record<string, unknown>;

/**
 * An Anthropic Messages API provider: `/v1/messages` (JSON and SSE with text, tool_use and thinking blocks),
 * `/v1/messages/count_tokens` and `/v1/models`, with the real API's authentication and version checks.
 */
export async function startAnthropicSimulator(options: AnthropicSimulatorOptions = {}): Promise<SimulatorHandle> {
  const models = options.models ?? DEFAULT_ANTHROPIC_MODELS;
  return startSimulator(options, (request, response, context) => handle(request, response, context, models), '');
}

async function handle(
  request: RecordedRequest,
  response: ServerResponse,
  context: SimulatorContext,
  models: readonly string[],
): Promise<void> {
  const requestId = context.ids.next('req_011C', 20);
  const headers: OutgoingHttpHeaders = { ...BASE_HEADERS, 'request-id': requestId };
  const reject = (status: number, message?: string): Promise<void> =>
    sendBody(
      response,
      context.baseTurn(),
      status,
      headers,
      renderAnthropicError(status, message === undefined ? undefined : { message }, requestId),
    );

  const isMessages = request.method === 'POST' && request.path === '/v1/messages';
  const isCount = request.method === 'POST' && request.path === '/v1/messages/count_tokens';
  const isModels =
    request.method === 'GET' && (request.path === '/v1/models' || request.path.startsWith('/v1/models/'));
  if (!isMessages && !isCount && !isModels) return reject(404, 'Not Found');

  const key = headerValue(request.headers['x-api-key']) ?? bearerToken(headerValue(request.headers.authorization));
  if (key === undefined) return reject(401, 'x-api-key header is required');
  if (!acceptsKey(context.options.apiKey, key)) return reject(401, 'invalid x-api-key');
  // The real API answers a missing version header with 400 invalid_request_error, not 401.
  if (!headerValue(request.headers['anthropic-version'])) return reject(400, 'anthropic-version: header is required');

  if (isModels) return listModels(request, response, context, headers, models);

  const turn = context.takeTurn(request);
  const renderError = (status: number, spec: Parameters<typeof renderAnthropicError>[1]): string =>
    renderAnthropicError(status, spec, requestId);
  if (await answerScripted(response, turn, headers, renderError)) return;
  const body = request.json;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return sendBody(
      response,
      turn,
      400,
      headers,
      renderError(400, { message: 'There was an issue with your request body: invalid JSON' }),
    );
  }
  const json = body as Json;
  const missing = ['model', 'messages', ...(isMessages ? ['max_tokens'] : [])].find(
    (field) => json[field] === undefined,
  );
  if (missing)
    return sendBody(response, turn, 400, headers, renderError(400, { message: `${missing}: Field required` }));
  const summary = summarizeMessagesRequest(json, String(json.model));
  if (isCount) {
    const inputTokens = context.replySpec(request, turn)?.usage?.inputTokens ?? estimateTokens(summary.promptChars);
    return sendBody(response, turn, 200, headers, JSON.stringify({ input_tokens: inputTokens }));
  }
  return sendMessage(request, response, context, turn, headers, json, summary);
}

function sendMessage(
  request: RecordedRequest,
  response: ServerResponse,
  context: SimulatorContext,
  turn: Turn,
  headers: OutgoingHttpHeaders,
  body: Json,
  summary: ReturnType<typeof summarizeMessagesRequest>,
): Promise<void> {
  const reply = buildReply(summary, context.replySpec(request, turn), context.ids, 'toolu_01');
  const id = context.ids.next('msg_01', 22);
  if (body.stream === true)
    return sendEvents(response, turn, headers, messageEvents(reply, id), renderAnthropicStreamError);
  return sendBody(response, turn, 200, headers, messageJson(reply, id));
}

function listModels(
  request: RecordedRequest,
  response: ServerResponse,
  context: SimulatorContext,
  headers: OutgoingHttpHeaders,
  models: readonly string[],
): Promise<void> {
  const turn = context.baseTurn();
  if (request.path !== '/v1/models') {
    const id = decodeURIComponent(request.path.slice('/v1/models/'.length));
    if (!models.includes(id))
      return sendBody(
        response,
        turn,
        404,
        headers,
        renderAnthropicError(404, { message: `model: ${id}` }, String(headers['request-id'])),
      );
    return sendBody(response, turn, 200, headers, JSON.stringify(modelObject(id)));
  }
  const data = models.map(modelObject);
  return sendBody(
    response,
    turn,
    200,
    headers,
    JSON.stringify({ data, has_more: false, first_id: models[0] ?? null, last_id: models[models.length - 1] ?? null }),
  );
}

function modelObject(id: string): Json {
  return { type: 'model', id, display_name: id, created_at: '2025-05-14T00:00:00Z' };
}
