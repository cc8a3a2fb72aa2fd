import type { ErrorSpec } from '../core/behaviour.js';
import type { IdSource } from '../core/ids.js';
import { buildReply, splitIntoDeltas, splitIntoFragments, type Reply, type Usage } from '../core/reply.js';
import { sendBody, sendEvents } from '../core/responder.js';
import type { OperationCall } from './operation-call.js';
import { openAiError, renderOpenAiError } from './openai-errors.js';
import { responsesRequestError, summarizeResponsesRequest } from './responses-request.js';

type Json = Record<string, unknown>;
type ItemStatus = 'in_progress' | 'completed' | 'incomplete';
type ResponseStatus = ItemStatus;
type FinalStatus = Exclude<ResponseStatus, 'in_progress'>;

interface OutputText {
  type: 'output_text';
  annotations: never[];
  logprobs: never[];
  text: string;
}
interface MessageItem {
  id: string;
  type: 'message';
  status: ItemStatus;
  content: OutputText[];
  role: 'assistant';
}
interface FunctionCallItem {
  id: string;
  type: 'function_call';
  status: ItemStatus;
  arguments: string;
  call_id: string;
  name: string;
}
/** Reasoning models emit one, with an empty summary unless a summary is requested (not simulated). */
interface ReasoningItem {
  id: string;
  type: 'reasoning';
  summary: never[];
}
export type OutputItem = MessageItem | FunctionCallItem | ReasoningItem;

/** What every rendering of one response shares: its identity and the request settings it echoes. */
export interface ResponseFrame {
  id: string;
  createdAt: number;
  model: string;
  body: Json;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const unixSeconds = (): number => Math.floor(Date.now() / 1000);

export function responsesUsage(usage: Usage): Json {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: {
      cached_tokens: usage.cachedInputTokens,
      cache_write_tokens: usage.cacheCreationInputTokens,
    },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

// The API echoes function tools with their defaults filled in (strict mode is the Responses default).
function echoTools(tools: unknown): unknown[] {
  if (!Array.isArray(tools)) return [];
  return (tools as unknown[]).map((tool) =>
    isRecord(tool) && tool.type === 'function'
      ? { type: 'function', description: null, name: tool.name, parameters: null, strict: true, ...tool }
      : tool,
  );
}

const echo = (value: unknown, fallback: unknown): unknown => (value === undefined || value === null ? fallback : value);

/** The `response` object, as returned by a JSON request and carried by the lifecycle stream events. */
export function responseObject(
  frame: ResponseFrame,
  status: ResponseStatus,
  output: readonly OutputItem[],
  usage: Usage | null,
): Json {
  const { body } = frame;
  return {
    id: frame.id,
    object: 'response',
    created_at: frame.createdAt,
    status,
    background: false,
    completed_at: status === 'completed' ? frame.createdAt : null,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: echo(body.instructions, null),
    max_output_tokens: echo(body.max_output_tokens, null),
    max_tool_calls: echo(body.max_tool_calls, null),
    model: frame.model,
    output,
    parallel_tool_calls: echo(body.parallel_tool_calls, true),
    previous_response_id: echo(body.previous_response_id, null),
    prompt_cache_key: echo(body.prompt_cache_key, null),
    reasoning: { effort: null, summary: null, ...(isRecord(body.reasoning) ? body.reasoning : {}) },
    safety_identifier: echo(body.safety_identifier, null),
    service_tier: 'default',
    store: echo(body.store, true),
    temperature: echo(body.temperature, 1),
    text: echo(body.text, { format: { type: 'text' }, verbosity: 'medium' }),
    tool_choice: echo(body.tool_choice, 'auto'),
    tools: echoTools(body.tools),
    top_logprobs: echo(body.top_logprobs, 0),
    top_p: echo(body.top_p, 1),
    truncation: echo(body.truncation, 'disabled'),
    usage: usage ? responsesUsage(usage) : null,
    user: echo(body.user, null),
    metadata: echo(body.metadata, {}),
  };
}

/** A reply cut at `max_output_tokens` leaves the response (and its message) `incomplete`. */
export function responseStatus(reply: Reply): FinalStatus {
  return reply.finishReason === 'length' ? 'incomplete' : 'completed';
}

/** Reasoning first (reasoning models), then the message (unless the reply is only tool calls), then each call. */
export function outputItems(reply: Reply, ids: IdSource): OutputItem[] {
  const items: OutputItem[] = [];
  if (reply.thinking !== undefined) items.push({ id: ids.next('rs_', 48), type: 'reasoning', summary: [] });
  if (reply.text !== '' || reply.toolCalls.length === 0) {
    const text: OutputText = { type: 'output_text', annotations: [], logprobs: [], text: reply.text };
    items.push({
      id: ids.next('msg_', 48),
      type: 'message',
      status: responseStatus(reply),
      content: [text],
      role: 'assistant',
    });
  }
  for (const call of reply.toolCalls) {
    items.push({
      id: ids.next('fc_', 48),
      type: 'function_call',
      status: 'completed',
      arguments: call.arguments,
      call_id: call.id,
      name: call.name,
    });
  }
  return items;
}

// Named SSE events; each payload repeats its type and carries its position in the stream.
class EventLog {
  readonly events: string[] = [];

  emit(type: string, fields: Json): void {
    const data = JSON.stringify({ type, sequence_number: this.events.length, ...fields });
    this.events.push(`event: ${type}\ndata: ${data}\n\n`);
  }
}

function itemEvents(log: EventLog, item: OutputItem, outputIndex: number): void {
  const at = { item_id: item.id, output_index: outputIndex };
  switch (item.type) {
    case 'reasoning':
      log.emit('response.output_item.added', { output_index: outputIndex, item });
      break;
    case 'message': {
      log.emit('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', content: [] },
      });
      const part = item.content[0] ?? { type: 'output_text', annotations: [], logprobs: [], text: '' };
      log.emit('response.content_part.added', { ...at, content_index: 0, part: { ...part, text: '' } });
      for (const delta of splitIntoDeltas(part.text))
        log.emit('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
      log.emit('response.output_text.done', { ...at, content_index: 0, text: part.text, logprobs: [] });
      log.emit('response.content_part.done', { ...at, content_index: 0, part });
      break;
    }
    case 'function_call':
      log.emit('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      for (const delta of splitIntoFragments(item.arguments))
        log.emit('response.function_call_arguments.delta', { ...at, delta });
      log.emit('response.function_call_arguments.done', { ...at, arguments: item.arguments });
      break;
  }
  log.emit('response.output_item.done', { output_index: outputIndex, item });
}

/**
 * The streamed response: `response.created` and `response.in_progress` (no output, no usage yet), each output item
 * from `output_item.added` to `output_item.done` (text parts with `output_text` deltas, function calls with
 * argument deltas), then `response.completed` (or `response.incomplete`) carrying the whole response. Unlike Chat
 * Completions there is no `data: [DONE]`.
 */
export function responseEvents(frame: ResponseFrame, reply: Reply, output: readonly OutputItem[]): string[] {
  const log = new EventLog();
  const pending = responseObject(frame, 'in_progress', [], null);
  log.emit('response.created', { response: pending });
  log.emit('response.in_progress', { response: pending });
  output.forEach((item, index) => itemEvents(log, item, index));
  const status = responseStatus(reply);
  log.emit(`response.${status}`, { response: responseObject(frame, status, output, reply.usage) });
  return log.events;
}

/** A failure part-way through a stream: `event: error` with the error fields flat in the payload. */
export function renderResponsesStreamError(spec: ErrorSpec, sequenceNumber: number): string {
  const code = spec.code === undefined ? 'server_error' : spec.code;
  const data = {
    type: 'error',
    code: typeof code === 'number' ? String(code) : code,
    message: openAiError(500, spec).error.message,
    param: spec.param ?? null,
    sequence_number: sequenceNumber,
  };
  return `event: error\ndata: ${JSON.stringify(data)}\n\n`;
}

/** `POST /v1/responses`, JSON or (`stream: true`) SSE. */
export async function runResponses(call: OperationCall): Promise<void> {
  const { body, context, turn } = call;
  const problem = responsesRequestError(body);
  if (problem) return sendBody(call.response, turn, 400, call.headers, renderOpenAiError(400, problem));
  const reply = buildReply(
    summarizeResponsesRequest(body, call.model),
    context.replySpec(call.request, turn),
    context.ids,
    'call_',
  );
  const frame: ResponseFrame = {
    id: context.ids.next('resp_', 48),
    createdAt: unixSeconds(),
    model: reply.model,
    body,
  };
  const output = outputItems(reply, context.ids);
  if (body.stream === true) {
    const events = responseEvents(frame, reply, output);
    // The error takes the sequence number of the first event it replaces.
    const sequenceNumber = Math.min(turn.behaviour.midStreamError?.afterEvents ?? events.length, events.length);
    return sendEvents(call.response, turn, call.headers, events, (spec) =>
      renderResponsesStreamError(spec, sequenceNumber),
    );
  }
  return sendBody(
    call.response,
    turn,
    200,
    call.headers,
    JSON.stringify(responseObject(frame, responseStatus(reply), output, reply.usage)),
  );
}
