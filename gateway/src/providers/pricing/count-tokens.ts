type Json = Record<string, unknown>;
type Encode = (text: string) => number[];

let encoder: Promise<Encode> | undefined;

/**
 * The o200k encoder, imported on first use: its ranks take about 0.4 s to load, a seventh of the gateway's whole
 * start, for two features a call may never use (the local `count_tokens` estimate and strict reservations). The
 * gateway warms it right after it starts listening (main.ts), so a missing file fails at start, not on a user's call.
 */
export function loadTokenizer(): Promise<Encode> {
  encoder ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => module.encode);
  return encoder;
}

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
export async function estimateInputTokens(body: Json): Promise<number> {
  const encode = await loadTokenizer();
  const parts: string[] = [];
  textOf(body.system, parts);
  textOf(body.messages, parts);
  if (body.tools !== undefined) parts.push(JSON.stringify(body.tools));
  const messages = Array.isArray(body.messages) ? body.messages.length : 0;
  return encode(parts.join('\n')).length + messages * 4;
}
