import { hash } from 'node:crypto';

type Json = Record<string, unknown>;

export interface ConversationInput {
  sessionHeader: string | undefined;
  metadata: Readonly<Record<string, string>>;
  body: Json | undefined;
  /** The caller (user, else key id): conversations never collide across callers. */
  caller: string;
}

function firstUserContent(messages: unknown): unknown {
  if (!Array.isArray(messages)) return undefined;
  for (const message of messages) {
    if (typeof message === 'object' && message !== null && (message as Json).role === 'user')
      return (message as Json).content;
  }
  return undefined;
}

function systemPrompt(body: Json): unknown {
  if (body.system !== undefined) return body.system;
  if (!Array.isArray(body.messages)) return undefined;
  return body.messages
    .filter(
      (message) =>
        typeof message === 'object' &&
        message !== null &&
        ['system', 'developer'].includes(String((message as Json).role)),
    )
    .map((message) => (message as Json).content);
}

/**
 * The key that keeps a conversation on one target: an explicit session (header `x-gw-session-id`,
 * or `sessionId`/`session` in `x-gw-metadata`) first, else a stable hash of the conversation's opening (system prompt
 * and first user message) and the caller. Every later turn repeats the opening, so every turn maps to the same key.
 * No derivable conversation → null (spread per request).
 */
export function conversationKey(input: ConversationInput): string | null {
  const explicit = input.sessionHeader ?? input.metadata.sessionId ?? input.metadata.session;
  if (explicit) return `${input.caller}\u0000session\u0000${explicit}`;
  if (!input.body) return null;
  const firstUser = firstUserContent(input.body.messages);
  if (firstUser === undefined) return null;
  const opening = JSON.stringify([systemPrompt(input.body) ?? null, firstUser]);
  return `${input.caller}\u0000opening\u0000${hash('sha256', opening, 'hex')}`;
}
