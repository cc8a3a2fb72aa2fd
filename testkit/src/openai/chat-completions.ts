import type { ConversationSummary, Reply, ToolChoice, ToolDefinition, Usage } from '../core/reply.js';
import { splitIntoDeltas, splitIntoFragments } from '../core/reply.js';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a message's `content`: a string, or an array of parts of which the `text` ones count. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (isRecord(part) && typeof part.text === 'string') text += part.text;
  }
  return text;
}

function toolDefinitions(tools: unknown): ToolDefinition[] {
  if (!Array.isArray(tools)) return [];
  const definitions: ToolDefinition[] = [];
  for (const tool of tools) {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (isRecord(fn) && typeof fn.name === 'string') definitions.push({ name: fn.name, schema: fn.parameters });
  }
  return definitions;
}

function toolChoice(choice: unknown): ToolChoice {
  if (choice === 'none' || choice === 'required') return { kind: choice };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { kind: 'named', name: choice.function.name };
  }
  return { kind: 'auto' };
}

const REASONING_MODEL = /^(o\d|gpt-5)/;

export function summarizeChatRequest(body: Json, model: string): ConversationSummary {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let promptChars = 0;
  for (const message of messages) if (isRecord(message)) promptChars += contentText(message.content).length;
  const tools = toolDefinitions(body.tools);
  if (tools.length > 0) promptChars += JSON.stringify(body.tools).length;
  const last: unknown = messages[messages.length - 1];
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  return {
    model,
    messageCount: messages.length,
    lastUserText: isRecord(last) && last.role === 'user' ? contentText(last.content) : '',
    promptChars,
    tools,
    toolChoice: toolChoice(body.tool_choice),
    maxTokens: typeof maxTokens === 'number' ? maxTokens : undefined,
    thinking: REASONING_MODEL.test(model) || body.reasoning_effort !== undefined,
  };
}

export function openAiUsage(usage: Usage): Json {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

export const SYSTEM_FINGERPRINT = 'fp_simulator';

export function chatCompletionJson(reply: Reply, id: string, created: number): string {
  const hasToolCalls = reply.toolCalls.length > 0;
  const message: Json = {
    role: 'assistant',
    content: hasToolCalls && reply.text === '' ? null : reply.text,
    refusal: null,
    annotations: [],
  };
  if (hasToolCalls) {
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return JSON.stringify({
    id,
    object: 'chat.completion',
    created,
    model: reply.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason }],
    usage: openAiUsage(reply.usage),
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  });
}

/**
 * The `chat.completion.chunk` SSE sequence: a role chunk, content deltas, tool-call deltas (index, id, type and
 * name first, then argument fragments), a finish chunk with an empty delta, the usage chunk with empty `choices`
 * when `stream_options.include_usage` is set (every other chunk then carries `usage: null`), and `[DONE]`.
 */
export function chatCompletionEvents(reply: Reply, id: string, created: number, includeUsage: boolean): string[] {
  const prefix = `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(reply.model)},"service_tier":"default","system_fingerprint":"${SYSTEM_FINGERPRINT}","choices":[`;
  const suffix = includeUsage ? '],"usage":null}\n\n' : ']}\n\n';
  const chunk = (delta: string, finishReason = 'null'): string =>
    `${prefix}{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finishReason}}${suffix}`;

  const events: string[] = [];
  const toolCalls = reply.toolCalls;
  const leadsWithTool = reply.text === '' && toolCalls.length > 0;
  if (!leadsWithTool) {
    events.push(chunk('{"role":"assistant","content":"","refusal":null}'));
    for (const piece of splitIntoDeltas(reply.text)) events.push(chunk(`{"content":${JSON.stringify(piece)}}`));
  }
  toolCalls.forEach((call, index) => {
    const opening = `{"index":${index},"id":${JSON.stringify(call.id)},"type":"function","function":{"name":${JSON.stringify(call.name)},"arguments":""}}`;
    events.push(
      chunk(
        index === 0 && leadsWithTool
          ? `{"role":"assistant","content":null,"tool_calls":[${opening}],"refusal":null}`
          : `{"tool_calls":[${opening}]}`,
      ),
    );
    for (const fragment of splitIntoFragments(call.arguments)) {
      events.push(chunk(`{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(fragment)}}}]}`));
    }
  });
  events.push(chunk('{}', JSON.stringify(reply.finishReason)));
  if (includeUsage) events.push(`${prefix}],"usage":${JSON.stringify(openAiUsage(reply.usage))}}\n\n`);
  events.push(DONE_EVENT);
  return events;
}

export const DONE_EVENT = 'data: [DONE]\n\n';
