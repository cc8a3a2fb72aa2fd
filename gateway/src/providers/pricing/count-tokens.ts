import { encode } from 'gpt-tokenizer/encoding/o200k_base';

type Json = Record<string, unknown>;

function textOf(value: unknown, parts: string[]): void {
  if (typeof value === 'string') parts.push(value);
  else if (Array.isArray(value)) for (const item of value) textOf(item, parts);
  else if (typeof value === 'object' && value !== null) {
    const block = value as Json;
    if (typeof block.text === 'string') parts.push(block.text);
    if (block.input !== undefined) parts.push(JSON.stringify(block.input));
    if (block.content !== undefined) textOf(block.content, parts);
  }
}

/**
 * Local estimate for `/v1/messages/count_tokens` when the provider is not Anthropic-family (an Anthropic provider
 * answers with its own count): o200k tokens of system, messages and tool definitions plus a small per-message
 * framing allowance.
 */
export function estimateInputTokens(body: Json): number {
  const parts: string[] = [];
  textOf(body.system, parts);
  textOf(body.messages, parts);
  if (body.tools !== undefined) parts.push(JSON.stringify(body.tools));
  const messages = Array.isArray(body.messages) ? body.messages.length : 0;
  return encode(parts.join('\n')).length + messages * 4;
}
