import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PipelineStash } from '../types.js';

const strategyFixtures = join(import.meta.dirname, '..', '..', 'strategies', '__fixtures__');

/** Real tool outputs (corpus excerpts) shared with the strategy goldens. */
export function output(name: string): string {
  return readFileSync(join(strategyFixtures, name), 'utf8');
}

export const retrieveTool = {
  type: 'function',
  function: {
    name: 'gw_retrieve',
    description: 'Retrieve original content that the gateway elided.',
    parameters: {
      type: 'object',
      properties: {
        handle: { type: 'string' },
        startLine: { type: 'number' },
        endLine: { type: 'number' },
        grep: { type: 'string' },
      },
      required: ['handle'],
    },
  },
};

export const bashTool = {
  type: 'function',
  function: { name: 'bash', description: 'Run a command.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
};

export interface ChatOptions {
  readonly retrieve?: boolean;
  readonly tools?: boolean;
  readonly model?: string;
  readonly toolChoice?: unknown;
  /** End with a user question (all outputs settled) instead of the last tool result. */
  readonly question?: string;
}

/**
 * A chat-completions agent session: a system prompt, a task, then one bash call and its output per entry of
 * `outputs`. Without `question` the last output is the fresh turn; with it the assistant answered and the user
 * asks something new, so every output is settled.
 */
export function chatSession(outputs: readonly string[], options: ChatOptions = {}): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [
    { role: 'system', content: 'You are a coding agent working in /home/dev/src/project.' },
    { role: 'user', content: 'The test suite fails; find out why.' },
  ];
  outputs.forEach((text, index) => {
    const id = `call_${String(index + 1).padStart(3, '0')}`;
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: `{"command":"step ${index + 1}"}` } }] });
    messages.push({ role: 'tool', tool_call_id: id, content: text });
  });
  if (options.question) {
    messages.push({ role: 'assistant', content: 'I have the output; summarising before the next step.' });
    messages.push({ role: 'user', content: options.question });
  }
  const tools = options.tools === false ? [] : options.retrieve === false ? [bashTool] : [bashTool, retrieveTool];
  return {
    model: options.model ?? 'gpt-4.1',
    messages,
    ...(tools.length > 0 ? { tools } : {}),
    ...(options.toolChoice === undefined ? {} : { tool_choice: options.toolChoice }),
    temperature: 0.2,
    max_completion_tokens: 4096,
    stream: false,
  };
}

const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
/** 150 lines that share no shape (nothing folds): eliding the middle saves a little under three quarters. */
export const plainLog = (() => {
  let seed = 7;
  const pick = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return words[seed % words.length];
  };
  return Array.from({ length: 150 }, () => `${pick()} ${pick()} ${pick()} ${pick()} ${pick()} resolved ${pick()}`).join('\n');
})();

/** A stash that answers like the real one in tests: deterministic handles, optionally refusing every write. */
export class FakeStash implements PipelineStash {
  readonly stored = new Map<string, string>();
  readonly refreshed: string[] = [];
  puts = 0;

  constructor(private readonly accept = true) {}

  async put(content: string): Promise<string | null> {
    this.puts += 1;
    if (!this.accept) return null;
    const handle = `ctx_${String(this.puts).padStart(24, '0')}`;
    this.stored.set(handle, content);
    return handle;
  }

  async refresh(handle: string): Promise<void> {
    this.refreshed.push(handle);
  }
}

export const hmacKey = 'pipeline-test-hmac-key';

export function messagesOf(request: Record<string, unknown>): Record<string, unknown>[] {
  return request.messages as Record<string, unknown>[];
}

export function handlesIn(request: Record<string, unknown>): string[] {
  return JSON.stringify(request).match(/ctx_[A-Za-z0-9_-]{24,}/g) ?? [];
}
