import { AnthropicStreamUsageAccumulator } from '../extract-anthropic-usage.js';
import { mapAnthropicStopReason } from '../map-anthropic-stop-reason.js';
import { isPlainObject, parseJson } from '../parse-wire.js';
import type { ChatCompletionChunkOut, ChatErrorBodyOut, ChatFinishReason } from '../schemas/chat-completions.types.js';
import { messagesStreamEventSchemas } from '../schemas/messages.schema.js';
import type { SseFrame } from '../sse.js';
import type { StreamTranslator, TranslationContext, TranslatorClock } from '../translator.js';
import type { Usage } from '../usage.js';
import { chatUsageFromUsage } from './chat-usage.js';
import { chatErrorFromMessagesError } from './error.js';
import { jsonResponseTool } from './response-format.js';

export type ChatStreamOutput =
  | { kind: 'chunk'; chunk: ChatCompletionChunkOut }
  | { kind: 'error'; error: ChatErrorBodyOut }
  /** The message is complete; the caller writes the `[DONE]` line. */
  | { kind: 'done' };

type Delta = ChatCompletionChunkOut['choices'][number]['delta'];

export interface ChatToMessagesStreamOptions {
  readonly clock: TranslatorClock;
}

/**
 * Messages stream events → `chat.completion.chunk` objects, one converter per response.
 *
 * Role chunk on `message_start`; text deltas as `content`; each `tool_use` block gets the next tool-call
 * index, a first delta with id and name, then its `input_json_delta` fragments as `arguments`. A call that
 * ends with no argument text (Anthropic streams a tool without parameters as one empty `partial_json`)
 * gets `"{}"`, as OpenAI streams it and as the JSON path renders `input: {}`: the OpenAI SDK's `runTools`
 * parses the arguments and fails on `""`. Thinking deltas become `reasoning_content` (the field DeepSeek,
 * vLLM and LiteLLM clients read; others ignore unknown delta fields), signatures are dropped. `message_delta` gives the finish chunk; `message_stop`
 * the usage chunk (empty `choices`) when the client asked for usage. An `error` event becomes an error
 * object the caller renders as an SSE error; so does a stream that ends before `message_stop`.
 */
export class MessagesEventsToChatChunks {
  readonly #includeUsage: boolean;
  readonly #clock: TranslatorClock;
  readonly #usage = new AnthropicStreamUsageAccumulator();
  readonly #toolIndexByBlock = new Map<number, number>();
  /** Tool blocks that have streamed no argument text yet, by block index. */
  readonly #toolBlocksWithoutArguments = new Set<number>();
  /** The forced response-format tool's block, streamed as content (see response-format.ts). */
  readonly #jsonResponse: boolean;
  #jsonBlock: number | null = null;
  #id = '';
  #model: string;
  #created = 0;
  #started = false;
  #finished = false;

  constructor(context: TranslationContext, options: ChatToMessagesStreamOptions) {
    this.#includeUsage = context.includeUsage;
    this.#jsonResponse = context.jsonResponse === true;
    this.#clock = options.clock;
    this.#model = context.requestModel;
  }

  get finished(): boolean {
    return this.#finished;
  }

  push(event: unknown): ChatStreamOutput[] {
    if (this.#finished || !isPlainObject(event)) return [];
    if (event.type === 'error') return this.#fail(chatErrorFromMessagesError(event, 500));
    if (event.type === 'message_start') return this.#start(event);
    if (!this.#started) return this.#fail(streamError('The provider stream did not begin with message_start.'));
    switch (event.type) {
      case 'content_block_start':
        return this.#blockStart(event);
      case 'content_block_delta':
        return this.#blockDelta(event);
      case 'content_block_stop':
        return typeof event.index === 'number' ? this.#closeToolArguments([event.index]) : [];
      case 'message_delta':
        return this.#messageDelta(event);
      case 'message_stop':
        return this.#stop();
      default:
        return [];
    }
  }

  /** The upstream closed. A stream cut before `message_stop` must not look complete to the client. */
  end(): ChatStreamOutput[] {
    if (this.#finished) return [];
    return this.#fail(streamError('The provider stream ended before the message was complete.'));
  }

  usage(): Usage | undefined {
    return this.#usage.usage();
  }

  #start(event: Record<string, unknown>): ChatStreamOutput[] {
    const parsed = messagesStreamEventSchemas.message_start.safeParse(event);
    if (!parsed.success) return this.#fail(streamError('The provider sent an invalid message_start event.'));
    this.#started = true;
    this.#id = parsed.data.message.id;
    this.#model = parsed.data.message.model ?? this.#model;
    this.#created = Math.floor(this.#clock.now() / 1000);
    this.#usage.apply(parsed.data.message.usage);
    return [this.#chunk({ role: 'assistant', content: '' })];
  }

  #blockStart(event: Record<string, unknown>): ChatStreamOutput[] {
    const parsed = messagesStreamEventSchemas.content_block_start.safeParse(event);
    if (!parsed.success) return [];
    const block = parsed.data.content_block;
    // In JSON mode only the forced tool's input is content: text around it would break the JSON.
    if (block.type === 'text' && typeof block.text === 'string' && block.text !== '' && !this.#jsonResponse)
      return [this.#chunk({ content: block.text })];
    if (block.type !== 'tool_use' || typeof block.id !== 'string' || typeof block.name !== 'string') return [];
    if (this.#jsonResponse && block.name === jsonResponseTool) {
      // The first call is the answer; a second one is dropped rather than glued onto it.
      this.#jsonBlock ??= parsed.data.index;
      return [];
    }
    const toolIndex = this.#toolIndexByBlock.size;
    this.#toolIndexByBlock.set(parsed.data.index, toolIndex);
    this.#toolBlocksWithoutArguments.add(parsed.data.index);
    return [
      this.#chunk({
        tool_calls: [
          { index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } },
        ],
      }),
    ];
  }

  #blockDelta(event: Record<string, unknown>): ChatStreamOutput[] {
    const parsed = messagesStreamEventSchemas.content_block_delta.safeParse(event);
    if (!parsed.success) return [];
    const { index, delta } = parsed.data;
    switch (delta.type) {
      case 'text_delta':
        return delta.text && !this.#jsonResponse ? [this.#chunk({ content: delta.text })] : [];
      case 'thinking_delta':
        return delta.thinking ? [this.#chunk({ reasoning_content: delta.thinking })] : [];
      case 'input_json_delta': {
        if (index === this.#jsonBlock) return delta.partial_json ? [this.#chunk({ content: delta.partial_json })] : [];
        const toolIndex = this.#toolIndexByBlock.get(index);
        if (toolIndex === undefined || !delta.partial_json) return [];
        this.#toolBlocksWithoutArguments.delete(index);
        return [this.#chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] })];
      }
      default:
        return [];
    }
  }

  #messageDelta(event: Record<string, unknown>): ChatStreamOutput[] {
    const parsed = messagesStreamEventSchemas.message_delta.safeParse(event);
    if (!parsed.success) return [];
    this.#usage.apply(parsed.data.usage);
    // A block the provider never closed still ends here, before the finish chunk.
    const unclosed = this.#closeToolArguments([...this.#toolBlocksWithoutArguments]);
    // The forced response-format tool ends the answer like text does; only calls the client sees are `tool_calls`.
    const answeredInJson =
      this.#jsonBlock !== null && this.#toolIndexByBlock.size === 0 && parsed.data.delta.stop_reason === 'tool_use';
    return [
      ...unclosed,
      this.#chunk({}, answeredInJson ? 'stop' : (mapAnthropicStopReason(parsed.data.delta.stop_reason) ?? 'stop')),
    ];
  }

  /** Tool calls among `blocks` that end with no argument text get `"{}"`. */
  #closeToolArguments(blocks: readonly number[]): ChatStreamOutput[] {
    const outputs: ChatStreamOutput[] = [];
    for (const block of blocks) {
      const toolIndex = this.#toolIndexByBlock.get(block);
      if (toolIndex === undefined || !this.#toolBlocksWithoutArguments.delete(block)) continue;
      outputs.push(this.#chunk({ tool_calls: [{ index: toolIndex, function: { arguments: '{}' } }] }));
    }
    return outputs;
  }

  #stop(): ChatStreamOutput[] {
    this.#finished = true;
    const usage = this.#usage.usage();
    if (!this.#includeUsage || !usage) return [{ kind: 'done' }];
    return [
      { kind: 'chunk', chunk: { ...this.#envelope(), choices: [], usage: chatUsageFromUsage(usage) } },
      { kind: 'done' },
    ];
  }

  #fail(error: ChatErrorBodyOut): ChatStreamOutput[] {
    this.#finished = true;
    return [{ kind: 'error', error }];
  }

  #envelope(): Omit<ChatCompletionChunkOut, 'choices'> {
    return { id: this.#id, object: 'chat.completion.chunk', created: this.#created, model: this.#model };
  }

  #chunk(delta: Delta, finishReason: ChatFinishReason | null = null): ChatStreamOutput {
    return {
      kind: 'chunk',
      chunk: { ...this.#envelope(), choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] },
    };
  }
}

export function renderChatStreamOutput(output: ChatStreamOutput): SseFrame {
  switch (output.kind) {
    case 'chunk':
      return { data: JSON.stringify(output.chunk) };
    case 'error':
      return { data: JSON.stringify(output.error) };
    case 'done':
      return { data: '[DONE]' };
  }
}

function streamError(message: string): ChatErrorBodyOut {
  return { error: { message, type: 'server_error', param: null, code: 'upstream_stream_incomplete' } };
}

/**
 * The frame-level translator the proxy drives: Messages SSE frames in, chat-completions SSE frames out,
 * ending with `data: [DONE]` after a complete message. After an error frame the stream
 * just ends: no `[DONE]`, so a client cannot mistake it for a complete answer.
 */
export function createChatToMessagesStreamTranslator(
  context: TranslationContext,
  options: ChatToMessagesStreamOptions,
): StreamTranslator {
  const converter = new MessagesEventsToChatChunks(context, options);
  const render = (outputs: ChatStreamOutput[]): SseFrame[] => outputs.map(renderChatStreamOutput);
  return {
    push(frame) {
      if (converter.finished) return [];
      const event = parseJson(frame.data);
      if (event === undefined)
        return render(
          converter.push({
            type: 'error',
            error: { type: 'server_error', message: 'The provider sent an event that is not JSON.' },
          }),
        );
      return render(converter.push(event));
    },
    end: () => render(converter.end()),
    usage: () => converter.usage(),
  };
}
