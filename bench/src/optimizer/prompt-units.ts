import { createHash } from 'node:crypto';
import { countTokensExact } from '@gw/optimizer';

/** One cacheable piece of a prompt, in the order a provider reads it: tools and system first, then each message. */
export interface PromptUnit {
  /** SHA-256 of the unit's exact JSON: equal bytes, equal hash. */
  readonly hash: string;
  readonly tokens: number;
}

/** Role markers and separators a provider adds around each message (chat templates spend a few tokens there). */
const perMessageOverhead = 4;

function blockText(block: Record<string, unknown>): string[] {
  if (block.type === 'text' && typeof block.text === 'string') return [block.text];
  if (block.type === 'tool_use') return [JSON.stringify(block.input)];
  if (block.type !== 'tool_result') return [];
  if (typeof block.content === 'string') return [block.content];
  return Array.isArray(block.content)
    ? (block.content as { text?: unknown }[]).map((inner) => (typeof inner.text === 'string' ? inner.text : ''))
    : [];
}

/**
 * A message's text exactly as the corpus README (and its validate.mjs) defines it: the string content, or the text
 * blocks, tool_result contents and tool_use inputs (JSON) joined with `\n`, then every tool call's arguments.
 */
export function messageText(message: unknown): string {
  const shaped = message as { content?: unknown; tool_calls?: { function?: { arguments?: unknown } }[] };
  const parts: string[] = [];
  if (typeof shaped.content === 'string') parts.push(shaped.content);
  else if (Array.isArray(shaped.content))
    for (const block of shaped.content as Record<string, unknown>[]) parts.push(...blockText(block));
  for (const call of shaped.tool_calls ?? [])
    if (typeof call.function?.arguments === 'string') parts.push(call.function.arguments);
  return parts.join('\n');
}

/** The texts of a whole request: system prompt (top-level or first message) and every message. */
export function requestTexts(request: Record<string, unknown>): string[] {
  const messages = Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
  const texts = messages.map(messageText);
  if (typeof request.system === 'string') texts.push(request.system);
  else if (Array.isArray(request.system)) texts.push(messageText({ content: request.system }));
  return texts;
}

/**
 * Token counts with o200k_base (the optimizer's own tokenizer), exact and memoized by text: later turns resend the
 * same strings, so each distinct text is encoded once per run.
 */
export class TokenCounter {
  private readonly memo = new Map<string, number>();

  count(text: string): number {
    if (text.length === 0) return 0;
    const hit = this.memo.get(text);
    if (hit !== undefined) return hit;
    const tokens = countTokensExact(text);
    this.memo.set(text, tokens);
    return tokens;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** The request as a provider's prefix cache sees it: the head (tools, system), then one unit per message. */
export function promptUnits(request: Record<string, unknown>, counter: TokenCounter): PromptUnit[] {
  const head = {
    tools: request.tools ?? null,
    system: request.system ?? null,
    tool_choice: request.tool_choice ?? null,
  };
  const headJson = JSON.stringify(head);
  const systemText = requestTexts({ system: request.system }).join('\n');
  const units: PromptUnit[] = [
    { hash: sha256(headJson), tokens: counter.count(JSON.stringify(head.tools)) + counter.count(systemText) },
  ];
  const messages = Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
  for (const message of messages)
    units.push({
      hash: sha256(JSON.stringify(message)),
      tokens: counter.count(messageText(message)) + perMessageOverhead,
    });
  return units;
}

export function totalTokens(units: readonly PromptUnit[]): number {
  return units.reduce((sum, unit) => sum + unit.tokens, 0);
}
