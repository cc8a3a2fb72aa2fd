import type { ConversationSummary, Reply } from '../core/reply.js';
import { splitIntoDeltas } from '../core/reply.js';
import { DONE_EVENT } from './chat-completions.js';

type Json = Record<string, unknown>;

// The legacy Completions API defaults `max_tokens` to 16, so long replies finish with "length" like the real one.
const DEFAULT_MAX_TOKENS = 16;

export function summarizeCompletionRequest(body: Json, model: string): ConversationSummary {
  const prompts = Array.isArray(body.prompt) ? body.prompt : [body.prompt];
  const first: unknown = prompts[0];
  const text = typeof first === 'string' ? first : '';
  let promptChars = 0;
  for (const prompt of prompts) promptChars += typeof prompt === 'string' ? prompt.length : 0;
  return {
    model,
    messageCount: 1,
    lastUserText: text,
    promptChars,
    tools: [],
    toolChoice: { kind: 'none' },
    maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : DEFAULT_MAX_TOKENS,
    thinking: false,
  };
}

function completionUsage(reply: Reply): Json {
  const { inputTokens, outputTokens } = reply.usage;
  return { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
}

function finishReason(reply: Reply): string {
  return reply.finishReason === 'tool_calls' ? 'stop' : reply.finishReason;
}

export function completionJson(reply: Reply, id: string, created: number): string {
  return JSON.stringify({
    id,
    object: 'text_completion',
    created,
    model: reply.model,
    choices: [{ text: reply.text, index: 0, logprobs: null, finish_reason: finishReason(reply) }],
    usage: completionUsage(reply),
  });
}

export function completionEvents(reply: Reply, id: string, created: number, includeUsage: boolean): string[] {
  const head = `data: {"id":${JSON.stringify(id)},"object":"text_completion","created":${created},"choices":[`;
  const tail = `],"model":${JSON.stringify(reply.model)}${includeUsage ? ',"usage":null' : ''}}\n\n`;
  const chunk = (text: string, reason: string): string =>
    `${head}{"text":${JSON.stringify(text)},"index":0,"logprobs":null,"finish_reason":${reason}}${tail}`;
  const events = splitIntoDeltas(reply.text).map((piece) => chunk(piece, 'null'));
  events.push(chunk('', JSON.stringify(finishReason(reply))));
  if (includeUsage)
    events.push(
      `${head}],"model":${JSON.stringify(reply.model)},"usage":${JSON.stringify(completionUsage(reply))}}\n\n`,
    );
  events.push(DONE_EVENT);
  return events;
}
