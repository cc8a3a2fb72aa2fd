import { splitLines } from '../stash/lines.js';

export interface Chunk {
  startLine: number;
  endLine: number;
  text: string;
}

/**
 * Long stashes are indexed in chunks so a match carries a line range: runs of at most
 * `maxLines` lines or `maxChars` characters, whichever comes first; a single longer line is its own chunk.
 */
export function chunkLines(content: string, maxLines = 40, maxChars = 4_000): Chunk[] {
  const lines = splitLines(content);
  const chunks: Chunk[] = [];
  let start = 0;
  let chars = 0;
  for (let index = 0; index < lines.length; index += 1) {
    const length = lines[index].length + 1;
    if (index > start && (index - start >= maxLines || chars + length > maxChars)) {
      chunks.push({ startLine: start + 1, endLine: index, text: lines.slice(start, index).join('\n') });
      start = index;
      chars = 0;
    }
    chars += length;
  }
  if (start < lines.length)
    chunks.push({ startLine: start + 1, endLine: lines.length, text: lines.slice(start).join('\n') });
  return chunks;
}
