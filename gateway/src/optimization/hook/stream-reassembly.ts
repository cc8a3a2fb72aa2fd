import type { SseFrame } from '../../providers/translate/sse.js';

type Json = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const parse = (data: string): Json | null => {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as Json) : null;
  } catch {
    return null;
  }
};

interface ToolCallParts {
  id?: string;
  name: string;
  arguments: string;
}

/** `chat.completion.chunk` events → one `chat.completion` (first choice; text, tool calls, finish reason, usage). */
export class ChatStreamReassembler {
  private base: Json | null = null;
  private content = '';
  private readonly toolCalls = new Map<number, ToolCallParts>();
  private finishReason: unknown = null;
  private usage: unknown;

  push(frame: SseFrame): void {
    if (frame.data === '[DONE]') return;
    const chunk = parse(frame.data);
    if (!chunk) return;
    this.base ??= chunk;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = Array.isArray(chunk.choices) ? (chunk.choices[0] as Json | undefined) : undefined;
    if (!choice) return;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const delta = (choice.delta ?? {}) as Json;
    if (typeof delta.content === 'string') this.content += delta.content;
    for (const call of Array.isArray(delta.tool_calls) ? (delta.tool_calls as Json[]) : []) {
      const index = typeof call.index === 'number' ? call.index : 0;
      const parts = this.toolCalls.get(index) ?? { name: '', arguments: '' };
      const fn = (call.function ?? {}) as Json;
      if (typeof call.id === 'string') parts.id = call.id;
      if (typeof fn.name === 'string') parts.name += fn.name;
      if (typeof fn.arguments === 'string') parts.arguments += fn.arguments;
      this.toolCalls.set(index, parts);
    }
  }

  result(): Json | null {
    if (!this.base) return null;
    const toolCalls = [...this.toolCalls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
    const message: Json = {
      role: 'assistant',
      content: this.content.length > 0 ? this.content : null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    };
    return {
      id: this.base.id,
      object: 'chat.completion',
      created: this.base.created,
      model: this.base.model,
      choices: [{ index: 0, message, finish_reason: this.finishReason }],
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }
}

/** Messages stream events → one `message` (text, tool use, thinking blocks; stop reason and usage). */
export class MessagesStreamReassembler {
  private message: Json | null = null;
  private readonly blocks: Json[] = [];
  private readonly partialJson = new Map<number, string>();

  push(frame: SseFrame): void {
    const event = parse(frame.data);
    if (!event) return;
    const index = typeof event.index === 'number' ? event.index : -1;
    if (event.type === 'message_start') this.message = { ...((event.message ?? {}) as Json) };
    else if (event.type === 'content_block_start') this.blocks[index] = { ...((event.content_block ?? {}) as Json) };
    else if (event.type === 'content_block_delta') this.applyDelta(index, (event.delta ?? {}) as Json);
    else if (event.type === 'content_block_stop' && this.partialJson.has(index)) {
      const block = this.blocks[index];
      const raw = this.partialJson.get(index) as string;
      if (block) block.input = raw.length > 0 ? (parse(raw) ?? {}) : {};
    } else if (event.type === 'message_delta' && this.message) {
      Object.assign(this.message, (event.delta ?? {}) as Json);
      this.message.usage = { ...((this.message.usage ?? {}) as Json), ...((event.usage ?? {}) as Json) };
    }
  }

  private applyDelta(index: number, delta: Json): void {
    const block = this.blocks[index];
    if (!block) return;
    if (delta.type === 'text_delta') block.text = text(block.text) + text(delta.text);
    else if (delta.type === 'thinking_delta') block.thinking = text(block.thinking) + text(delta.thinking);
    else if (delta.type === 'signature_delta') block.signature = delta.signature;
    else if (delta.type === 'input_json_delta')
      this.partialJson.set(index, (this.partialJson.get(index) ?? '') + text(delta.partial_json));
  }

  result(): Json | null {
    return this.message ? { ...this.message, content: this.blocks.filter(Boolean) } : null;
  }
}
