import { findFreshStart } from './fresh-turn.js';
import { arrayField, isRecord, stringField, type JsonObject } from './json-value.js';
import { spanKey, type RequestView, type ToolOutputSpan } from './request-view.js';
import { isRetrieveDeclaration, forcedToolName, isToolChoiceNone } from './retrieve-declaration.js';

/** Items the model produced: everything after the last of them is the fresh turn. */
function isModelItem(item: unknown): boolean {
  if (!isRecord(item)) return false;
  if (item.role === 'assistant') return true;
  return item.type === 'function_call' || item.type === 'reasoning' || item.type === 'custom_tool_call';
}

/** Responses view: `function_call_output` items with a string `output` are the tool outputs. */
export function buildOpenAiResponsesView(request: JsonObject): RequestView | null {
  const input = arrayField(request, 'input');
  if (!input) return null;
  const tools = arrayField(request, 'tools') ?? [];
  const freshStart = findFreshStart(input.length, (index) => isModelItem(input[index]));
  const calls = new Map<string, { name: string | undefined; input: string | undefined }>();
  for (const item of input) {
    if (isRecord(item) && item.type === 'function_call' && typeof item.call_id === 'string') {
      calls.set(item.call_id, { name: stringField(item, 'name'), input: stringField(item, 'arguments') });
    }
  }
  const spans: ToolOutputSpan[] = [];
  input.forEach((item: unknown, messageIndex) => {
    if (!isRecord(item) || item.type !== 'function_call_output' || typeof item.output !== 'string') return;
    const toolCallId = stringField(item, 'call_id');
    const call = toolCallId ? calls.get(toolCallId) : undefined;
    const location = { messageIndex };
    spans.push({
      ...location,
      key: spanKey(location),
      path: ['input', messageIndex, 'output'],
      text: item.output,
      toolCallId,
      toolName: call?.name,
      toolInput: call?.input,
      settled: messageIndex < freshStart,
      isError: false,
      origin: 'tool',
    });
  });
  return {
    format: 'openai-responses',
    model: stringField(request, 'model'),
    messageCount: input.length,
    freshStart,
    modelTurns: input.filter((item) => isRecord(item) && (item.role === 'assistant' || item.type === 'function_call'))
      .length,
    spans,
    tools: {
      declared: tools.length > 0,
      retrieveDeclared: tools.some(isRetrieveDeclaration),
      choiceNone: isToolChoiceNone(request.tool_choice),
      forcedTool: forcedToolName(request.tool_choice),
    },
    explicitCacheControl: false,
    messageAt: (index) => input[index],
  };
}
