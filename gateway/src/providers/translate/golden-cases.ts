import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSse, serializeSseFrames, SseParser, type SseFrame } from './sse.js';
import type { StreamTranslator } from './translator.js';

/**
 * Golden-file cases under `__fixtures__/<direction>/`: `<kind>-<name>.input.{json,sse}` with
 * `.expected.{json,sse}`, plus optional `.usage.json` (normalised usage the translator must report),
 * `.context.json` (translation context for response/stream cases) and `.options.json` (request options).
 * Test support only; the translators never read files.
 */
export type GoldenKind = 'request' | 'response' | 'stream' | 'error';

export interface GoldenCase {
  readonly name: string;
  readonly kind: GoldenKind;
  /** The case file with this suffix (`input.json`, `expected.sse`…), or undefined when absent. */
  text(suffix: string): string | undefined;
  json(suffix: string): unknown;
}

const fixturesRoot = join(import.meta.dirname, '__fixtures__');

export function loadGoldenCases(direction: string): GoldenCase[] {
  const folder = join(fixturesRoot, direction);
  const names = readdirSync(folder)
    .map((file) => /^(.+)\.input\.(?:json|sse)$/.exec(file)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();
  return names.map((name) => {
    const text = (suffix: string): string | undefined => {
      const path = join(folder, `${name}.${suffix}`);
      return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    };
    return {
      name,
      kind: kindOf(name),
      text,
      json: (suffix: string) => {
        const content = text(suffix);
        return content === undefined ? undefined : (JSON.parse(content) as unknown);
      },
    };
  });
}

function kindOf(name: string): GoldenKind {
  const kind = name.split('-')[0];
  if (kind === 'request' || kind === 'response' || kind === 'stream' || kind === 'error') return kind;
  throw new Error(`Fixture "${name}" must start with request-, response-, stream- or error-.`);
}

/** Runs a whole recorded stream through a translator, the way the proxy does. */
export function runStream(translator: StreamTranslator, frames: readonly SseFrame[]): string {
  const out: SseFrame[] = [];
  for (const frame of frames) out.push(...translator.push(frame));
  out.push(...translator.end());
  return serializeSseFrames(out);
}

export function runRecordedStream(translator: StreamTranslator, recorded: string): string {
  return runStream(translator, parseSse(recorded));
}

/** The same, with the recorded bytes delivered in chunks cut at the given offsets, as a socket does. */
export function runRecordedStreamInChunks(
  translator: StreamTranslator,
  recorded: string,
  cuts: readonly number[],
): string {
  const bytes = new TextEncoder().encode(recorded);
  const parser = new SseParser();
  const frames: SseFrame[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    frames.push(...parser.push(bytes.subarray(start, cut)));
    start = cut;
  }
  frames.push(...parser.push(bytes.subarray(start)), ...parser.end());
  return runStream(translator, frames);
}

/** JSON round trip: what reaches the wire (drops undefined, fixes key order by insertion). */
export function wire(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}
