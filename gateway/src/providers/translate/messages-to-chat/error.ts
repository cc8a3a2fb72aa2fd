import { errorTypeForStatus, fallbackErrorMessage } from '../map-error-type.js';
import { chatErrorSchema } from '../schemas/chat-completions.schema.js';
import type { MessagesErrorBodyOut } from '../schemas/messages.types.js';

/**
 * An OpenAI-family error body (`{error: {message, type, code}}`, as a JSON body or a stream data frame) →
 * the Messages envelope `{type: "error", error: {type, message}}`. The type is kept
 * unchanged; the proxy adds the sentence naming the provider. `body` is the parsed JSON, or the raw text
 * when the body was not JSON.
 */
export function messagesErrorFromChatError(body: unknown, status: number): MessagesErrorBodyOut {
  const parsed = chatErrorSchema.safeParse(body);
  const type = (parsed.success ? parsed.data.error.type : undefined) ?? errorTypeForStatus(status, 'anthropic');
  const message = (parsed.success ? parsed.data.error.message : undefined) ?? fallbackErrorMessage(body, status);
  return { type: 'error', error: { type, message } };
}
