import type { PipelineDeps, PipelineInput, PipelineResult } from '../src/pipeline/index.js';
import { countTokens, runPipeline } from '../src/pipeline/index.js';

/** Prompt-cache prices relative to the input price: reads 0.1x, writes 1.25x. */
const cacheRead = 0.1;
const cacheWrite = 1.25;

export interface Turn {
  readonly request: Record<string, unknown>;
  readonly result: PipelineResult;
}

/** Every prefix of the conversation that ends just before an assistant message, then the whole transcript. */
export function turnPrefixes(request: Record<string, unknown>): Record<string, unknown>[] {
  const messages = request.messages as { role: string }[];
  const prefixes: Record<string, unknown>[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && index > 0 && messages[index - 1]?.role !== 'assistant' && index > 1) {
      prefixes.push({ ...request, messages: messages.slice(0, index) });
    }
  });
  prefixes.push(request);
  return prefixes;
}

export async function replaySession(
  request: Record<string, unknown>,
  endpoint: string,
  deps: PipelineDeps,
  extra: Partial<PipelineInput> = {},
): Promise<Turn[]> {
  const turns: Turn[] = [];
  let pins: readonly unknown[] = [];
  for (const prefix of turnPrefixes(request)) {
    const result = await runPipeline({ endpoint, request: prefix, pins, capabilities: {}, ...extra }, deps);
    pins = result.pins ?? [];
    turns.push({ request: prefix, result });
  }
  return turns;
}

function messageTokens(message: unknown): number {
  return countTokens(JSON.stringify(message));
}

/** What a provider with a prefix cache bills for a sequence of prompts, in input-token units. */
export function cachedCost(prompts: readonly unknown[][]): number {
  let previous: string[] = [];
  let cost = 0;
  for (const messages of prompts) {
    const serialized = messages.map((message) => JSON.stringify(message));
    let shared = 0;
    while (shared < serialized.length && shared < previous.length && serialized[shared] === previous[shared])
      shared += 1;
    messages.forEach((message, index) => {
      cost += messageTokens(message) * (index < shared ? cacheRead : cacheWrite);
    });
    previous = serialized;
  }
  return cost;
}
