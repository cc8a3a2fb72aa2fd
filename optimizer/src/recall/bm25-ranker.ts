import type { RankDocument, RankedDocument, Ranker } from './ranker.js';
import { tokenize } from './tokenize.js';

export interface Bm25Options {
  k1?: number;
  b?: number;
}

/** Okapi BM25 over `tokenize`'s subword tokens, scored over the documents of one query (one user's stash). */
export class Bm25Ranker implements Ranker {
  readonly name = 'bm25';
  private readonly k1: number;
  private readonly b: number;

  constructor(options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
  }

  rank(query: string, documents: readonly RankDocument[], k: number): RankedDocument[] {
    const queryTerms = [...new Set(tokenize(query))];
    if (queryTerms.length === 0 || documents.length === 0 || k <= 0) return [];
    const wanted = new Set(queryTerms);
    const termCounts = documents.map((document) => countTerms(tokenize(document.text), wanted));
    const lengths = termCounts.map((counts) => Math.max(1, counts.length));
    const averageLength = lengths.reduce((sum, length) => sum + length, 0) / documents.length || 1;
    const documentFrequency = new Map<string, number>();
    for (const counts of termCounts)
      for (const term of counts.terms.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    const scored: RankedDocument[] = [];
    documents.forEach((document, index) => {
      const counts = termCounts[index];
      const length = lengths[index];
      let score = 0;
      for (const term of queryTerms) {
        const frequency = counts.terms.get(term);
        if (!frequency) continue;
        const df = documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
        score +=
          (idf * frequency * (this.k1 + 1)) / (frequency + this.k1 * (1 - this.b + (this.b * length) / averageLength));
      }
      if (score > 0) scored.push({ id: document.id, score });
    });
    // Ties break by id so the same stash answers the same way every time.
    scored.sort((left, right) => right.score - left.score || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
    return scored.slice(0, k);
  }
}

interface TermCounts {
  terms: Map<string, number>;
  length: number;
}

function countTerms(tokens: readonly string[], wanted: ReadonlySet<string>): TermCounts {
  const terms = new Map<string, number>();
  for (const token of tokens) if (wanted.has(token)) terms.set(token, (terms.get(token) ?? 0) + 1);
  return { terms, length: tokens.length };
}
