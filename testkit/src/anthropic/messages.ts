import type { ConversationSummary, FinishReason, Reply, ToolChoice, ToolDefinition, Usage } from '../core/reply.js';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Characters of prompt text in a string or block content (text, tool_result, tool_use input). */
function contentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (typeof block.text === 'string') chars += block.text.length;
    else if (block.type === 'tool_result') chars += contentChars(block.content);
    else if (block.type === 'tool_use') chars += JSON.stringify(block.input ?? {}).length;
  }
  return chars;
}

/** Text blocks only: a tool result is not the user asking for something. */
function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content)
    if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') text += block.text;
  return text;
}

function toolDefinitions(tools: unknown): ToolDefinition[] {
  if (!Array.isArray(tools)) return [];
  const definitions: ToolDefinition[] = [];
  for (const tool of tools)
    if (isRecord(tool) && typeof tool.name === 'string')
      definitions.push({ name: tool.name, schema: tool.input_schema });
  return definitions;
}

function toolChoice(choice: unknown): ToolChoice {
  if (!isRecord(choice)) return { kind: 'auto' };
  if (choice.type === 'none') return { kind: 'none' };
  if (choice.type === 'any') return { kind: 'required' };
  if (choice.type === 'tool' && typeof choice.name === 'string') return { kind: 'named', name: choice.name };
  return { kind: 'auto' };
}

/** The input-token estimate shared by `/v1/messages` usage and `/v1/messages/count_tokens`. */
export function summarizeMessagesRequest(body: Json, model: string): ConversationSummary {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let promptChars = contentChars(body.system);
  for (const message of messages) if (isRecord(message)) promptChars += contentChars(message.content);
  const tools = toolDefinitions(body.tools);
  if (tools.length > 0) promptChars += JSON.stringify(body.tools).length;
  const last: unknown = messages[messages.length - 1];
  const thinking = isRecord(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');
  return {
    model,
    messageCount: messages.length,
    lastUserText: isRecord(last) && last.role === 'user' ? userText(last.content) : '',
    promptChars,
    tools,
    toolChoice: toolChoice(body.tool_choice),
    maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : undefined,
    thinking,
  };
}

const STOP_REASONS: Record<FinishReason, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' };

export function stopReason(reply: Reply): string {
  return STOP_REASONS[reply.finishReason];
}

/** Deterministic stand-in for the opaque signature that must accompany a thinking block when it is sent back. */
export function thinkingSignature(reply: Reply): string {
  return Buffer.from(`simulated-signature:${reply.model}:${reply.thinking?.length ?? 0}`).toString('base64');
}

export function anthropicUsage(usage: Usage): Json {
  return {
    input_tokens: usage.inputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cachedInputTokens,
    cache_creation: { ephemeral_5m_input_tokens: usage.cacheCreationInputTokens, ephemeral_1h_input_tokens: 0 },
    output_tokens: usage.outputTokens,
    service_tier: 'standard',
  };
}

function parseInput(argumentsText: string): unknown {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function messageContent(reply: Reply): Json[] {
  const content: Json[] = [];
  if (reply.thinking !== undefined)
    content.push({ type: 'thinking', thinking: reply.thinking, signature: thinkingSignature(reply) });
  if (reply.text !== '') content.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls)
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) });
  return content;
}

export function messageJson(reply: Reply, id: string): string {
  return JSON.stringify({
    id,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: messageContent(reply),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: anthropicUsage(reply.usage),
  });
}
