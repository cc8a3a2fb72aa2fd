import { jsonDigest } from './json-digest.js';

/**
 * The parts of a request a provider's prompt cache sees in order: model, tool definitions, system prompt, then the
 * conversation. A change in one of them makes the provider write everything after it again instead of reading it.
 */
export interface PromptShape {
  model: string;
  tools: string;
  system: string;
  toolChoice: string;
  /** One digest per conversation message (system messages of a chat request belong to `system`). */
  messages: string[];
  /** Characters of each message as serialised, to price what a change makes the provider write again. */
  messageChars: number[];
  /** Characters of tools and system together. */
  headChars: number;
}

/**
 * Digests of each cached part, for chat-completions (`system`/`developer` messages lead the conversation) and
 * Messages (`system` field) bodies alike. Digests are of the parsed JSON as serialised (`jsonDigest`): the provider
 * caches the rendered prompt, so a client's whitespace or number spelling is no change, and key order from one client
 * is stable. The long strings repeated from the previous turn are not serialised again.
 */
export function promptShape(request: Record<string, unknown>): PromptShape {
  const all = Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
  let lead = 0;
  while (lead < all.length && isSystemMessage(all[lead])) lead += 1;
  const system = jsonDigest([request.system ?? null, ...all.slice(0, lead)]);
  const tools = jsonDigest(request.tools ?? null);
  const messages: string[] = [];
  const messageChars: number[] = [];
  for (const message of all.slice(lead)) {
    const { digest, chars } = jsonDigest(message);
    messages.push(digest);
    messageChars.push(chars);
  }
  return {
    model: typeof request.model === 'string' ? request.model : '',
    tools: tools.digest,
    system: system.digest,
    toolChoice: JSON.stringify(request.tool_choice ?? null),
    messages,
    messageChars,
    headChars: tools.chars + system.chars,
  };
}

function isSystemMessage(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const role = (message as { role?: unknown }).role;
  return role === 'system' || role === 'developer';
}

/** The part whose change busted the cached prefix; `history` is an earlier message of the conversation. */
export type LintRegion = 'model' | 'tools' | 'system' | 'tool_choice' | 'history';

export interface PrefixBust {
  region: LintRegion;
  /** For `history`: index (among conversation messages) of the first message that differs. */
  messageIndex?: number;
  /** Characters of the previous turn's prompt from the change on: what the provider writes again. */
  charsRewritten: number;
}

/**
 * Where `next` stops repeating `previous`, or null when it repeats it (appending turns, or sending only a prefix of
 * it, as a retry of an earlier turn does, both read the cache). The first differing part wins: a new model misses
 * every cached byte; new tools or a new system prompt everything; a new `tool_choice` the conversation (Anthropic
 * keeps tools and system cached across it); a changed message everything from it on.
 */
export function firstBust(previous: PromptShape, next: PromptShape): PrefixBust | null {
  const messageChars = (from: number) => previous.messageChars.slice(from).reduce((sum, chars) => sum + chars, 0);
  const whole = () => previous.headChars + messageChars(0);
  if (previous.model !== next.model) return { region: 'model', charsRewritten: whole() };
  if (previous.tools !== next.tools) return { region: 'tools', charsRewritten: whole() };
  if (previous.system !== next.system) return { region: 'system', charsRewritten: whole() };
  if (previous.toolChoice !== next.toolChoice) return { region: 'tool_choice', charsRewritten: messageChars(0) };
  const shared = Math.min(previous.messages.length, next.messages.length);
  for (let index = 0; index < shared; index += 1) {
    if (previous.messages[index] !== next.messages[index])
      return { region: 'history', messageIndex: index, charsRewritten: messageChars(index) };
  }
  return null;
}
