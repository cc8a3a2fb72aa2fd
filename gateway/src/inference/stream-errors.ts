import { serializeSseFrame } from '../providers/translate/sse.js';

/**
 * An error inside a stream, as each client SDK recognises it: the OpenAI SDK raises on a `data:` object with an
 * `error` member; the Anthropic SDK on an `event: error` frame.
 */
export function streamErrorFrame(clientFormat: 'chat-completions' | 'messages', code: string, message: string): string {
  if (clientFormat === 'messages') {
    return serializeSseFrame({
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'api_error', message } }),
    });
  }
  return serializeSseFrame({ data: JSON.stringify({ error: { message, type: 'server_error', code } }) });
}
