/**
 * The search engine: text candidates from the text index, ordered by the blended ranking (or by
 * text, global or local PageRank alone), with snippets. Rank vectors are swapped atomically when
 * an estimation round finishes; queries in flight keep the snapshot they started with.
 */
import type { TextIndex } from '../text-index/text-index.ts';
import type { CompactSegment } from '../text-index/compact-segment.ts';
import { QuerySyntaxError } from '../text-index/errors.ts';
import { MatchCollector, type SegmentMatches } from '../text-index/match-collector.ts';
import { QueryBudget, type QueryNotice } from '../text-index/query-budget.ts';
import type { SearchHit, StaticPrior } from '../text-index/scorer.ts';
import { termWord } from '../text-index/expansion.ts';
import { checkLanguage } from '../text-index/languages.ts';
import type { CrawlStore } from '../store/crawl-store.ts';
import { RankColumn } from './rank-column.ts';
import { blendScore, rankScaleSteps, type BlendMode, type BlendParts, type RankScale } from './blend.ts';
import { compileFilters, countResults, countSegmentResults, facetTupleColumn, hasFilters, rowPasses, type FacetCounts, type TupleColumn } from './facets.ts';
import type { SegmentColumn } from './segment-columns.ts';
import { GroupTable, groupCandidates, preferVisitorLanguages, showGroup, type GroupRank, type HitGroup } from './hit-groups.ts';
import { languageOfSitePage, PageFacts } from './page-facts.ts';
import { queryLanguages, writtenLanguage } from './query-language.ts';
import { blendPrior, type PreparedPrior } from './static-prior.ts';
import { firstPool, poolSuffices } from './candidate-pool.ts';
import { SuggestIndex, type Suggestion } from '../suggest/suggest-index.ts';
import { bestBetUrls, EMPTY_SEARCH_SETTINGS, synonymVariants, type SearchSettings } from './search-settings.ts';
import { nextTurn, runSteps, runStepsYielding } from '../stepwise.ts';

export const RANK_MODES = ['blend', 'text', 'global', 'local'] as const;
export type RankMode = (typeof RANK_MODES)[number];

/** What the search API needs: one call per query (user errors throw QuerySyntaxError). */
export interface SearchService {
  search(query: EngineQuery): Promise<EngineResult>;
  /** Suggestions as the visitor types (absent: /api/suggest answers none). */
  suggest?(typed: string, limit?: number): Suggestion[];
  /** The language of one of the site's pages (the page a visitor searched from), when known. */
  languageOfPage?(url: string): string | undefined;
}

export const SORT_ORDERS = ['relevance', 'date'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export interface EngineQuery {
  q: string;
  page: number;
  size: number;
  rank: RankMode;
  explain: boolean;
  /**
   * Filters: values of one dimension OR, dimensions AND. A `lang` value must be a language the
   * analysis knows (else UnknownLanguageError, a 400 with the list); every page is matched through
   * its own language's analysis, so the other languages' facet counts stay right.
   */
  lang?: string[];
  host?: string[];
  section?: string[];
  type?: string[];
  /** `date`: newest first (pages without a date last); default by rank. */
  sort?: SortOrder;
  /** The visitor's languages (Accept-Language), most wanted first: which translation to show. */
  visitorLanguages?: string[];
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
  type?: string;
  section?: string;
  /** ISO 8601: the sitemap's lastmod, else the response's Last-Modified. */
  lastModified?: string;
  /** Other copies of the page in the same language (duplicates, canonical links). */
  duplicates?: string[];
  /** The page in other languages. */
  alternates?: Array<{ url: string; lang: string }>;
  /** Pinned to this query by the admin (a best bet). */
  recommended?: true;
  /** The section the snippet comes from (nearest heading before the match), and `url#anchor` when it has an anchor. */
  sectionHeading?: string;
  sectionUrl?: string;
  explain?: Record<string, number | string>;
}

export interface EngineResult {
  query: string;
  /** The query as searched when a word was unknown and taken for a close one ("Showing results for …"). */
  correctedQuery?: string;
  /** Pages matching (copies and translations of one page count once). */
  total: number;
  page: number;
  size: number;
  tookMs: number;
  hits: EngineHit[];
  /** Per filter dimension, value → results (as `total` counts them), each dimension ignoring its own filter. */
  facets: FacetCounts;
  /** What the search changed or left out of the query, with a code each (query-budget.ts); absent when nothing. */
  notices?: QueryNotice[];
  /** True when a limit of the query's work budget was reached: some matching pages may be missing. */
  partial?: true;
  /**
   * Present when no page had every word, so pages with some of them are shown: the words (lower
   * case, as typed) that no page has — "No page has kubernetes; showing results for ets". Empty
   * when every word is on some page but none has them all.
   */
  unmatchedTerms?: string[];
}

/** Rank values per page id: the latest estimate and the local PageRank. */
export interface RankSnapshot {
  version: number;
  global: RankColumn;
  local: RankColumn;
  /** Scale of the global values (the blend's log scale). */
  globalScale: RankScale;
  localScale: RankScale;
}

export function rankSnapshot(version: number, ids: ArrayLike<number>, global: ArrayLike<number>, local: ArrayLike<number>): RankSnapshot {
  return runSteps(rankSnapshotSteps(version, ids, global, local));
}

/** {@link rankSnapshot} in steps of one column or scale each (tens of ms at a million pages). */
function* rankSnapshotSteps(version: number, ids: ArrayLike<number>, global: ArrayLike<number>, local: ArrayLike<number>): Generator<void, RankSnapshot> {
  const globalColumn = yield* RankColumn.steps(ids, global);
  yield;
  const localColumn = yield* RankColumn.steps(ids, local);
  yield;
  const globalScale = yield* rankScaleSteps(global);
  const localScale = yield* rankScaleSteps(local);
  return { version, global: globalColumn, local: localColumn, globalScale, localScale };
}

/** Ranks merged between two turns of the event loop. */
const RANKS_PER_STEP = 1 << 17;

/**
 * The ranks the search uses: for every page with a current local PageRank (`local-current`, else
 * the last round's `local`), its latest estimated global PageRank, or its local PageRank when no
 * round has covered it yet.
 */
export async function loadRankSnapshot(store: CrawlStore): Promise<RankSnapshot> {
  const local = (await store.latestRanks('local-current')) ?? (await store.latestRanks('local'));
  const estimate = await store.latestRanks('estimate');
  if (!local) return rankSnapshot(0, [], [], []);
  // In steps: a server loads the ranks again after each update (a million ranks at once held its
  // event loop 40 ms and more).
  const estimated = await runStepsYielding(RankColumn.steps(estimate?.ids ?? [], estimate?.values ?? []));
  const global = new Float64Array(local.ids.length);
  for (let start = 0; start < global.length; start += RANKS_PER_STEP) {
    const end = Math.min(global.length, start + RANKS_PER_STEP);
    for (let i = start; i < end; i++) global[i] = estimated.get(local.ids[i]) ?? local.values[i];
    await nextTurn();
  }
  return runStepsYielding(rankSnapshotSteps(estimate?.version ?? 0, local.ids, global, local.values));
}

export interface SearchEngineOptions {
  blend: BlendMode;
  /** Weight of the link-based part, in [0, 1]. */
  weight: number;
  /** Text candidates re-ranked per query (default 500). */
  candidates?: number;
  /**
   * A match in none of the visitor's languages (nor copied into one) is ordered as if its score
   * were this share of it (default 0.5): the visitor's language first among equal matches.
   */
  otherLanguageWeight?: number;
  /** How copies and translations share their link-based rank (default `sum`). */
  groupRank?: GroupRank;
  /**
   * With the `prior` blend, the text index returns the best pages by the blend itself, pruning
   * with the prior as a static rank (default true); false takes the best by text score, then blends.
   */
  staticPrior?: boolean;
}

const DEFAULT_OTHER_LANGUAGE_WEIGHT = 0.5;

/** Every match of a query: page ids, and by segment and ordinal when no page matched twice. */
interface Matched {
  ids(): Int32Array;
  segments?(): readonly SegmentMatches[];
}

/** A text match with its rank values and score. */
interface Candidate {
  id: number;
  hit: SearchHit;
  global: number;
  local: number;
  parts: BlendParts;
  score: number;
  recommended?: true;
}

const NO_PARTS: BlendParts = { text: 0, link: 0, score: 0 };

export class SearchEngine implements SearchService {
  private ranks: RankSnapshot;
  private facts = PageFacts.empty();
  /** Groups of copies and translations for the current facts and ranks (rebuilt when either changes). */
  private groups: GroupTable;
  private settings: SearchSettings = EMPTY_SEARCH_SETTINGS;
  /** Pages the admin removed from results, by URL (a URL the crawl finds later is kept out too). */
  private removedUrls: readonly string[] = [];
  private suggestions = SuggestIndex.empty();
  /** The static prior of the current group table. */
  private readonly priors = new WeakMap<GroupTable, PreparedPrior>();
  /** Each segment's facet combinations in the current page facts. */
  private readonly tupleColumns = new WeakMap<PageFacts, SegmentColumn<TupleColumn>>();

  constructor(
    private readonly index: TextIndex,
    ranks: RankSnapshot,
    private readonly options: SearchEngineOptions,
  ) {
    this.ranks = ranks;
    this.groups = this.groupTable();
    index.addWarmer((segments) => this.prepare(segments));
  }

  private groupTable(): GroupTable {
    return runSteps(this.groupTableSteps(this.facts, this.ranks));
  }

  private groupTableSteps(facts: PageFacts, { local, global }: RankSnapshot): Generator<void, GroupTable> {
    return GroupTable.steps(facts, (id) => local.get(id) ?? 0, (id) => global.get(id) ?? 0, this.options.groupRank);
  }

  get rankVersion(): number {
    return this.ranks.version;
  }

  get pageFacts(): PageFacts {
    return this.facts;
  }

  get currentRanks(): RankSnapshot {
    return this.ranks;
  }

  setSuggestions(suggestions: SuggestIndex): void {
    this.suggestions = suggestions;
  }

  /** Completions of what the visitor has typed (words as written, titles of pages not removed from results). */
  suggest(typed: string, limit = 8): Suggestion[] {
    const removed = this.removedUrls;
    if (removed.length === 0) return this.suggestions.suggest(typed, limit);
    // Asked for as many more as could be removed (at most 50: a few removals are the rule).
    const more = this.suggestions.suggest(typed, limit + Math.min(removed.length, 50));
    return more.filter((s) => s.url === undefined || !removed.includes(s.url)).slice(0, limit);
  }

  /** Switches to new rank vectors (one assignment: atomic for queries). */
  setRanks(ranks: RankSnapshot): void {
    this.ranks = ranks;
    this.groups = this.groupTable();
  }

  /**
   * {@link setRanks} with the group table made in steps, searches answered between them (a
   * million pages at every update).
   */
  changeRanks(ranks: RankSnapshot): Promise<void> {
    return this.switchInSteps({ ranks });
  }

  /** {@link setFacts} with the group table made in steps (see {@link changeRanks}). */
  changeFacts(facts: PageFacts): Promise<void> {
    return this.switchInSteps({ facts });
  }

  private async switchInSteps(change: { facts?: PageFacts; ranks?: RankSnapshot }): Promise<void> {
    const facts = change.facts ?? this.facts;
    const ranks = change.ranks ?? this.ranks;
    const table = await runStepsYielding(this.groupTableSteps(facts, ranks));
    // The new table's prior and facet columns are made before it is switched in, for every segment
    // a search may then see: a search after the switch would otherwise make a segment's at once
    // (90 ms at 90k pages; 62 ms of CPU in one answer beside an update at a million pages). That
    // is the current segments and those a commit is about to swap in (its warmers ran with the
    // tables before), again until a check finds none left: a merge may swap one in meanwhile.
    const tables = { table, facts, ranks };
    for (;;) {
      const missing = [...this.index.currentSegments(), ...this.index.incomingSegments()].filter((segment) => !this.isPrepared(segment, tables));
      if (missing.length === 0) break;
      await this.prepare(missing, tables);
    }
    // Should the other half have changed meanwhile, the table is made again with it, at once.
    this.facts = change.facts ?? this.facts;
    this.ranks = change.ranks ?? this.ranks;
    this.groups = this.facts === facts && this.ranks === ranks ? table : this.groupTable();
    await this.prepare();
  }

  /**
   * Computes the static prior and facet combinations of each segment (all current ones, or new
   * ones before they are visible) now, in steps, rather than in the next search; for the current
   * tables, or for tables about to be switched in.
   */
  async prepare(segments: readonly CompactSegment[] = this.index.currentSegments(), tables = { table: this.groups, facts: this.facts, ranks: this.ranks }): Promise<void> {
    mainLanguage(tables.facts);
    const prior = this.staticPrior(tables.table, tables.ranks);
    const tuples = this.facetTuples(tables.facts);
    for (const segment of segments) {
      await prior?.prepare(segment);
      await tuples.prepare(segment);
    }
  }

  /** Current segments whose prior or facet columns a search would make at once (none once prepared): for tests and diagnostics. */
  unpreparedSegments(): number {
    const tables = { table: this.groups, facts: this.facts, ranks: this.ranks };
    return this.index.currentSegments().filter((segment) => !this.isPrepared(segment, tables)).length;
  }

  /** Whether a segment's prior and facet columns for these tables are made. */
  private isPrepared(segment: CompactSegment, tables: { table: GroupTable; facts: PageFacts; ranks: RankSnapshot }): boolean {
    const prior = this.staticPrior(tables.table, tables.ranks);
    return (prior === undefined || prior.has(segment)) && this.facetTuples(tables.facts).has(segment);
  }

  /** Each segment's facet combinations in these page facts (kept for the current ones). */
  private facetTuples(facts: PageFacts): SegmentColumn<TupleColumn> {
    let column = this.tupleColumns.get(facts);
    if (column === undefined) this.tupleColumns.set(facts, (column = facetTupleColumn(facts)));
    return column;
  }

  languageOfPage(url: string): string | undefined {
    return languageOfSitePage(this.facts, url);
  }

  /** Switches to new page facts (languages, sections, copies, translations). */
  setFacts(facts: PageFacts): void {
    this.facts = facts;
    this.groups = this.groupTable();
  }

  /** Switches to new best bets and synonyms. */
  setSearchSettings(settings: SearchSettings): void {
    this.settings = settings;
  }

  /** Keeps these URLs out of every result. */
  setRemoved(urls: readonly string[]): void {
    this.removedUrls = urls;
  }

  /** The ids of the removed URLs in the current page facts. */
  private removedIds(facts: PageFacts): ReadonlySet<number> {
    const ids = new Set<number>();
    for (const url of this.removedUrls) {
      const id = facts.idOfUrl(url);
      if (id !== undefined) ids.add(id);
    }
    return ids;
  }

  async search(query: EngineQuery): Promise<EngineResult> {
    const started = performance.now();
    const { ranks, facts, settings, groups: table } = this;
    const removed = this.removedIds(facts);
    const wanted = query.page * query.size;
    const pool = Math.max(this.options.candidates ?? 500, wanted);
    if (wanted > pool || wanted > 1000) throw new QuerySyntaxError(`page ${query.page} is beyond the last page that can be shown`);
    // A language of the site's pages is a filter even where the analysis has no stemmer for it (Polish pages are analysed neutrally).
    for (const lang of query.lang ?? []) if (!facts.columns.lang.codeOf.has(lang.trim().toLowerCase())) checkLanguage(lang);
    const filters = compileFilters(facts, { lang: query.lang, host: query.host, section: query.section, type: query.type });
    const filtering = hasFilters(filters);
    const accept = (id: number) => {
      if (removed.has(id)) return false;
      if (!filtering) return true;
      const row = facts.rowOf(id);
      return row >= 0 && rowPasses(facts, filters, row);
    };
    // Nothing to refuse (no filter, no removed page): the text index need not ask about every match.
    const refusing = filtering || removed.size > 0;

    const prior = query.rank === 'blend' && query.sort !== 'date' ? this.staticPrior(table, ranks) : undefined;
    // Candidates in blend order (the prior applied, no synonym spellings): start with a few.
    const blendOrdered = prior !== undefined && synonymVariants(query.q, settings.synonyms).length === 1;
    const cap = Math.min(pool, 1000);
    const otherLanguageWeight = this.options.otherLanguageWeight ?? DEFAULT_OTHER_LANGUAGE_WEIGHT;
    const visitor = visitorLanguages(facts, query);
    for (let size = blendOrdered && this.options.candidates === undefined ? firstPool(wanted, cap, table.plain) : cap; ; size = cap) {
      const ranked = this.rankCandidates(query, size, accept, refusing, removed, prior, visitor);
      const lowest = ranked.candidates.reduce((min, c) => Math.min(min, c.score), Infinity);
      let matches: Set<number> | undefined;
      const couldBeCandidate = (id: number) => (matches ??= new Set(ranked.matched.ids())).has(id) && accept(id);
      if (size >= cap || poolSuffices(table, ranked.groups, wanted, size, ranked.textHits.length, lowest, visitor, otherLanguageWeight, couldBeCandidate)) {
        return this.present(query, ranked, filters, removed, visitor, started);
      }
    }
  }

  /** The best `size` text matches as ranked candidates, grouped, and every match. */
  private rankCandidates(query: EngineQuery, size: number, accept: (id: number) => boolean, refusing: boolean, removed: ReadonlySet<number>, prior: StaticPrior | undefined, visitor: readonly number[]) {
    const { ranks, facts, settings, groups: table } = this;
    const budget = new QueryBudget();
    const { hits: textHits, matched, corrections, unmatchedTerms } = this.textMatches(query.q, size, refusing ? accept : undefined, settings, budget, prior);
    const best = textHits.reduce((max, h) => Math.max(max, h.score), 0);
    const { blend, weight } = this.options;
    const candidateOf = (hit: SearchHit): Candidate => {
      const global = ranks.global.get(hit.id) ?? 0;
      const local = ranks.local.get(hit.id) ?? 0;
      // Copies and translations share one link-based rank: their group's (summed over its pages).
      const row = table.facts.rowOf(hit.id);
      const parts = row >= 0 ? blendScore({ textScore: hit.score, bestTextScore: best, rank: table.groupRank[row] }, table.groupRankScale, blend, weight) : blendScore({ textScore: hit.score, bestTextScore: best, rank: global }, ranks.globalScale, blend, weight);
      const score = query.rank === 'blend' ? parts.score : query.rank === 'text' ? hit.score : query.rank === 'global' ? global : local;
      return { id: hit.id, hit, global, local, parts, score };
    };
    let candidates: Candidate[];
    if (query.sort === 'date') candidates = this.byDate(matched.ids(), accept, textHits, candidateOf);
    else {
      candidates = textHits.map(candidateOf);
      // Ties keep the text order (sort is stable).
      if (query.rank !== 'text') candidates.sort((a, b) => b.score - a.score);
    }
    const fromText = [...candidates];
    // Best bets obey the filters like every result (a chip's count is the total its click gives).
    const bets = this.bestBetIds(query.q, removed);
    const pinned = this.pinned(bets.filter(accept), candidates, candidateOf);
    // Which translation a hit shows: the requested language, the visitor's (else the one the query is written in), then the query's own.
    let groups = groupCandidates(table, [...pinned, ...candidates]);
    if (query.sort !== 'date') {
      const fixed = groups.findIndex((group) => !group.matched[0].recommended);
      groups = preferVisitorLanguages(table, groups, visitor, this.options.otherLanguageWeight ?? DEFAULT_OTHER_LANGUAGE_WEIGHT, fixed < 0 ? groups.length : fixed);
    }
    return { textHits, matched, corrections, unmatchedTerms, budget, bets, groups, candidates: fromText };
  }

  /** The page of results: counts and facets over every match, the page's groups with their passages. */
  private async present(query: EngineQuery, ranked: ReturnType<SearchEngine['rankCandidates']>, filters: ReturnType<typeof compileFilters>, removed: ReadonlySet<number>, visitor: readonly number[], started: number): Promise<EngineResult> {
    const { facts, groups: table } = this;
    const { textHits, matched, corrections, unmatchedTerms, budget, bets, groups } = ranked;
    const wanted = query.page * query.size;
    const { total, facets } = this.countMatches(matched, filters, bets, removed);
    const preferred = [...visitor, ...languageCodes(facts, queryLanguages(query.q, textHits)), ...mainLanguage(facts)];
    const slice = groups.slice((query.page - 1) * query.size, wanted).map((group) => showGroup(table, group, preferred));
    const passages = await this.index.passages(slice.map((group) => group.shown.hit));
    const hits = this.renderHits(slice, passages, query);
    const result: EngineResult = { query: query.q, total, page: query.page, size: query.size, tookMs: Math.round((performance.now() - started) * 100) / 100, hits, facets };
    const corrected = correctedQuery(query.q, corrections, [...passages.values()]);
    if (corrected !== undefined) result.correctedQuery = corrected;
    if (budget.notices.length > 0) result.notices = budget.notices;
    if (budget.partial) result.partial = true;
    if (unmatchedTerms !== undefined) result.unmatchedTerms = unmatchedTerms;
    return result;
  }

  /** The results and facet counts of every match (by segment and ordinal, unless best bets or removed pages need ids). */
  private countMatches(matched: Matched, filters: ReturnType<typeof compileFilters>, bets: readonly number[], removed: ReadonlySet<number>) {
    const { facts } = this;
    const segments = matched.segments?.();
    if (segments !== undefined && bets.length === 0 && removed.size === 0) {
      const column = this.facetTuples(facts);
      return countSegmentResults(facts, filters, segments.map(({ segment, ordinals }) => ({ ordinals, docIds: segment.docIds, tuples: column.of(segment) })));
    }
    const ids = matched.ids();
    return countResults(facts, filters, bets.length > 0 ? [...new Set([...ids, ...bets])] : ids, removed.size > 0 ? (row) => removed.has(facts.ids[row]) : undefined);
  }

  /** The `prior` blend's link part per page, for the text index's top-k (static-prior.ts). */
  private staticPrior(table: GroupTable, ranks: RankSnapshot): PreparedPrior | undefined {
    const { blend, weight, staticPrior } = this.options;
    if (blend !== 'prior' || staticPrior === false) return undefined;
    let prior = this.priors.get(table);
    if (prior === undefined) this.priors.set(table, (prior = blendPrior(table, (id) => ranks.global.get(id) ?? 0, ranks.globalScale, weight)));
    return prior;
  }

  /**
   * Text hits of the query and of its synonym spellings (best score per page), and every match.
   * A query alone is ranked with the prior; synonym spellings, merged by text score, without.
   */
  private textMatches(q: string, limit: number, accept: ((id: number) => boolean) | undefined, settings: SearchSettings, budget: QueryBudget, prior?: StaticPrior) {
    const variants = synonymVariants(q, settings.synonyms);
    const collected = new MatchCollector();
    const first = this.index.search(variants[0], { offset: 0, limit, accept, collect: collected, budget, prior: variants.length === 1 ? prior : undefined });
    if (variants.length === 1) return { hits: first.hits, terms: first.terms, matched: collected as Matched, corrections: first.corrections, unmatchedTerms: first.unmatchedTerms };
    // The words are said to match nothing only when no synonym spelling found them all either.
    let unmatchedTerms = first.unmatchedTerms;
    const byId = new Map(first.hits.map((hit) => [hit.id, hit]));
    const terms = new Set(first.terms);
    for (const variant of variants.slice(1)) {
      let result;
      try {
        result = this.index.search(variant, { offset: 0, limit, accept, collect: collected, budget });
      } catch (error) {
        // A synonym that makes the query unreadable is skipped; the query itself was readable.
        if (error instanceof QuerySyntaxError) continue;
        throw error;
      }
      if (result.unmatchedTerms === undefined) unmatchedTerms = undefined;
      for (const term of result.terms) terms.add(term);
      for (const hit of result.hits) {
        const known = byId.get(hit.id);
        if (!known || known.score < hit.score) byId.set(hit.id, hit);
      }
    }
    const hits = [...byId.values()].sort((a, b) => b.score - a.score).slice(0, limit);
    // A page matched by several spellings is one match: counted by id.
    const ids = Int32Array.from(new Set(collected.ids()));
    return { hits, terms: [...terms], matched: { ids: () => ids } as Matched, corrections: first.corrections, unmatchedTerms };
  }

  /** Every accepted match, newest first (undated last), with its text score where it has one. */
  private byDate(matched: Int32Array, accept: (id: number) => boolean, textHits: readonly SearchHit[], candidateOf: (hit: SearchHit) => Candidate): Candidate[] {
    const textOf = new Map(textHits.map((hit) => [hit.id, hit]));
    const dateOf = (id: number) => {
      const row = this.facts.rowOf(id);
      const date = row >= 0 ? this.facts.dates[row] : NaN;
      return Number.isNaN(date) ? -Infinity : date;
    };
    const ids = Array.from(matched).filter(accept).sort((a, b) => dateOf(b) - dateOf(a) || a - b).slice(0, 1000);
    return ids.map((id) => candidateOf(textOf.get(id) ?? this.unmatchedHit(id)));
  }

  /** A page shown without a text match of its own (a best bet, a date order): no score, no terms. */
  private unmatchedHit(id: number): SearchHit {
    const row = this.facts.rowOf(id);
    return { id, score: 0, matchedTerms: [], lang: row >= 0 ? this.facts.langOf(row) : 'und' };
  }

  /** Ids of the query's best bets that are indexed and not removed, in the admin's order. */
  private bestBetIds(q: string, removed: ReadonlySet<number>): number[] {
    const ids: number[] = [];
    for (const url of bestBetUrls(this.settings, q)) {
      const id = this.facts.idOfUrl(url);
      if (id === undefined || !this.facts.isIndexed(this.facts.rowOf(id)) || removed.has(id) || ids.includes(id)) continue;
      ids.push(id);
    }
    return ids;
  }

  /** The best bets' candidates, first, marked as recommended (taken out of `candidates`). */
  private pinned(ids: readonly number[], candidates: Candidate[], candidateOf: (hit: SearchHit) => Candidate): Candidate[] {
    const pinned: Candidate[] = [];
    for (const id of ids) {
      const at = candidates.findIndex((c) => c.id === id);
      const candidate = at >= 0 ? candidates.splice(at, 1)[0] : { ...candidateOf(this.unmatchedHit(id)), parts: NO_PARTS };
      pinned.push({ ...candidate, recommended: true });
    }
    return pinned;
  }

  private renderHits(groups: Array<HitGroup<Candidate>>, passages: Awaited<ReturnType<TextIndex['passages']>>, query: EngineQuery): EngineHit[] {
    const { blend, weight } = this.options;
    const ranks = this.ranks;
    return groups.map((group) => {
      const { id, hit, global, local, parts, score } = group.shown;
      const passage = passages.get(id);
      const doc = passage?.document;
      const row = group.row >= 0 ? group.row : this.facts.rowOf(id);
      const fact = row >= 0 ? this.facts.factOf(row) : undefined;
      const result: EngineHit = {
        id,
        url: group.url || doc?.url || '',
        title: doc?.title || doc?.url || '',
        snippet: passage?.snippet ?? '',
        host: doc?.host ?? '',
        score,
        textScore: hit.score,
        globalPageRank: global,
        localPageRank: local,
        lang: hit.lang,
      };
      if (fact) {
        if (fact.lang !== 'und' || !hit.lang) result.lang = fact.lang;
        result.type = fact.type;
        result.section = fact.section;
        if (!Number.isNaN(fact.date)) result.lastModified = new Date(fact.date).toISOString();
      }
      if (group.duplicates.length > 0) result.duplicates = group.duplicates;
      if (group.alternates.length > 0) result.alternates = group.alternates;
      if (group.shown.recommended) result.recommended = true;
      if (passage?.sectionHeading !== undefined) result.sectionHeading = passage.sectionHeading;
      if (passage?.sectionAnchor !== undefined && doc) result.sectionUrl = sectionUrlOf(doc.url, passage.sectionAnchor);
      if (query.explain) {
        result.explain = {
          rank: query.rank,
          blend,
          weight,
          textScore: hit.score,
          textNormalised: parts.text,
          linkPart: parts.link,
          globalPageRank: global,
          groupGlobalPageRank: row >= 0 && this.groups.facts === this.facts ? this.groups.groupRank[row] : global,
          localPageRank: local,
          rankVersion: ranks.version,
          matchedTerms: hit.matchedTerms.join(' '),
        };
      }
      return result;
    });
  }
}

/** `lang` column codes of languages (those the site has pages in), without repeats. */
function languageCodes(facts: PageFacts, languages: readonly string[]): number[] {
  const codeOf = facts.columns.lang.codeOf;
  return [...new Set(languages.flatMap((lang) => codeOf.get(lang.trim().toLowerCase()) ?? []))];
}

const mainLanguages = new WeakMap<PageFacts, number[]>();

/**
 * The language most of the site's pages are in (as a `lang` column code; none on an empty site):
 * a hit whose language neither the visitor nor the query tells shows the page in it, as a
 * manual's English original rather than one of its translations.
 */
function mainLanguage(facts: PageFacts): number[] {
  let main = mainLanguages.get(facts);
  if (main !== undefined) return main;
  const { codes, values } = facts.columns.lang;
  const counts = new Int32Array(values.length);
  // An indexed loop: iterating a million codes held the event loop 39 ms at a facts switch.
  for (let row = 0; row < codes.length; row++) counts[codes[row]]++;
  let best = -1;
  counts.forEach((count, code) => {
    if (values[code] !== 'und' && values[code] !== '' && (best < 0 || count > counts[best])) best = code;
  });
  main = best < 0 ? [] : [best];
  mainLanguages.set(facts, main);
  return main;
}

/**
 * The visitor's languages, as `lang` column codes, whose matches rank first and whose pages a
 * hit shows: the requested ones, the visitor's (chosen on the site, then Accept-Language), else
 * the one the query is written in when it tells. The languages whose analyses matched most of
 * the query follow them only to choose which translation a hit shows.
 */
function visitorLanguages(facts: PageFacts, query: EngineQuery): number[] {
  const chosen = [...(query.lang ?? []), ...(query.visitorLanguages ?? [])];
  if ((query.visitorLanguages ?? []).length === 0) {
    const written = writtenLanguage(query.q, (lang) => facts.columns.lang.codeOf.has(lang));
    if (written !== undefined) chosen.push(written);
  }
  return languageCodes(facts, chosen);
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

/**
 * The URL of a section: the page's URL with the anchor as its fragment. Only what a fragment may
 * not hold is escaped, so a PDF's `page=5` stays `#page=5`, which PDF viewers open at that page.
 */
export function sectionUrlOf(url: string, anchor: string): string {
  return `${url.split('#')[0]}#${encodeURI(anchor).replace(/#/g, '%23')}`;
}
