import { findFreshStart, isObservationText } from './fresh-turn.js';
import { arrayField, isRecord, stringField, type JsonObject } from './json-value.js';
import { spanKey, type RequestView, type SpanLocation, type ToolOutputSpan } from './request-view.js';
import { isRetrieveDeclaration, forcedToolName, isToolChoiceNone } from './retrieve-declaration.js';

interface CallInfo {
  readonly name: string | undefined;
  readonly input: string | undefined;
}

function collectCalls(messages: readonly unknown[]): Map<string, CallInfo> {
  const calls = new Map<string, CallInfo>();
  for (const message of messages) {
    if (!isRecord(message) || message.role !== 'assistant') continue;
    for (const call of arrayField(message, 'tool_calls') ?? []) {
      if (!isRecord(call) || typeof call.id !== 'string') continue;
      const fn = isRecord(call.function) ? call.function : undefined;
      calls.set(call.id, {
        name: fn ? stringField(fn, 'name') : undefined,
        input: fn ? stringField(fn, 'arguments') : undefined,
      });
    }
  }
  return calls;
}

interface SpanSeed {
  readonly location: SpanLocation;
  readonly path: readonly (string | number)[];
  readonly text: string;
}

/** The strings of a tool message: plain content, or the `text` parts of an array content. */
function toolMessageSeeds(message: JsonObject, messageIndex: number): SpanSeed[] {
  const content = message.content;
  if (typeof content === 'string')
    return [{ location: { messageIndex }, path: ['messages', messageIndex, 'content'], text: content }];
  if (!Array.isArray(content)) return [];
  const seeds: SpanSeed[] = [];
  content.forEach((part: unknown, partIndex) => {
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') {
      seeds.push({
        location: { messageIndex, partIndex },
        path: ['messages', messageIndex, 'content', partIndex, 'text'],
        text: part.text,
      });
    }
  });
  return seeds;
}

/** Chat-completions view: `role: "tool"` (and legacy `role: "function"`) messages are the tool outputs. */
export function buildOpenAiChatView(request: JsonObject): RequestView | null {
  const messages = arrayField(request, 'messages');
  if (!messages) return null;
  const tools = arrayField(request, 'tools') ?? [];
  const functions = arrayField(request, 'functions') ?? [];
  const declared = tools.length > 0 || functions.length > 0;
  const freshStart = findFreshStart(
    messages.length,
    (index) => isRecord(messages[index]) && messages[index].role === 'assistant',
  );
  const calls = collectCalls(messages);
  const spans: ToolOutputSpan[] = [];
  messages.forEach((message: unknown, messageIndex) => {
    if (!isRecord(message)) return;
    const settled = messageIndex < freshStart;
    if (message.role === 'tool' || message.role === 'function') {
      const toolCallId = stringField(message, 'tool_call_id');
      const call = toolCallId ? calls.get(toolCallId) : undefined;
      for (const seed of toolMessageSeeds(message, messageIndex)) {
        spans.push({
          ...seed.location,
          key: spanKey(seed.location),
          path: seed.path,
          text: seed.text,
          toolCallId,
          toolName: call?.name ?? stringField(message, 'name'),
          toolInput: call?.input,
          settled,
          isError: false,
          origin: 'tool',
        });
      }
      return;
    }
    // Shell agents without structured tools return observations as user turns; only the exact envelope counts.
    if (
      !declared &&
      message.role === 'user' &&
      typeof message.content === 'string' &&
      isObservationText(message.content)
    ) {
      const location = { messageIndex };
      spans.push({
        ...location,
        key: spanKey(location),
        path: ['messages', messageIndex, 'content'],
        text: message.content,
        toolCallId: undefined,
        toolName: undefined,
        toolInput: undefined,
        settled,
        isError: false,
        origin: 'observation',
      });
    }
  });
  return {
    format: 'openai-chat',
    model: stringField(request, 'model'),
    messageCount: messages.length,
    freshStart,
    modelTurns: messages.filter((message) => isRecord(message) && message.role === 'assistant').length,
    spans,
    tools: {
      declared,
      retrieveDeclared: tools.some(isRetrieveDeclaration),
      choiceNone: isToolChoiceNone(request.tool_choice),
      forcedTool: forcedToolName(request.tool_choice),
    },
    explicitCacheControl: false,
    messageAt: (index) => messages[index],
  };
}
