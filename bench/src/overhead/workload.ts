/** The requests every target is sent: the same bytes, so only the proxy in the middle differs. */

export const CHAT_PATH = '/v1/chat/completions';
/** Load phases: the simulator answers at once and writes a whole stream in one go, so the proxy is the cost. */
export const LOAD_MODEL = 'gpt-4o-mini';
/** One-at-a-time phase: stream events spaced out, so time to first byte differs from total time. */
export const PACED_MODEL = 'gpt-4o';
export const PACED_EVENT_DELAY_MS = 3;
export const PACED_REPLY = 'Paced reply, four words.';

const PROMPT = 'Measure the gateway overhead against a bare proxy, please.';

export function chatBody(model: string, stream: boolean): string {
  return JSON.stringify({ model, messages: [{ role: 'user', content: PROMPT }], ...(stream ? { stream: true } : {}) });
}
