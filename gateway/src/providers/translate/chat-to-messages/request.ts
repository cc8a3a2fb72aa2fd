import { thinkingForEffort } from '../map-reasoning-effort.js';
import { parseWire } from '../parse-wire.js';
import { chatCompletionRequestSchema, type ChatCompletionRequest } from '../schemas/chat-completions.schema.js';
import type { MessagesRequestOut, MessagesToolChoiceOut, MessagesTurnOut } from '../schemas/messages.types.js';
import { TranslationError } from '../translation-error.js';
import type { TranslatedRequest } from '../translator.js';
import { convertMessages } from './convert-messages.js';
import { convertToolChoice, convertTools } from './convert-tools.js';
import { jsonResponseForcing } from './response-format.js';

export interface ChatToMessagesRequestOptions {
  /** `max_tokens` is required by Messages and optional in chat-completions; this fills the gap. */
  readonly defaultMaxTokens?: number;
}

export const defaultMaxTokens = 4096;

/**
 * A chat-completions request → a Messages request. The input is never mutated (retries reuse it); the
 * output may share nested JSON values with it (tool schemas, cache_control), so treat both as immutable.
 */
export function translateChatRequestToMessages(
  body: unknown,
  options: ChatToMessagesRequestOptions = {},
): TranslatedRequest<MessagesRequestOut> {
  const request = parseWire(chatCompletionRequestSchema, body, 'invalid_request', 'The chat completion request');
  if (typeof request.n === 'number' && request.n > 1) {
    throw new TranslationError(
      'unsupported_feature',
      'n > 1 cannot be sent to an Anthropic-family provider; send one request per choice.',
    );
  }
  const { system, turns } = convertMessages(request.messages);
  const clientLimit = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  const out: MessagesRequestOut = {
    model: request.model,
    messages: turns,
    max_tokens: clientLimit ?? options.defaultMaxTokens ?? defaultMaxTokens,
  };
  if (system !== undefined) out.system = system;
  applyTools(out, request);
  const jsonResponse = applyResponseFormat(out, request);
  applyReasoning(out, request, clientLimit);
  applySampling(out, request);
  const userId = request.user ?? request.metadata?.user;
  if (userId) out.metadata = { user_id: userId };
  if (request.stream === true) out.stream = true;
  return {
    body: out,
    context: {
      stream: request.stream === true,
      includeUsage: request.stream_options?.include_usage === true,
      requestModel: request.model,
      ...(jsonResponse ? { jsonResponse } : {}),
    },
  };
}

function applySampling(out: MessagesRequestOut, request: ChatCompletionRequest): void {
  // Messages rejects temperature and top_p changes while thinking (see applyReasoning).
  if (out.thinking?.type !== 'enabled') {
    // Messages accepts temperature 0..1 where OpenAI accepts 0..2: clamp rather than fail the request.
    if (typeof request.temperature === 'number') out.temperature = Math.min(request.temperature, 1);
    if (typeof request.top_p === 'number') out.top_p = request.top_p;
  }
  // Messages rejects whitespace-only stop sequences, which OpenAI clients commonly send ("\n").
  const stops = (typeof request.stop === 'string' ? [request.stop] : (request.stop ?? [])).filter(
    (stop) => stop.trim() !== '',
  );
  if (stops.length > 0) out.stop_sequences = stops;
}

function applyTools(out: MessagesRequestOut, request: ChatCompletionRequest): void {
  if (!request.tools || request.tools.length === 0) return;
  out.tools = convertTools(request.tools);
  const toolChoice = convertToolChoice(request.tool_choice, request.parallel_tool_calls);
  if (toolChoice) out.tool_choice = toolChoice;
}

/** `response_format` JSON modes → a forced `json_response` tool (see response-format.ts); true when applied. */
function applyResponseFormat(out: MessagesRequestOut, request: ChatCompletionRequest): boolean {
  const forcing = jsonResponseForcing(request.response_format, out.tools?.length ?? 0);
  if (!forcing) return false;
  out.tools = [forcing.tool];
  out.tool_choice = forcing.toolChoice;
  return true;
}

/**
 * `reasoning_effort` → extended thinking (table in map-reasoning-effort.ts). Messages rejects thinking
 * together with a forced tool choice and with temperature/top_p changes, so: a forced tool wins over
 * thinking (it is what the caller's code depends on), and sampling settings give way to thinking.
 *
 * With thinking on, Messages also requires the last assistant turn of a tool-use loop to start with its
 * signed thinking block (400 "Expected `thinking` or `redacted_thinking`, but found `tool_use`"). Chat
 * history carries no signatures, so a conversation whose last assistant turn called tools goes without
 * thinking; the next turn that answers in text gets it back.
 */
function applyReasoning(
  out: MessagesRequestOut,
  request: ChatCompletionRequest,
  clientLimit: number | undefined,
): void {
  const effort = request.reasoning_effort;
  if (!effort) return;
  if (effort !== 'none' && isForcedToolChoice(out.tool_choice)) return;
  const thinking = thinkingForEffort(effort, clientLimit);
  if (!thinking) return;
  if (thinking.type === 'enabled' && lastAssistantTurnUsesTools(out.messages)) return;
  out.thinking = thinking;
  if (thinking.type === 'enabled' && clientLimit === undefined) out.max_tokens += thinking.budget_tokens;
}

/** Translated history never holds thinking blocks (chat has no signed form of them), so any tool_use counts. */
function lastAssistantTurnUsesTools(turns: readonly MessagesTurnOut[]): boolean {
  const last = turns.findLast((turn) => turn.role === 'assistant');
  return Array.isArray(last?.content) && last.content.some((block) => block.type === 'tool_use');
}

function isForcedToolChoice(choice: MessagesToolChoiceOut | undefined): boolean {
  return choice?.type === 'any' || choice?.type === 'tool';
}
