import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@gw/platform';
import { adapters } from '../providers/adapters.js';
import type { UpstreamOperation } from '../providers/provider-types.js';
import { selectProvider, type Selection } from '../routing/select-provider.js';
import { pickTranslator } from '../translate/index.js';
import type { Lane } from '../translate/lane.js';
import { TranslationError } from '../translate/translation-error.js';
import type { TranslationContext } from '../translate/translator.js';
import { upstreamHeaders } from '../upstream/header-policy.js';
import { UpstreamUnreachable, type UpstreamResponse } from '../upstream/upstream-client.js';
import type { InferenceDeps } from './inference-deps.js';
import { prepareUpstreamBody } from './prepare-body.js';
import { relayStream } from './relay-stream.js';
import { relayUpstreamError } from './upstream-error.js';
import { buildSpendRecord, type CallOutcome } from './spend-from-call.js';

export type ClientFormat = 'chat-completions' | 'messages';

/** What a route hands to the pipeline. */
export interface InferenceCall {
  /** Stored endpoint name (`/v1/chat/completions`). */
  endpoint: string;
  operation: UpstreamOperation;
  /** Lane selection: chat and Messages translate across families; other operations require a matching family. */
  clientFormat: ClientFormat;
  /** Operations only an OpenAI-family provider serves (completions, embeddings). */
  requiresFamily?: 'openai';
  body: Record<string, unknown> | undefined;
}

const maxErrorBodyBytes = 1024 * 1024;

async function readText(response: UpstreamResponse): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size <= maxErrorBodyBytes) chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The handler stage for named inference operations: select the provider, prepare the body for the lane (same
 * family byte-faithful, crossing translated), forward with the server-held credential, relay the answer and record
 * exactly one spend row.
 */
export async function runInference(deps: InferenceDeps, call: InferenceCall, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const startedAt = request.gw.startedAt;
  const outcome: CallOutcome = { status: 500, selection: null, usage: undefined, upstreamMs: null, errorCode: null, stream: call.body?.stream === true, firstByteMs: null };
  const record = () => deps.spend.record(buildSpendRecord({ request, call, outcome, now: deps.clock.now(), id: randomUUID() }));
  try {
    const model = call.body?.model;
    if (typeof model !== 'string' || model.length === 0) throw new AppError({ status: 400, code: 'invalid_request', message: 'body.model: a model id or alias is required' });
    const selection = selectProvider({ headerProvider: header(request, 'x-gw-provider'), configHeader: header(request, 'x-gw-config'), model }, deps.providers, deps.routing);
    outcome.selection = selection;
    reply.header('x-gw-provider', selection.provider.slug);
    if (call.requiresFamily && selection.provider.family !== call.requiresFamily) {
      throw new AppError({ status: 400, code: 'unsupported_by_provider', message: `Provider "${selection.provider.slug}" (${selection.provider.type}) does not serve ${call.endpoint}.` });
    }
    const lane = pickTranslator(call.clientFormat, selection.provider.family);
    const prepared = prepareUpstreamBody({ call, selection, lane, rawBody: request.rawBody });
    const sentAt = deps.clock.now();
    const response = await sendUpstream(deps, call, selection, lane, prepared.body, request, reply);
    outcome.firstByteMs = deps.clock.now() - startedAt;
    try {
      if (response.status >= 400 || response.status < 200) return await relayError(response, selection, lane, call, outcome, reply);
      if (outcome.stream && String(response.headers['content-type'] ?? '').includes('text/event-stream')) {
        return await relayStreamed(deps, response, lane, call, prepared.context, prepared.hideUsageChunk, outcome, reply);
      }
      return await relayJson(deps, response, lane, prepared.context, outcome, reply);
    } finally {
      outcome.upstreamMs = deps.clock.now() - sentAt;
    }
  } catch (error) {
    outcome.errorCode = error instanceof AppError ? error.code : error instanceof TranslationError ? error.code : 'internal_error';
    outcome.status = error instanceof AppError ? error.status : error instanceof TranslationError ? 400 : 500;
    if (error instanceof TranslationError) throw new AppError({ status: 400, code: error.code, message: error.message });
    throw error;
  } finally {
    record();
  }
}

async function sendUpstream(deps: InferenceDeps, call: InferenceCall, selection: Selection, lane: Lane, body: Buffer | string, request: FastifyRequest, reply: FastifyReply): Promise<UpstreamResponse> {
  const provider = selection.provider;
  // A translated call is the backend family's own operation: chat sent to an Anthropic provider is a Messages call.
  const operation: UpstreamOperation = lane.kind === 'translate' ? { kind: provider.family === 'anthropic' ? 'messages' : 'chat' } : call.operation;
  const target = adapters[provider.type].target(provider, operation, selection.model);
  const abort = new AbortController();
  // A client that goes away cancels the upstream call, so abandoned generations stop costing money.
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  try {
    return await deps.upstream.send({ url: target.url, method: 'POST', headers: upstreamHeaders(request.headers, provider.family, target.headers, lane.kind === 'translate'), body, signal: abort.signal });
  } catch (error) {
    if (error instanceof UpstreamUnreachable) {
      throw new AppError({
        status: 502,
        code: 'upstream_unreachable',
        message: `Provider "${provider.slug}" could not be reached. This is not a gateway failure.`,
        retryable: true,
        headers: { 'x-gw-error-source': 'upstream', 'x-gw-upstream-provider': provider.slug },
      });
    }
    throw error;
  }
}

async function relayError(response: UpstreamResponse, selection: Selection, lane: Lane, call: InferenceCall, outcome: CallOutcome, reply: FastifyReply) {
  const relayed = relayUpstreamError({ status: response.status, text: await readText(response), upstreamHeaders: response.headers, slug: selection.provider.slug, lane, messagesClient: call.clientFormat === 'messages' });
  outcome.status = relayed.status;
  outcome.errorCode = relayed.errorType ?? `upstream_${relayed.status}`;
  outcome.stream = false;
  return reply.code(relayed.status).headers(relayed.headers).send(relayed.body);
}

async function relayJson(deps: InferenceDeps, response: UpstreamResponse, lane: Lane, context: TranslationContext, outcome: CallOutcome, reply: FastifyReply) {
  const raw = Buffer.from(await response.body.arrayBuffer());
  outcome.stream = false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (lane.kind === 'translate') {
    if (parsed === undefined) throw new AppError({ status: 502, code: 'invalid_upstream_response', message: 'The provider answered with a body that is not JSON.', headers: { 'x-gw-error-source': 'upstream' } });
    const translated = lane.translateResponse(parsed, context, { clock: deps.clock });
    outcome.usage = translated.usage;
    outcome.status = response.status;
    return reply.code(response.status).header('content-type', 'application/json').send(JSON.stringify(translated.body));
  }
  outcome.usage = parsed === undefined ? undefined : lane.extractUsage(parsed);
  outcome.status = response.status;
  return reply.code(response.status).header('content-type', String(response.headers['content-type'] ?? 'application/json')).send(raw);
}

async function relayStreamed(deps: InferenceDeps, response: UpstreamResponse, lane: Lane, call: InferenceCall, context: TranslationContext, hideUsageChunk: boolean, outcome: CallOutcome, reply: FastifyReply) {
  const out = new PassThrough();
  reply.code(200).header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
  const sending = reply.send(out);
  const result = await relayStream({ upstream: response.body as AsyncIterable<Buffer>, out, lane, clientFormat: call.clientFormat, context, hideUsageChunk, now: () => deps.clock.now() });
  out.end();
  outcome.usage = result.usage;
  outcome.firstByteMs = result.firstByteMs === null ? null : (outcome.firstByteMs ?? 0) + result.firstByteMs;
  outcome.status = result.completed ? 200 : 502;
  outcome.errorCode = result.errorCode;
  return sending;
}
