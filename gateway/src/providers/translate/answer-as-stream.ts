import { isPlainObject } from './parse-wire.js';
import type { SseFrame } from './sse.js';

/**
 * A whole answer re-told as the event stream a client asked for. Some OpenAI-compatible servers (and some models
 * behind them) answer `stream: true` with one JSON body; relayed as JSON, the SDKs' stream readers see no events and
 * end silently with nothing. Re-telling it keeps the contract: the client asked for a stream, it gets one, with the
 * same content, tool calls, finish reason and usage, in the events its SDK assembles.
 */
export function answerAsStream(
  clientFormat: 'chat-completions' | 'messages',
  answer: Record<string, unknown>,
  options: { includeUsage: boolean },
): SseFrame[] {
  return clientFormat === 'messages' ? messageAsEvents(answer) : completionAsChunks(answer, options.includeUsage);
}

type Json = Record<string, unknown>;

const data = (value: unknown): SseFrame => ({ data: JSON.stringify(value) });

/** A chat completion as `chat.completion.chunk` events: role, content, tool calls, finish, usage, `[DONE]`. */
function completionAsChunks(completion: Json, includeUsage: boolean): SseFrame[] {
  const envelope = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    ...(completion.system_fingerprint === undefined ? {} : { system_fingerprint: completion.system_fingerprint }),
  };
  const chunk = (choices: unknown[]) => data({ ...envelope, choices });
  const frames: SseFrame[] = [];
  const choices = Array.isArray(completion.choices) ? completion.choices.filter(isPlainObject) : [];
  for (const [position, choice] of choices.entries()) {
    const index = typeof choice.index === 'number' ? choice.index : position;
    const message = isPlainObject(choice.message) ? choice.message : {};
    const delta = (fields: Json) => chunk([{ index, delta: fields, logprobs: null, finish_reason: null }]);
    frames.push(delta({ role: 'assistant', content: '' }));
    if (typeof message.reasoning_content === 'string' && message.reasoning_content.length > 0)
      frames.push(delta({ reasoning_content: message.reasoning_content }));
    if (typeof message.content === 'string' && message.content.length > 0)
      frames.push(delta({ content: message.content }));
    if (typeof message.refusal === 'string' && message.refusal.length > 0)
      frames.push(delta({ refusal: message.refusal }));
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isPlainObject) : [];
    for (const [callIndex, call] of calls.entries())
      frames.push(
        delta({
          tool_calls: [{ index: callIndex, id: call.id, type: call.type ?? 'function', function: call.function }],
        }),
      );
    frames.push(chunk([{ index, delta: {}, logprobs: null, finish_reason: choice.finish_reason ?? 'stop' }]));
  }
  if (includeUsage && isPlainObject(completion.usage))
    frames.push(data({ ...envelope, choices: [], usage: completion.usage }));
  frames.push({ data: '[DONE]' });
  return frames;
}

const event = (type: string, fields: Json): SseFrame => ({ event: type, data: JSON.stringify({ type, ...fields }) });

/** A Messages answer as its event sequence: start, each content block (start, delta, stop), delta, stop. */
function messageAsEvents(message: Json): SseFrame[] {
  const usage = isPlainObject(message.usage) ? message.usage : {};
  const { content, stop_reason: stopReason, stop_sequence: stopSequence, ...rest } = message;
  const frames: SseFrame[] = [
    event('message_start', {
      message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 0 } },
    }),
  ];
  const blocks = Array.isArray(content) ? content.filter(isPlainObject) : [];
  for (const [index, block] of blocks.entries()) {
    const [start, deltas] = splitBlock(block);
    frames.push(event('content_block_start', { index, content_block: start }));
    for (const delta of deltas) frames.push(event('content_block_delta', { index, delta }));
    frames.push(event('content_block_stop', { index }));
  }
  // The API's message_delta carries the cumulative usage; the SDKs take output tokens (and input, when present) from it.
  frames.push(
    event('message_delta', {
      delta: { stop_reason: stopReason ?? 'end_turn', stop_sequence: stopSequence ?? null },
      usage,
    }),
  );
  frames.push(event('message_stop', {}));
  return frames;
}

/** A content block's opening form and the deltas that fill it, as the Messages API streams each kind. */
function splitBlock(block: Json): [start: Json, deltas: Json[]] {
  switch (block.type) {
    case 'text':
      return [
        { ...block, text: '' },
        typeof block.text === 'string' && block.text.length > 0 ? [{ type: 'text_delta', text: block.text }] : [],
      ];
    case 'tool_use':
    case 'server_tool_use':
      return [{ ...block, input: {} }, [{ type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) }]];
    case 'thinking': {
      const deltas: Json[] = [{ type: 'thinking_delta', thinking: block.thinking ?? '' }];
      if (typeof block.signature === 'string') deltas.push({ type: 'signature_delta', signature: block.signature });
      return [{ ...block, thinking: '', signature: '' }, deltas];
    }
    default:
      // Redacted thinking, tool results of server tools and kinds added later arrive whole in their start event.
      return [block, []];
  }
}
