/** One searchable unit: a chunk of one stashed span. */
export interface RankDocument {
  id: string;
  text: string;
}

export interface RankedDocument {
  id: string;
  score: number;
}

/**
 * Recall ranks through this seam: BM25 is the default because, measured on real tool outputs, it beat
 * the only small embedding model shipped inside an npm package. An alternative must be measured on the corpus first.
 */
export interface Ranker {
  readonly name: string;
  /** The best `k` documents for `query`, best first; documents scoring zero are left out. */
  rank(query: string, documents: readonly RankDocument[], k: number): RankedDocument[];
}
