import { buildReply } from '../core/reply.js';
import { sendBody, sendEvents } from '../core/responder.js';
import { chatCompletionEvents, chatCompletionJson, summarizeChatRequest } from './chat-completions.js';
import { completionEvents, completionJson, summarizeCompletionRequest } from './completions.js';
import { embeddingDimensions, embeddingInputs, embeddingsJson } from './embeddings.js';
import { renderOpenAiError } from './openai-errors.js';
import type { OperationCall } from './operation-call.js';
import { runResponses } from './responses.js';

export type Operation = 'chat' | 'completions' | 'embeddings' | 'responses';

type Json = Record<string, unknown>;

// OpenAI renders a mid-stream failure as a data-only event carrying the error envelope.
const renderStreamError = (spec: Parameters<typeof renderOpenAiError>[1]): string =>
  `data: ${renderOpenAiError(500, spec)}\n\n`;

function badRequest(
  call: OperationCall,
  message: string,
  param: string | null,
  code: string | null = null,
): Promise<void> {
  return sendBody(call.response, call.turn, 400, call.headers, renderOpenAiError(400, { message, param, code }));
}

function includeUsage(body: Json): boolean {
  const options = body.stream_options;
  return typeof options === 'object' && options !== null && (options as Json).include_usage === true;
}

const unixSeconds = (): number => Math.floor(Date.now() / 1000);

export async function runOperation(operation: Operation, call: OperationCall): Promise<void> {
  switch (operation) {
    case 'chat':
      return chat(call);
    case 'completions':
      return completions(call);
    case 'embeddings':
      return embeddings(call);
    case 'responses':
      return runResponses(call);
  }
}

async function chat(call: OperationCall): Promise<void> {
  const { body, context } = call;
  if (!Array.isArray(body.messages))
    return badRequest(call, "Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (body.messages.length === 0)
    return badRequest(
      call,
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  const summary = summarizeChatRequest(body, call.model);
  const reply = buildReply(summary, context.replySpec(call.request, call.turn), context.ids, 'call_');
  const id = context.ids.next('chatcmpl-', 29);
  if (body.stream === true) {
    return sendEvents(
      call.response,
      call.turn,
      call.headers,
      chatCompletionEvents(reply, id, unixSeconds(), includeUsage(body)),
      renderStreamError,
    );
  }
  return sendBody(call.response, call.turn, 200, call.headers, chatCompletionJson(reply, id, unixSeconds()));
}

async function completions(call: OperationCall): Promise<void> {
  const { body, context } = call;
  if (body.prompt === undefined)
    return badRequest(call, "Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  const summary = summarizeCompletionRequest(body, call.model);
  const reply = buildReply(summary, context.replySpec(call.request, call.turn), context.ids, 'call_');
  const id = context.ids.next('cmpl-', 29);
  if (body.stream === true) {
    return sendEvents(
      call.response,
      call.turn,
      call.headers,
      completionEvents(reply, id, unixSeconds(), includeUsage(body)),
      renderStreamError,
    );
  }
  return sendBody(call.response, call.turn, 200, call.headers, completionJson(reply, id, unixSeconds()));
}

async function embeddings(call: OperationCall): Promise<void> {
  const { body } = call;
  const inputs = embeddingInputs(body.input);
  if (!inputs)
    return badRequest(
      call,
      "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
      'input',
    );
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') {
    return badRequest(
      call,
      `Invalid value for 'encoding_format': ${JSON.stringify(format)}. Supported values are: 'float' and 'base64'.`,
      'encoding_format',
    );
  }
  const dimensions = embeddingDimensions(body, call.model, call.embeddingDimensions);
  const promptTokens = call.context.replySpec(call.request, call.turn)?.usage?.inputTokens;
  return sendBody(
    call.response,
    call.turn,
    200,
    call.headers,
    embeddingsJson(inputs, call.model, dimensions, format === 'base64', promptTokens),
  );
}
