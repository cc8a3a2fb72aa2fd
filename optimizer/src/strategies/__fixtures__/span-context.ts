import type { RequestView, ToolOutputSpan } from '../../format/request-view.js';
import type { ElisionMode, SpanPlanContext } from '../types.js';

/** A settled bash output with nothing else around it: the context most strategy tests need. */
export function spanContext(text: string, options: { mode?: ElisionMode; toolName?: string; earlierIdentical?: ToolOutputSpan } = {}): SpanPlanContext {
  const span: ToolOutputSpan = {
    key: 'm3',
    messageIndex: 3,
    path: ['messages', 3, 'content'],
    text,
    toolCallId: 'call_test',
    toolName: options.toolName ?? 'bash',
    toolInput: undefined,
    settled: true,
    isError: false,
    origin: 'tool',
  };
  const view: RequestView = {
    format: 'openai-chat',
    model: 'gpt-4.1',
    messageCount: 5,
    freshStart: 4,
    modelTurns: 2,
    spans: [span],
    tools: { declared: true, retrieveDeclared: true, choiceNone: false },
    explicitCacheControl: false,
    messageAt: () => undefined,
  };
  return { span, view, mode: options.mode ?? 'handle', earlierIdentical: options.earlierIdentical };
}
