/**
 * The search engine: text candidates from the text index, ordered by the blended ranking (or by
 * text, global or local PageRank alone), with snippets. Rank vectors are swapped atomically when
 * an estimation round finishes; queries in flight keep the snapshot they started with.
 */
import type { TextIndex } from '../text-index/text-index.ts';
import { QuerySyntaxError } from '../text-index/errors.ts';
import { termWord } from '../text-index/expansion.ts';
import type { CrawlStore } from '../store/crawl-store.ts';
import { blendScore, rankScale, type BlendMode, type RankScale } from './blend.ts';

export const RANK_MODES = ['blend', 'text', 'global', 'local'] as const;
export type RankMode = (typeof RANK_MODES)[number];

/** What the search API needs: one call per query (user errors throw QuerySyntaxError). */
export interface SearchService {
  search(query: EngineQuery): Promise<EngineResult>;
}

export interface EngineQuery {
  q: string;
  page: number;
  size: number;
  rank: RankMode;
  explain: boolean;
  /** Analyse the query in this language (see SearchOptions.lang). */
  lang?: string;
}

export interface EngineHit {
  id: number;
  url: string;
  title: string;
  snippet: string;
  host: string;
  score: number;
  textScore: number;
  globalPageRank: number;
  localPageRank: number;
  /** The page's language (primary subtag, `und` when unknown). */
  lang?: string;
  /** The section the snippet comes from (nearest heading before the match), and `url#anchor` when it has an anchor. */
  sectionHeading?: string;
  sectionUrl?: string;
  explain?: Record<string, number | string>;
}

export interface EngineResult {
  query: string;
  /** The query as searched when a word was unknown and taken for a close one ("Showing results for …"). */
  correctedQuery?: string;
  total: number;
  page: number;
  size: number;
  tookMs: number;
  hits: EngineHit[];
}

/** Rank values per page id: the latest estimate and the local PageRank. */
export interface RankSnapshot {
  version: number;
  global: Map<number, number>;
  local: Map<number, number>;
  /** Scale of the global values (the blend's log scale). */
  globalScale: RankScale;
  localScale: RankScale;
}

export function rankSnapshot(version: number, ids: ArrayLike<number>, global: ArrayLike<number>, local: ArrayLike<number>): RankSnapshot {
  const g = new Map<number, number>();
  const l = new Map<number, number>();
  for (let i = 0; i < ids.length; i++) {
    g.set(ids[i], global[i]);
    l.set(ids[i], local[i]);
  }
  return { version, global: g, local: l, globalScale: rankScale(global), localScale: rankScale(local) };
}

/**
 * The ranks the search uses: for every page with a current local PageRank (`local-current`, else
 * the last round's `local`), its latest estimated global PageRank, or its local PageRank when no
 * round has covered it yet.
 */
export async function loadRankSnapshot(store: CrawlStore): Promise<RankSnapshot> {
  const local = (await store.latestRanks('local-current')) ?? (await store.latestRanks('local'));
  const estimate = await store.latestRanks('estimate');
  if (!local) return rankSnapshot(0, [], [], []);
  const estimated = new Map<number, number>();
  estimate?.ids.forEach((id, i) => estimated.set(id, estimate.values[i]));
  const global = Array.from(local.ids, (id, i) => estimated.get(id) ?? local.values[i]);
  return rankSnapshot(estimate?.version ?? 0, local.ids, global, local.values);
}

export interface SearchEngineOptions {
  blend: BlendMode;
  /** Weight of the link-based part, in [0, 1]. */
  weight: number;
  /** Text candidates re-ranked per query (default 500). */
  candidates?: number;
}

export class SearchEngine implements SearchService {
  private ranks: RankSnapshot;

  constructor(
    private readonly index: TextIndex,
    ranks: RankSnapshot,
    private readonly options: SearchEngineOptions,
  ) {
    this.ranks = ranks;
  }

  get rankVersion(): number {
    return this.ranks.version;
  }

  /** Switches to new rank vectors (one assignment: atomic for queries). */
  setRanks(ranks: RankSnapshot): void {
    this.ranks = ranks;
  }

  async search(query: EngineQuery): Promise<EngineResult> {
    const started = performance.now();
    const ranks = this.ranks;
    const wanted = query.page * query.size;
    const pool = Math.max(this.options.candidates ?? 500, wanted);
    if (wanted > pool || wanted > 1000) throw new QuerySyntaxError(`page ${query.page} is beyond the last page that can be shown`);
    const text = this.index.search(query.q, { offset: 0, limit: Math.min(pool, 1000), ...(query.lang !== undefined ? { lang: query.lang } : {}) });
    const best = text.hits.reduce((max, h) => Math.max(max, h.score), 0);
    const { blend, weight } = this.options;
    const scored = text.hits.map((hit) => {
      const global = ranks.global.get(hit.id) ?? 0;
      const local = ranks.local.get(hit.id) ?? 0;
      const parts = blendScore({ textScore: hit.score, bestTextScore: best, rank: global }, ranks.globalScale, blend, weight);
      const score = query.rank === 'blend' ? parts.score : query.rank === 'text' ? hit.score : query.rank === 'global' ? global : local;
      return { hit, global, local, parts, score };
    });
    // Ties keep the text order (sort is stable).
    if (query.rank !== 'text') scored.sort((a, b) => b.score - a.score);
    const slice = scored.slice((query.page - 1) * query.size, wanted);
    const passages = await this.index.passages(slice.map((s) => s.hit));
    const hits: EngineHit[] = slice.map(({ hit, global, local, parts, score }) => {
      const passage = passages.get(hit.id);
      const doc = passage?.document;
      const result: EngineHit = {
        id: hit.id,
        url: doc?.url ?? '',
        title: doc?.title || doc?.url || '',
        snippet: passage?.snippet ?? '',
        host: doc?.host ?? '',
        score,
        textScore: hit.score,
        globalPageRank: global,
        localPageRank: local,
        lang: hit.lang,
      };
      if (passage?.sectionHeading !== undefined) result.sectionHeading = passage.sectionHeading;
      if (passage?.sectionAnchor !== undefined && doc) result.sectionUrl = `${doc.url.split('#')[0]}#${encodeURIComponent(passage.sectionAnchor)}`;
      if (query.explain) {
        result.explain = {
          rank: query.rank,
          blend,
          weight,
          textScore: hit.score,
          textNormalised: parts.text,
          linkPart: parts.link,
          globalPageRank: global,
          localPageRank: local,
          rankVersion: ranks.version,
          matchedTerms: hit.matchedTerms.join(' '),
        };
      }
      return result;
    });
    const result: EngineResult = { query: query.q, total: text.total, page: query.page, size: query.size, tookMs: Math.round((performance.now() - started) * 100) / 100, hits };
    const corrected = correctedQuery(query.q, text.corrections, [...passages.values()]);
    if (corrected !== undefined) result.correctedQuery = corrected;
    return result;
  }
}

/** The query with each unknown word replaced by the word its correction matched, as a page writes it. */
function correctedQuery(q: string, corrections: ReadonlyArray<{ typed: string; term: string }>, passages: ReadonlyArray<{ words: Record<string, string> }>): string | undefined {
  if (corrections.length === 0) return undefined;
  let corrected = q;
  for (const { typed, term } of corrections) {
    const written = passages.find((p) => p.words[term] !== undefined)?.words[term] ?? termWord(term);
    const at = corrected.toLowerCase().indexOf(typed);
    if (at >= 0) corrected = corrected.slice(0, at) + written.toLowerCase() + corrected.slice(at + typed.length);
  }
  return corrected === q ? undefined : corrected;
}
