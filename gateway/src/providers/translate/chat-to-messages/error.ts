import { errorTypeForStatus, fallbackErrorMessage } from '../map-error-type.js';
import type { ChatErrorBodyOut } from '../schemas/chat-completions.types.js';
import { messagesErrorSchema } from '../schemas/messages.schema.js';

/**
 * A Messages-family error body (`{type: "error", error: {type, message}}`, as a JSON body or a stream
 * `error` event) → the OpenAI envelope a chat-completions client reads. The type is kept unchanged
 *; the proxy adds the sentence naming the provider and sets the `x-gw-*` headers.
 * `body` is the parsed JSON, or the raw text when the body was not JSON.
 */
export function chatErrorFromMessagesError(body: unknown, status: number): ChatErrorBodyOut {
  const parsed = messagesErrorSchema.safeParse(body);
  const type = (parsed.success ? parsed.data.error.type : undefined) ?? errorTypeForStatus(status, 'openai');
  const message = (parsed.success ? parsed.data.error.message : undefined) ?? fallbackErrorMessage(body, status);
  return { error: { message, type, param: null, code: null } };
}
