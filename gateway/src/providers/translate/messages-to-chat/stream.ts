import { usageFromOpenAiUsage } from '../extract-openai-usage.js';
import { mapOpenAiFinishReason } from '../map-openai-finish-reason.js';
import { isPlainObject, parseJson } from '../parse-wire.js';
import { chatCompletionChunkSchema, type ChatToolCallDelta } from '../schemas/chat-completions.schema.js';
import type { MessagesErrorBodyOut, MessagesStopReason, MessagesStreamEventOut } from '../schemas/messages.types.js';
import type { SseFrame } from '../sse.js';
import type { StreamTranslator, TranslationContext, TranslatorClock } from '../translator.js';
import type { Usage } from '../usage.js';
import { messagesErrorFromChatError } from './error.js';
import { messagesUsageFromUsage } from './messages-usage.js';

export interface MessagesToChatStreamOptions {
  /** Stamps the stand-in id of a message whose provider sent none. */
  readonly clock: TranslatorClock;
}

const unsetClock: TranslatorClock = { now: () => 0 };

type OpenBlock = { kind: 'text'; index: number } | { kind: 'tool'; index: number; toolIndex: number };

/**
 * `chat.completion.chunk` objects → the Messages event sequence: `message_start`, then per content block
 * `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta`) / `content_block_stop`,
 * then `message_delta` (stop reason, usage) and `message_stop`.
 *
 * Block indexes count from 0 in the order blocks open, one block open at a time, as Anthropic streams
 * them (the official SDK appends blocks in arrival order): text then tool calls, or several parallel tool
 * calls, each close the previous block. OpenAI sends each tool call's fragments contiguously; should a
 * provider interleave them, a late fragment keeps its tool's original block index so arguments stay whole.
 *
 * The finish chunk closes the open block but `message_delta` waits for `[DONE]` (or the upstream's end):
 * the usage chunk arrives after the finish chunk. `message_start` has no usage yet (OpenAI reports it
 * last), so `message_delta` carries the full usage; Messages clients take input counts from either.
 * Chunks before the first one with a choice or usage are skipped (Azure's prompt-filter chunk), and an
 * empty id or model falls back to a stand-in id and the requested model.
 */
export class ChatChunksToMessagesEvents {
  readonly #toolBlocks = new Map<number, number>();
  #open: OpenBlock | undefined;
  #nextIndex = 0;
  #started = false;
  #finished = false;
  #stopReason: MessagesStopReason | null = null;
  #sawFinishReason = false;
  #usage: Usage | undefined;
  readonly #requestModel: string;
  readonly #clock: TranslatorClock;

  constructor(context: TranslationContext, options: MessagesToChatStreamOptions = { clock: unsetClock }) {
    this.#requestModel = context.requestModel;
    this.#clock = options.clock;
  }

  get finished(): boolean {
    return this.#finished;
  }

  push(chunk: unknown): MessagesStreamEventOut[] {
    if (this.#finished) return [];
    if (isPlainObject(chunk) && 'error' in chunk) return this.#fail(messagesErrorFromChatError(chunk, 500));
    const parsed = chatCompletionChunkSchema.safeParse(chunk);
    if (!parsed.success) return this.#fail(streamError('The provider sent an invalid chat.completion.chunk.'));
    const events: MessagesStreamEventOut[] = [];
    if (!this.#started) {
      // Azure opens with `{"choices":[],"id":"","model":"","prompt_filter_results":[…]}`: nothing of the message yet.
      if (parsed.data.choices.length === 0 && !parsed.data.usage) return events;
      events.push(this.#start(parsed.data.id, parsed.data.model));
    }
    this.#usage = usageFromOpenAiUsage(parsed.data.usage) ?? this.#usage;
    const choice = parsed.data.choices[0];
    if (!choice) return events;
    const text = (choice.delta?.content ?? '') + (choice.delta?.refusal ?? '');
    if (text !== '') events.push(...this.#text(text));
    for (const toolCall of choice.delta?.tool_calls ?? []) events.push(...this.#toolCall(toolCall));
    if (choice.finish_reason) {
      events.push(...this.#closeOpen());
      this.#sawFinishReason = true;
      this.#stopReason = mapOpenAiFinishReason(choice.finish_reason, this.#toolBlocks.size > 0);
    }
    return events;
  }

  /** `data: [DONE]`: the message is complete. */
  done(): MessagesStreamEventOut[] {
    if (this.#finished) return [];
    if (!this.#sawFinishReason)
      return this.#fail(streamError('The provider stream ended before the message was complete.'));
    this.#finished = true;
    return [
      ...this.#closeOpen(),
      {
        type: 'message_delta',
        delta: { stop_reason: this.#stopReason, stop_sequence: null },
        usage: messagesUsageFromUsage(this.#usage),
      },
      { type: 'message_stop' },
    ];
  }

  /** The upstream closed. Without `[DONE]` a finished message still completes; a cut one is an error. */
  end(): MessagesStreamEventOut[] {
    return this.done();
  }

  usage(): Usage | undefined {
    return this.#usage;
  }

  /** A Messages `id` and `model` are never empty: clients key transcripts and logs on them. */
  #start(id: string, model: string | null | undefined): MessagesStreamEventOut {
    this.#started = true;
    return {
      type: 'message_start',
      message: {
        id: id === '' ? `msg_gw_${this.#clock.now().toString(36)}` : id,
        type: 'message',
        role: 'assistant',
        model: model || this.#requestModel,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: messagesUsageFromUsage(undefined),
      },
    };
  }

  #text(text: string): MessagesStreamEventOut[] {
    const events: MessagesStreamEventOut[] = [];
    if (this.#open?.kind !== 'text') {
      events.push(...this.#closeOpen());
      const index = this.#nextIndex++;
      this.#open = { kind: 'text', index };
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    }
    events.push({ type: 'content_block_delta', index: this.#open.index, delta: { type: 'text_delta', text } });
    return events;
  }

  #toolCall(toolCall: ChatToolCallDelta): MessagesStreamEventOut[] {
    const events: MessagesStreamEventOut[] = [];
    let index = this.#toolBlocks.get(toolCall.index);
    if (index === undefined) {
      events.push(...this.#closeOpen());
      index = this.#nextIndex++;
      this.#toolBlocks.set(toolCall.index, index);
      this.#open = { kind: 'tool', index, toolIndex: toolCall.index };
      // A provider that omits the id gets a stable one; the client echoes it back in tool_result.
      const id = toolCall.id ?? `toolu_gw_${toolCall.index}`;
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: toolCall.function?.name ?? '', input: {} },
      });
    }
    const fragment = toolCall.function?.arguments ?? '';
    if (fragment !== '')
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: fragment } });
    return events;
  }

  #closeOpen(): MessagesStreamEventOut[] {
    if (!this.#open) return [];
    const { index } = this.#open;
    this.#open = undefined;
    return [{ type: 'content_block_stop', index }];
  }

  #fail(error: MessagesErrorBodyOut): MessagesStreamEventOut[] {
    this.#finished = true;
    return [error];
  }
}

function streamError(message: string): MessagesErrorBodyOut {
  return { type: 'error', error: { type: 'api_error', message } };
}

/** Messages events are named frames: `event: <type>` then the JSON. */
export function renderMessagesStreamEvent(event: MessagesStreamEventOut): SseFrame {
  return { event: event.type, data: JSON.stringify(event) };
}

/** The frame-level translator the proxy drives: chat-completions SSE frames in, Messages SSE frames out. */
export function createMessagesToChatStreamTranslator(
  context: TranslationContext,
  options?: MessagesToChatStreamOptions,
): StreamTranslator {
  const converter = new ChatChunksToMessagesEvents(context, options);
  return {
    push(frame) {
      if (converter.finished) return [];
      if (frame.data === '[DONE]') return converter.done().map(renderMessagesStreamEvent);
      const chunk = parseJson(frame.data);
      const events =
        chunk === undefined
          ? converter.push({ error: { type: 'api_error', message: 'The provider sent an event that is not JSON.' } })
          : converter.push(chunk);
      return events.map(renderMessagesStreamEvent);
    },
    end: () => converter.end().map(renderMessagesStreamEvent),
    usage: () => converter.usage(),
  };
}
