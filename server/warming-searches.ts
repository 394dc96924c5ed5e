/**
 * Searches run by `lse serve` before it listens, as Solr's first-searcher queries are: the first
 * answers after a start otherwise pay for code not yet compiled and for the lists, passages and
 * page facts each search reads first. The site's own most asked queries come first (what visitors
 * will ask again); queries made of the index's most frequent words follow, so that a site without
 * analytics warms too. Nothing is recorded: these searches go to the engine, not through the route.
 */
import type { EngineQuery, EngineResult } from '../indexer/ranking/search-engine.ts';
import { nextTurn } from '../indexer/stepwise.ts';
import type { TextIndex } from '../indexer/text-index/text-index.ts';
import type { SearchAnalytics } from './search-admin/analytics.ts';

/** At most this many warming searches, whatever time is left. */
export const MAX_WARMING_SEARCHES = 200;
/** The popular queries are those of the last this many days. */
const POPULAR_DAYS = 30;
/** Frequent words the queries are made of, at most. */
export const FREQUENT_TERMS = 400;

/**
 * The first this many warming queries are also run on a copy of the index with deletions, in at
 * most a quarter of the searches' time (at a million pages, 4 take about 0.25 s, which also reads
 * their lists for the searches after them).
 */
export const REHEARSED_SEARCHES = 4;

export interface WarmingSources {
  search(query: EngineQuery): Promise<EngineResult>;
  analytics: Pick<SearchAnalytics, 'popularQueries'>;
  index: Pick<TextIndex, 'frequentTerms' | 'rehearseDeletions'>;
}

/**
 * Warms with the site's popular queries, then the frequent words' queries, until `deadline` (a
 * `performance.now()` time). The first few run on a copy of the index whose segments have deleted
 * pages first (text-index `rehearseDeletions`), as every index has after its first update.
 */
export async function warmWithSearches({ search, analytics, index }: WarmingSources, deadline: number): Promise<SearchesWarmed> {
  const queries = warmingQueries(analytics.popularQueries(POPULAR_DAYS, MAX_WARMING_SEARCHES), index.frequentTerms(FREQUENT_TERMS));
  const now = performance.now();
  await index.rehearseDeletions(queries.slice(0, REHEARSED_SEARCHES), now + (deadline - now) / 4);
  return runWarmingSearches(search, queries, deadline);
}

/**
 * Queries of two or three of the given terms (most frequent first): each of the first terms with
 * terms further down the list, as visitors' queries mix a common word with rarer ones.
 */
export function frequentWordQueries(terms: readonly string[], count: number): string[] {
  const n = terms.length;
  if (n === 0) return [];
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const words = new Set([terms[i % n], terms[(i * 7 + 1) % n]]);
    if (i % 3 === 2) words.add(terms[(i * 13 + 2) % n]);
    queries.push([...words].join(' '));
  }
  return [...new Set(queries)];
}

/** The popular queries, then the frequent words' queries, without repeats, at most {@link MAX_WARMING_SEARCHES}. */
export function warmingQueries(popular: readonly string[], frequentTerms: readonly string[]): string[] {
  const queries = new Set(popular.slice(0, MAX_WARMING_SEARCHES));
  for (const query of frequentWordQueries(frequentTerms, MAX_WARMING_SEARCHES - queries.size)) queries.add(query);
  return [...queries];
}

export interface SearchesWarmed {
  searches: number;
  /** Queries the engine refused (a query stored before a setting changed, say): skipped. */
  refused: number;
}

/**
 * Searches each query as a visitor's default request would (first page, ten hits, the blend),
 * a turn of the event loop between two, until `deadline` (a `performance.now()` time).
 */
export async function runWarmingSearches(search: (query: EngineQuery) => Promise<EngineResult>, queries: readonly string[], deadline: number): Promise<SearchesWarmed> {
  const warmed: SearchesWarmed = { searches: 0, refused: 0 };
  for (const q of queries) {
    if (performance.now() >= deadline) break;
    try {
      await search({ q, page: 1, size: 10, rank: 'blend', sort: 'relevance', explain: false, visitorLanguages: [] });
      warmed.searches++;
    } catch {
      warmed.refused++;
    }
    await nextTurn();
  }
  return warmed;
}
