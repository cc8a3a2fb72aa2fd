import { findFreshStart } from './fresh-turn.js';
import { arrayField, isRecord, stringField, type JsonObject } from './json-value.js';
import { spanKey, type RequestView, type SpanLocation, type ToolOutputSpan } from './request-view.js';
import { isRetrieveDeclaration, forcedToolName, isToolChoiceNone } from './retrieve-declaration.js';

interface CallInfo {
  readonly name: string | undefined;
  readonly input: string | undefined;
}

function collectToolUses(messages: readonly unknown[]): Map<string, CallInfo> {
  const calls = new Map<string, CallInfo>();
  for (const message of messages) {
    if (!isRecord(message) || message.role !== 'assistant') continue;
    for (const block of arrayField(message, 'content') ?? []) {
      if (!isRecord(block) || block.type !== 'tool_use' || typeof block.id !== 'string') continue;
      // Arguments are only classified (which command ran), never rewritten; stringifying them is harmless.
      calls.set(block.id, {
        name: stringField(block, 'name'),
        input: block.input === undefined ? undefined : JSON.stringify(block.input),
      });
    }
  }
  return calls;
}

function hasCacheControl(blocks: readonly unknown[] | undefined): boolean {
  return (blocks ?? []).some((block) => isRecord(block) && block.cache_control !== undefined);
}

function usesCacheControl(request: JsonObject, messages: readonly unknown[]): boolean {
  if (hasCacheControl(arrayField(request, 'system')) || hasCacheControl(arrayField(request, 'tools'))) return true;
  return messages.some((message) => isRecord(message) && hasCacheControl(arrayField(message, 'content')));
}

interface ResultSeed {
  readonly location: SpanLocation;
  readonly path: readonly (string | number)[];
  readonly text: string;
}

function resultSeeds(block: JsonObject, messageIndex: number, partIndex: number): ResultSeed[] {
  const base = ['messages', messageIndex, 'content', partIndex, 'content'] as const;
  if (typeof block.content === 'string')
    return [{ location: { messageIndex, partIndex }, path: base, text: block.content }];
  const seeds: ResultSeed[] = [];
  (arrayField(block, 'content') ?? []).forEach((inner: unknown, subIndex) => {
    if (isRecord(inner) && inner.type === 'text' && typeof inner.text === 'string') {
      seeds.push({
        location: { messageIndex, partIndex, subIndex },
        path: [...base, subIndex, 'text'],
        text: inner.text,
      });
    }
  });
  return seeds;
}

/** Messages view: `tool_result` blocks inside user turns are the tool outputs; `system` is top level. */
export function buildAnthropicMessagesView(request: JsonObject): RequestView | null {
  const messages = arrayField(request, 'messages');
  if (!messages) return null;
  const tools = arrayField(request, 'tools') ?? [];
  const freshStart = findFreshStart(
    messages.length,
    (index) => isRecord(messages[index]) && messages[index].role === 'assistant',
  );
  const calls = collectToolUses(messages);
  const spans: ToolOutputSpan[] = [];
  messages.forEach((message: unknown, messageIndex) => {
    if (!isRecord(message) || message.role !== 'user') return;
    (arrayField(message, 'content') ?? []).forEach((block: unknown, partIndex) => {
      if (!isRecord(block) || block.type !== 'tool_result') return;
      const toolCallId = stringField(block, 'tool_use_id');
      const call = toolCallId ? calls.get(toolCallId) : undefined;
      for (const seed of resultSeeds(block, messageIndex, partIndex)) {
        spans.push({
          ...seed.location,
          key: spanKey(seed.location),
          path: seed.path,
          text: seed.text,
          toolCallId,
          toolName: call?.name,
          toolInput: call?.input,
          settled: messageIndex < freshStart,
          isError: block.is_error === true,
          origin: 'tool',
        });
      }
    });
  });
  return {
    format: 'anthropic-messages',
    model: stringField(request, 'model'),
    messageCount: messages.length,
    freshStart,
    modelTurns: messages.filter((message) => isRecord(message) && message.role === 'assistant').length,
    spans,
    tools: {
      declared: tools.length > 0,
      retrieveDeclared: tools.some(isRetrieveDeclaration),
      choiceNone: isToolChoiceNone(request.tool_choice),
      forcedTool: forcedToolName(request.tool_choice),
    },
    explicitCacheControl: usesCacheControl(request, messages),
    messageAt: (index) => messages[index],
  };
}
