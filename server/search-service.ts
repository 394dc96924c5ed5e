/**
 * What the search API needs from the index: one call per query. The implementation combines the
 * text index, the rank vectors and the blended ranking; the server only validates and serves.
 */

export const RANK_MODES = ['blend', 'text', 'global', 'local'] as const;
export type RankMode = (typeof RANK_MODES)[number];

export interface SearchRequest {
  q: string;
  page: number;
  size: number;
  rank: RankMode;
  explain: boolean;
}

export interface SearchHit {
  url: string;
  title: string;
  /** HTML: the passage, escaped, with matched terms in <mark>. */
  snippet: string;
  host: string;
  score: number;
  textScore: number;
  globalPageRank: number;
  localPageRank: number;
  explain?: Record<string, number | string>;
}

export interface SearchResponse {
  query: string;
  total: number;
  page: number;
  size: number;
  tookMs: number;
  hits: SearchHit[];
}

/** A query the user typed wrongly: answered with 400 and this message. */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

export interface SearchService {
  search(request: SearchRequest): Promise<SearchResponse>;
}
