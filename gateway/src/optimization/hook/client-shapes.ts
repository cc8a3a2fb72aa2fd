type Json = Record<string, unknown>;

/**
 * Whether a response body is in the wire format a client of `endpoint` reads: a semantic-cache hit or an
 * optimize-response rewrite is served only then, so a Messages client never receives a chat completion (or
 * anything else the optimizer handed back).
 */
export function answersEndpoint(response: Json, endpoint: string): boolean {
  if (endpoint.endsWith('/chat/completions'))
    return response.object === 'chat.completion' && Array.isArray(response.choices);
  if (endpoint.endsWith('/messages')) return response.type === 'message' && Array.isArray(response.content);
  if (endpoint.endsWith('/completions'))
    return response.object === 'text_completion' && Array.isArray(response.choices);
  if (endpoint.endsWith('/embeddings')) return response.object === 'list' && Array.isArray(response.data);
  return false;
}

const kindOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/**
 * Whether the optimizer's rewrite of a request is still the same request to the provider: every field the route
 * relies on (model, messages, max_tokens, prompt, input) keeps its JSON kind and a non-empty array stays non-empty,
 * and streaming stays as the client asked (a dropped `stream` would answer a streaming client with JSON). Anything
 * else is a malformed answer, and the hook fails open with the client's body.
 */
export function preservesRequest(original: Json, rewritten: Json): boolean {
  if ((original.stream === true) !== (rewritten.stream === true)) return false;
  for (const field of ['model', 'messages', 'max_tokens', 'prompt', 'input'] as const) {
    if (!(field in original)) continue;
    const before = original[field];
    const after = rewritten[field];
    if (kindOf(after) !== kindOf(before)) return false;
    if (Array.isArray(before) && before.length > 0 && (after as unknown[]).length === 0) return false;
  }
  return true;
}
