/** A conversation entry as far as turn boundaries go. */
interface Entry {
  readonly role?: unknown;
}

function isAssistant(messages: readonly unknown[], index: number): boolean {
  return (messages[index] as Entry | undefined)?.role === 'assistant';
}

/**
 * The requests a client sent during a recorded session, as a provider saw them: every prefix of the transcript that
 * ends just before an assistant message (the model was asked to answer there), then the whole transcript when it
 * ends on a fresh user or tool turn. For a SWE-bench trajectory that is every prefix ending in a user turn.
 */
export function requestPrefixes(request: Record<string, unknown>): Record<string, unknown>[] {
  const messages = Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
  const prefixes: Record<string, unknown>[] = [];
  for (let index = 1; index < messages.length; index += 1) {
    if (isAssistant(messages, index) && !isAssistant(messages, index - 1))
      prefixes.push({ ...request, messages: messages.slice(0, index) });
  }
  if (messages.length > 0 && !isAssistant(messages, messages.length - 1)) prefixes.push(request);
  return prefixes;
}

/** Index of the first message of the fresh turn: the trailing run of non-assistant messages. */
export function freshStart(messages: readonly unknown[]): number {
  let index = messages.length;
  while (index > 0 && !isAssistant(messages, index - 1)) index -= 1;
  return index;
}
