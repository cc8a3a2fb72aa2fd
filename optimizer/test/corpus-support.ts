import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PipelineStash } from '../src/pipeline/index.js';

export const corpusDir = '/work/shared/corpus';

export interface CorpusCase {
  readonly name: string;
  readonly request: Record<string, unknown>;
  readonly needles: readonly { needle: string; where: number; kind?: string }[];
  readonly format: 'openai' | 'anthropic';
}

export function loadTranscripts(): CorpusCase[] {
  const dir = join(corpusDir, 'transcripts');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const request = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
      const needles = JSON.parse(readFileSync(join(corpusDir, 'needles', file), 'utf8')) as CorpusCase['needles'];
      return {
        name: file.replace(/\.json$/, ''),
        request,
        needles,
        format: 'system' in request ? 'anthropic' : 'openai',
      };
    });
}

/** A message's text as the corpus README defines it (validate.mjs): strings, text blocks, tool results, tool inputs. */
function blockText(block: Record<string, unknown>): string[] {
  if (block.type === 'text') return [block.text as string];
  if (block.type === 'tool_use') return [JSON.stringify(block.input)];
  if (block.type !== 'tool_result') return [];
  if (typeof block.content === 'string') return [block.content];
  return Array.isArray(block.content) ? (block.content as { text?: string }[]).map((inner) => inner.text ?? '') : [];
}

/** A message's text as the corpus README defines it (validate.mjs): strings, text blocks, tool results, tool inputs. */
export function messageText(message: unknown): string {
  const m = message as { content?: unknown; tool_calls?: { function: { arguments: string } }[] };
  const parts: string[] = [];
  if (typeof m.content === 'string') parts.push(m.content);
  else if (Array.isArray(m.content))
    for (const block of m.content as Record<string, unknown>[]) parts.push(...blockText(block));
  for (const call of m.tool_calls ?? []) parts.push(call.function.arguments);
  return parts.join('\n');
}

export function requestTexts(request: Record<string, unknown>): string[] {
  const texts = (request.messages as unknown[]).map(messageText);
  if (typeof request.system === 'string') texts.push(request.system);
  return texts;
}

/** An in-memory stash with deterministic handles, like a fake clock: same calls, same handles. */
export class MemoryStash implements PipelineStash {
  readonly entries = new Map<string, string>();
  private next = 0;

  constructor(private readonly failing = false) {}

  async put(content: string): Promise<string | null> {
    if (this.failing) return null;
    this.next += 1;
    const handle = `ctx_${String(this.next).padStart(24, '0')}`;
    this.entries.set(handle, content);
    return handle;
  }
}

const handlePattern = /ctx_[A-Za-z0-9_-]{24,}/g;

/** A needle survives when it is verbatim in the output or inside a stashed original whose handle the output carries. */
export function needleSurvives(needle: string, outputTexts: readonly string[], stash: MemoryStash): boolean {
  if (outputTexts.some((text) => text.includes(needle))) return true;
  for (const text of outputTexts) {
    for (const handle of text.match(handlePattern) ?? []) {
      if (stash.entries.get(handle)?.includes(needle)) return true;
    }
  }
  return false;
}
