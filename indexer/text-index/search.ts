/**
 * A typed query over one snapshot: parse, run, paginate. In `all` mode (the default) every word is
 * required; when that finds nothing and the query had several plain words, it is run again with
 * the words optional (`matchMode: 'any'`), so a typo or an absent word degrades to partial matches
 * instead of an empty page.
 */
import { QuerySyntaxError } from './errors.ts';
import { analysisLanguage, checkLanguage } from './languages.ts';
import { QueryBudget, type QueryNotice, type QueryWork } from './query-budget.ts';
import { parseUserQuery, relaxQuery, type MatchMode, type ParsedQuery } from './query-parser.ts';
import { executeQuery, type RankedHits, type StaticPrior } from './scorer.ts';
import type { MatchCollector } from './match-collector.ts';
import type { SegmentSet } from './segment-set.ts';

export interface SearchOptions {
  offset?: number;
  limit?: number;
  /** How words without an operator combine: `all` (default, with fallback) or `any`. */
  mode?: MatchMode;
  /** Keeps a matching page among the hits and in `total` (the search's filters). */
  accept?: (id: number) => boolean;
  /** Receives the id of every matching page, accepted or not (facet counts). */
  collect?: MatchCollector;
  /**
   * Analyse the query in this language only (a supported language, else UnknownLanguageError, a
   * 400). By default a query is analysed in every language of the index its script allows.
   */
  lang?: string;
  /**
   * Typo tolerance and last-word prefixes (expansion.ts; default on). Off, a query scores exactly
   * as lunr would.
   */
  tolerance?: boolean;
  /**
   * The work allowance of the request this search belongs to (query-budget.ts): share one between
   * the searches of one request (synonym spellings) so that the request as a whole is bounded.
   */
  budget?: QueryBudget;
  /** Orders the hits by text score plus this per-page prior (the blend's), and prunes with it. */
  prior?: StaticPrior;
  /** Scores every match instead of pruning (the reference; tests and benchmarks). */
  exhaustive?: boolean;
}

export interface SearchResult extends RankedHits {
  offset: number;
  limit: number;
  /** How the words were combined to produce these hits. */
  matchMode: MatchMode;
  generation: number;
  /** Limits the query reached and other changes to what it asked for (the request's, when shared). */
  notices: QueryNotice[];
  /** Pages may be missing because a limit of the work budget was reached. */
  partial: boolean;
  /**
   * When all words found nothing and the words were made optional: the words (as typed, lower
   * case) that no page has. "No page has kubernetes; showing results for ets".
   */
  unmatchedTerms?: string[];
  work: QueryWork;
}

export const MAX_LIMIT = 1_000;

export function searchSnapshot(set: SegmentSet, queryText: string, options: SearchOptions = {}): SearchResult {
  const offset = options.offset ?? 0;
  const limit = options.limit ?? 10;
  if (!Number.isInteger(offset) || offset < 0) throw new QuerySyntaxError(`offset must be a non-negative integer, got ${offset}`);
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) throw new QuerySyntaxError(`limit must be an integer from 0 to ${MAX_LIMIT}, got ${limit}`);
  const budget = options.budget ?? new QueryBudget();
  let parsed = parseUserQuery(queryText, options.mode ?? 'all', queryLanguages(set, options.lang), budget);
  if (options.tolerance === false) parsed = withoutTolerance(parsed);
  const page = { offset, limit, accept: options.accept, collect: options.collect, prior: options.prior, exhaustive: options.exhaustive };
  const result = executeQuery(set, parsed, page, budget);
  const plainWords = parsed.clauses.filter((clause) => clause.kind === 'term' && clause.defaulted).length;
  const spent = { notices: budget.notices, partial: budget.partial, work: budget.work };
  // The fallback depends on the words alone: a filter that leaves nothing does not relax the query.
  if (parsed.mode === 'all' && result.unfilteredTotal === 0 && plainWords >= 2) {
    const relaxed = executeQuery(set, relaxQuery(parsed), page, budget);
    const unmatchedTerms = [...new Set(result.absentClauses.flatMap((i) => {
      const clause = parsed.clauses[i];
      return clause.kind === 'term' && clause.defaulted && clause.typed !== undefined ? [clause.typed] : [];
    }))];
    return { ...relaxed, offset, limit, matchMode: 'any', generation: set.generation, ...spent, partial: budget.partial, unmatchedTerms };
  }
  return { ...result, offset, limit, matchMode: parsed.mode, generation: set.generation, ...spent, partial: budget.partial };
}

/** The analysis languages a query is analysed in: the one asked for, else those of the index's pages. */
export function queryLanguages(set: SegmentSet, lang: string | undefined): string[] {
  if (lang !== undefined) return [analysisLanguage(checkLanguage(lang))];
  const languages = new Set<string>();
  for (const code of set.languages.keys()) languages.add(analysisLanguage(code));
  return languages.size === 0 ? [analysisLanguage(undefined)] : [...languages];
}

function withoutTolerance(parsed: ParsedQuery): ParsedQuery {
  return { ...parsed, clauses: parsed.clauses.map((clause) => (clause.kind === 'term' ? { ...clause, typed: undefined, prefixPatterns: undefined } : clause)) };
}
