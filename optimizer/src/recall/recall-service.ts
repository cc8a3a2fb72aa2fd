import type { RecallResponse } from '@gw/contracts';
import type { StashEntry } from '../stash/stash-entry.js';
import { chunkLines, type Chunk } from './chunk.js';
import type { Ranker } from './ranker.js';
import { tokenize } from './tokenize.js';

export const recallDefaultK = 5;
export const recallMaxK = 20;

export interface RecallSource {
  listForUser(owner: { tenant: string; user: string }, limit: number): Promise<StashEntry[]>;
}

export interface RecallOptions {
  /** Newest rows searched per query. */
  maxRows?: number;
  /** Characters searched per query; older rows beyond it are left out. */
  maxChars?: number;
  previewChars?: number;
}

type RecallMatch = RecallResponse['matches'][number];

/**
 * Recall: ranks only the requesting user's own durable rows, chunked so a match carries a
 * line range, one match per handle (its best chunk). Fails open: any problem answers no matches.
 */
export class RecallService {
  private readonly maxRows: number;
  private readonly maxChars: number;
  private readonly previewChars: number;

  constructor(
    private readonly source: RecallSource,
    private readonly ranker: Ranker,
    options: RecallOptions = {},
  ) {
    this.maxRows = options.maxRows ?? 200;
    this.maxChars = options.maxChars ?? 16 * 1024 * 1024;
    this.previewChars = options.previewChars ?? 300;
  }

  async recall(
    owner: { tenant: string; user: string } | null,
    query: string,
    k: number | undefined,
  ): Promise<RecallMatch[]> {
    const wanted = Math.min(Math.max(1, Math.trunc(k ?? recallDefaultK)), recallMaxK);
    if (!owner || query.trim() === '') return [];
    let entries: StashEntry[];
    try {
      entries = await this.source.listForUser(owner, this.maxRows);
    } catch {
      return [];
    }
    const chunks = new Map<string, { handle: string; chunk: Chunk }>();
    let budget = this.maxChars;
    for (const entry of entries) {
      if (budget <= 0) break;
      budget -= entry.totalChars;
      chunkLines(entry.content).forEach((chunk, index) =>
        chunks.set(`${entry.handle}#${index}`, { handle: entry.handle, chunk }),
      );
    }
    const ranked = this.ranker.rank(
      query,
      [...chunks].map(([id, { chunk }]) => ({ id, text: chunk.text })),
      chunks.size,
    );
    const matches: RecallMatch[] = [];
    const seen = new Set<string>();
    for (const { id, score } of ranked) {
      const hit = chunks.get(id);
      if (!hit || seen.has(hit.handle)) continue;
      seen.add(hit.handle);
      matches.push({
        handle: hit.handle,
        score: Math.round(score * 1000) / 1000,
        preview: this.preview(hit.chunk.text, query),
        startLine: hit.chunk.startLine,
        endLine: hit.chunk.endLine,
      });
      if (matches.length >= wanted) break;
    }
    return matches;
  }

  /** The chunk's line with the most query terms, with a line either side, cut to the preview length. */
  private preview(text: string, query: string): string {
    const terms = new Set(tokenize(query));
    const lines = text.split('\n');
    let best = 0;
    let bestHits = -1;
    lines.forEach((line, index) => {
      const hits = new Set(tokenize(line).filter((token) => terms.has(token))).size;
      if (hits > bestHits) {
        best = index;
        bestHits = hits;
      }
    });
    const excerpt = lines.slice(Math.max(0, best - 1), best + 2).join('\n');
    return excerpt.length > this.previewChars ? `${excerpt.slice(0, this.previewChars)}…` : excerpt;
  }
}
