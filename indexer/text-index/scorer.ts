/**
 * Runs a parsed query over every segment of a snapshot and merges the hits, scoring with
 * collection-wide statistics (Elasticsearch's `dfs_query_then_fetch`, not its per-shard default):
 * document frequencies summed over all segments' live documents, the live document count, and
 * average field lengths over live documents. Per-segment statistics would rank a page higher for
 * sitting in a segment where its words happen to be rare; global ones cost a few sums per term.
 *
 * The formula is lunr's own (BM25 with k1 = 1.2, b = 0.75, lunr's idf that counts a document once
 * per field it has the term in, weights rounded to 3 decimals, times the field boost, summed over
 * fields and divided by the query vector's length) with the statistics of the whole collection, so
 * a multi-segment index gives exactly the scores of one lunr index over the same live documents.
 * The presence rules are lunr's too: a required clause must match in one of its fields, a
 * prohibited one excludes, and a document must match at least one non-prohibited term.
 */
import { hasPosting, postingCount, termNumber, termPostings, type CompactSegment } from './compact-segment.ts';
import { markClauseMatches, clauseMatches } from './clause-matches.ts';
import { INDEX_FIELDS } from './document.ts';
import { expandClause } from './expansion.ts';
import { isNamespacedTerm } from './languages.ts';
import { languageAt } from './language-column.ts';
import type { ParsedQuery, QueryClause } from './query-parser.ts';
import { MAX_PATTERN_TERMS, QueryBudget, type QueryNotice, type QueryWork } from './query-budget.ts';
import { scoredLists } from './scored-lists.ts';
import { postingWeight, type ResolvedClause, type ScoringPlan } from './scoring-plan.ts';
import { matchingDocuments } from './segment-matches.ts';
import { type LiveSegment, type SegmentSet } from './segment-set.ts';
import { liveDocumentFrequency } from './live-frequencies.ts';
import { forEachTermMatchingGlob, forEachTermWithinEdits } from './term-walk.ts';
import { rankCandidates, TopHits, type DocumentExtras, type SegmentCandidates } from './top-k.ts';
import { exactNameBonuses, exactNameScoreBound } from './exact-name.ts';
import type { MatchCollector } from './match-collector.ts';

export { withinEdits } from './term-walk.ts';

export interface SearchHit {
  /** The page id. */
  id: number;
  score: number;
  /** Index terms (stemmed) of the query found in this page. */
  matchedTerms: string[];
  /** The page's language (`en` when its document named none). */
  lang: string;
}

export interface RankedHits {
  hits: SearchHit[];
  /** Documents matching the query and accepted by the page's filter (before pagination). */
  total: number;
  /** Documents matching the query, filter or not. */
  unfilteredTotal: number;
  /** Index terms the query looks for (for snippets and highlighting). */
  terms: string[];
  /** Unknown words replaced by the terms they were taken for (typo tolerance). */
  corrections: Array<{ typed: string; term: string }>;
  /** Positions (in the query's clauses) of the clauses none of whose terms the collection holds. */
  absentClauses: number[];
}

/**
 * A query-independent score per document, added to the text score to order the hits (the
 * blend's prior: `w · ln(rank / median)`), so that top-k ranks by the blend itself and prunes with
 * it. Hits keep their text score in `score`.
 */
export interface StaticPrior {
  /** The prior of each document ordinal of a segment. */
  of(segment: CompactSegment): Float64Array;
}

export interface Page {
  offset: number;
  limit: number;
  /** Keeps a matching document among the hits (filters: language, host…); absent keeps all. */
  accept?: (id: number) => boolean;
  /** Receives the id of every matching document, accepted or not (facet counts). */
  collect?: MatchCollector;
  /** Orders the hits by text score plus this prior (absent: by text score). */
  prior?: StaticPrior;
  /** Scores every match, term by term (the reference dynamic pruning must equal; tests, benchmarks). */
  exhaustive?: boolean;
}

const FIELD_BOOSTS = INDEX_FIELDS.map((field) => field.boost);
const FIELD_COUNT = INDEX_FIELDS.length;

export function executeQuery(set: SegmentSet, query: ParsedQuery, page: Page, budget = new QueryBudget()): RankedHits {
  const stats = new CollectionTerms(set, budget);
  const clauses = query.clauses.map((clause) => resolveClause(stats, clause));
  keepExpansionsWithinBudget(stats, clauses);
  const positive = clauses.filter((clause) => clause.presence !== 'prohibited');
  const termsLookedFor = [...new Set(positive.flatMap((clause) => scoredTermsOf(clause)))];
  const corrections = clauses.flatMap((clause) => (clause.correction ? [clause.correction] : []));
  const absentClauses = clauses.flatMap((clause, i) => (clause.terms.length === 0 && !clause.parts && !clause.phrases ? [i] : []));
  if (clauses.some((clause) => clause.impossible) || set.documentCount === 0) return { hits: [], total: 0, unfilteredTotal: 0, terms: termsLookedFor, corrections, absentClauses };

  const plan = scoringPlan(set, stats, clauses);
  // A page that defines the whole query ranks above any page that only mentions it (exact-name.ts).
  const exactNameBound = query.exactName !== undefined ? exactNameScoreBound(plan) : 0;
  const top = new TopHits(page.offset + page.limit);
  const counts = { total: 0, unfilteredTotal: 0 };
  const parts: SegmentCandidates[] = [];
  for (const segment of set.segments) {
    const postings = segment.stored.postings;
    if (postings.docIds.length === segment.deletedCount) continue;
    const prior = page.prior?.of(postings) ?? null;
    const bonuses = query.exactName !== undefined ? exactNameBonuses(postings, query.exactName, exactNameBound, query.analyzedNames) : null;
    if (page.exhaustive) scoreEverything(segment, plan, page, { prior, bonuses }, top, counts, budget);
    else {
      const lists = scoredLists(postings, plan);
      parts.push({ segment, candidates: acceptedMatches(segment, matchingDocuments(segment, plan, lists, budget), page, counts), lists, extras: { prior, bonuses } });
    }
  }
  rankCandidates(parts, top, budget.work);
  const hits = top
    .sorted()
    .slice(page.offset)
    .map((hit) => ({
      id: hit.id,
      score: hit.score,
      matchedTerms: matchedTermsOf(hit.segment.stored.postings, hit.ordinal, termsLookedFor),
      lang: languageAt(hit.segment.stored.postings.docLangs, hit.ordinal),
    }));
  return { hits, total: counts.total, unfilteredTotal: counts.unfilteredTotal, terms: termsLookedFor, corrections, absentClauses };
}

/** The query vector (lunr adds a clause's boost for every term and field it names) and the statistics. */
function scoringPlan(set: SegmentSet, stats: CollectionTerms, clauses: readonly ResolvedClause[]): ScoringPlan {
  const queryWeights = new Map<string, Float64Array>();
  for (const clause of clauses) {
    if (clause.presence === 'prohibited') continue;
    for (const term of scoredTermsOf(clause)) {
      let weights = queryWeights.get(term);
      if (!weights) queryWeights.set(term, (weights = new Float64Array(FIELD_COUNT)));
      const boost = clause.boost * (clause.termWeights?.get(term) ?? 1);
      for (const field of clause.fields) weights[field] += boost;
    }
  }
  const magnitude = new Float64Array(FIELD_COUNT);
  for (const weights of queryWeights.values()) for (let f = 0; f < FIELD_COUNT; f++) magnitude[f] += weights[f] * weights[f];
  for (let f = 0; f < FIELD_COUNT; f++) magnitude[f] = Math.sqrt(magnitude[f]);
  const terms = [...queryWeights].map(([term, weights]) => ({ term, weights, idf: lunrIdf(set.documentCount, stats.documentFrequency(term)) }));
  for (const { term } of terms) stats.budget.work.scoredPostings += stats.documentFrequency(term);
  return {
    terms,
    magnitude,
    averageLengths: Float64Array.from(set.fieldLengthSums, (sum) => sum / set.documentCount),
    required: clauses.filter((clause) => clause.presence === 'required'),
    prohibited: clauses.filter((clause) => clause.presence === 'prohibited'),
  };
}

/** Counts the matches (and hands them to `collect`), and keeps those the page's filter accepts. */
function acceptedMatches(segment: LiveSegment, matches: Int32Array, page: Page, counts: { total: number; unfilteredTotal: number }): Int32Array {
  const { accept, collect } = page;
  const ids = segment.stored.postings.docIds;
  counts.unfilteredTotal += matches.length;
  collect?.add(segment.stored.postings, matches);
  if (accept === undefined) {
    counts.total += matches.length;
    return matches;
  }
  const accepted = new Int32Array(matches.length);
  let count = 0;
  for (let i = 0; i < matches.length; i++) if (accept(ids[matches[i]])) accepted[count++] = matches[i];
  counts.total += count;
  return accepted.subarray(0, count);
}

/** Scores every posting of every scored term, then every document (the reference for top-k). */
function scoreEverything(segment: LiveSegment, plan: ScoringPlan, page: Page, { prior, bonuses }: DocumentExtras, top: TopHits, counts: { total: number; unfilteredTotal: number }, budget: QueryBudget): void {
  const postings = segment.stored.postings;
  const n = postings.docIds.length;
  const scores = new Float64Array(n);
  const matched = new Uint8Array(n);
  for (const { term, weights, idf } of plan.terms) {
    const t = termNumber(postings, term);
    if (t < 0) continue;
    for (let f = 0; f < FIELD_COUNT; f++) {
      if (weights[f] === 0) continue;
      addFieldScores(postings.fields[f], t, weights[f] / plan.magnitude[f], idf, FIELD_BOOSTS[f], plan.averageLengths[f], segment.deleted, scores, matched);
      budget.work.scoredWeights += postings.fields[f].offsets[t + 1] - postings.fields[f].offsets[t];
    }
  }
  const requiredMarks = plan.required.map((clause) => clauseMatches(postings, clause, budget));
  const excluded = plan.prohibited.length > 0 ? new Uint8Array(n) : null;
  for (const clause of plan.prohibited) markClauseMatches(postings, clause, excluded!, budget);
  const deleted = segment.deleted;
  const { accept, collect } = page;
  const matchedOrdinals: number[] = [];
  documents: for (let d = 0; d < n; d++) {
    if (!matched[d] || (deleted !== null && deleted[d])) continue;
    for (const marks of requiredMarks) if (!marks[d]) continue documents;
    if (excluded !== null && excluded[d]) continue;
    const id = postings.docIds[d];
    counts.unfilteredTotal++;
    matchedOrdinals.push(d);
    if (accept !== undefined && !accept(id)) continue;
    counts.total++;
    budget.work.candidates++;
    budget.work.scoredDocuments++;
    const text = bonuses === null ? scores[d] : scores[d] + (bonuses.get(d) ?? 0);
    top.offer(segment, d, text, prior);
  }
  collect?.add(postings, Int32Array.from(matchedOrdinals));
}

/** The terms a clause scores with: its own (an identifier's whole, expansions) and its parts'. */
function scoredTermsOf(clause: ResolvedClause): string[] {
  return clause.parts ? [...clause.terms, ...clause.parts.flat()] : clause.terms;
}

/** lunr's idf: log(1 + |(N − df + ½) / (df + ½)|). */
function lunrIdf(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + Math.abs((documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5)));
}

function addFieldScores(
  field: CompactSegment['fields'][number],
  t: number,
  queryWeight: number,
  idf: number,
  fieldBoost: number,
  averageLength: number,
  deleted: Uint8Array | null,
  scores: Float64Array,
  matched: Uint8Array,
): void {
  const { lengths } = field;
  const { docs, tf } = termPostings(field, t);
  for (let p = 0; p < docs.length; p++) {
    const d = docs[p];
    if (deleted !== null && deleted[d]) continue;
    scores[d] += queryWeight * postingWeight(idf, tf[p], lengths[d], averageLength, fieldBoost);
    matched[d] = 1;
  }
}

function matchedTermsOf(segment: CompactSegment, ordinal: number, terms: readonly string[]): string[] {
  return terms.filter((term) => {
    const t = termNumber(segment, term);
    return t >= 0 && segment.fields.some((field) => hasPosting(field, t, ordinal));
  });
}

function resolveClause(stats: CollectionTerms, clause: QueryClause): ResolvedClause {
  if (clause.kind === 'phrase') {
    const variants = clause.variants.filter((words) => words.every((word) => stats.documentFrequency(word.term) > 0));
    const terms = [...new Set(variants.flatMap((words) => words.map((word) => word.term)))];
    const impossible = variants.length === 0 && clause.presence === 'required';
    return { presence: clause.presence, terms, fields: clause.fields, boost: clause.boost ?? 1, phrases: variants.length > 0 ? variants : null, impossible };
  }
  if (clause.pattern) {
    const found = new Map<string, number>();
    for (const pattern of clause.terms) for (const [term, count] of stats.expand(pattern, clause.editDistance)) found.set(term, (found.get(term) ?? 0) + count);
    let candidates = [...found.keys()];
    if (candidates.length > MAX_PATTERN_TERMS) {
      stats.budget.limitReached('LSE_QUERY_EXPANSION_LIMIT', `a wildcard or fuzzy word matched ${candidates.length.toLocaleString('en')} terms; the ${MAX_PATTERN_TERMS} most frequent were searched`);
      candidates = candidates.sort((a, b) => found.get(b)! - found.get(a)! || (a < b ? -1 : 1)).slice(0, MAX_PATTERN_TERMS);
    }
    const terms = candidates.filter((term) => stats.documentFrequency(term) > 0).sort();
    const impossible = terms.length === 0 && clause.presence === 'required';
    return { presence: clause.presence, terms, expanded: new Set(terms), fields: clause.fields, boost: clause.boost, phrases: null, impossible };
  }
  // A word's terms are alternatives (one per language): a required word none of whose terms is in the index leaves nothing to match.
  const present = clause.terms.filter((term) => stats.documentFrequency(term) > 0);
  const expansion = clause.presence === 'prohibited' ? null : expandClause(stats, clause);
  if (expansion) present.push(...expansion.weights.keys());
  const parts = clause.parts?.map((alternatives) => alternatives.filter((term) => stats.documentFrequency(term) > 0));
  const partsPresent = parts !== undefined && parts.every((alternatives) => alternatives.length > 0);
  const impossible = clause.presence === 'required' && present.length === 0 && !partsPresent;
  const resolved: ResolvedClause = { presence: clause.presence, terms: present, fields: clause.fields, boost: clause.boost, phrases: null, impossible };
  if (partsPresent) resolved.parts = parts;
  if (expansion) {
    resolved.termWeights = expansion.weights;
    resolved.expanded = new Set(expansion.weights.keys());
    if (expansion.correction) resolved.correction = expansion.correction;
  }
  return resolved;
}

/**
 * Drops expanded terms past the search's postings allowance (the query's own terms are always
 * scored): the lightest-weighted expansions first, then the most frequent, so the most terms
 * still count.
 */
function keepExpansionsWithinBudget(stats: CollectionTerms, clauses: ResolvedClause[]): void {
  const budget = stats.budget;
  const expansions: Array<{ term: string; weight: number; postings: number }> = [];
  const seen = new Set<string>();
  for (const clause of clauses) {
    if (clause.presence === 'prohibited') continue;
    for (const term of clause.expanded ?? []) {
      if (seen.has(term)) continue;
      seen.add(term);
      expansions.push({ term, weight: clause.boost * (clause.termWeights?.get(term) ?? 1), postings: stats.documentFrequency(term) });
    }
  }
  expansions.sort((a, b) => b.weight - a.weight || a.postings - b.postings);
  let spent = 0;
  const dropped = new Set<string>();
  for (const { term, postings } of expansions) {
    if (spent + postings > budget.maxExpansionPostings) dropped.add(term);
    else spent += postings;
  }
  budget.work.expandedTerms += expansions.length - dropped.size;
  if (dropped.size === 0) return;
  budget.limitReached('LSE_QUERY_POSTINGS_LIMIT', `${dropped.size.toLocaleString('en')} expanded terms were left out: scoring them would read more than ${budget.maxExpansionPostings.toLocaleString('en')} postings`);
  for (const clause of clauses) {
    if (!clause.expanded || clause.presence === 'prohibited') continue;
    clause.terms = clause.terms.filter((term) => !dropped.has(term));
    if (clause.presence === 'required' && clause.terms.length === 0 && clause.phrases === null && !clause.parts) clause.impossible = true;
  }
}

/** Document frequencies over the live documents of all segments, and expansions within the search's budget. */
export class CollectionTerms {
  private readonly frequencies = new Map<string, number>();

  constructor(
    private readonly set: SegmentSet,
    readonly budget: QueryBudget,
  ) {}

  documentFrequency(term: string): number {
    let df = this.frequencies.get(term);
    if (df !== undefined) return df;
    df = 0;
    for (const segment of this.set.segments) df += liveDocumentFrequency(segment, term);
    this.frequencies.set(term, df);
    return df;
  }

  /**
   * Terms of the collection matching a wildcard pattern, or within an edit distance of a fuzzy
   * word, each with its postings (deleted pages counted). A pattern stays in its language's
   * namespace (`de:haus~1` must not reach `da:haus`); a plain one keeps to English and neutral terms.
   */
  expand(pattern: string, editDistance: number | undefined): Map<string, number> {
    const found = new Map<string, number>();
    const namespaced = isNamespacedTerm(pattern);
    for (const segment of this.set.segments) {
      const postings = segment.stored.postings;
      const add = (t: number) => {
        const term = postings.terms.at(t);
        found.set(term, (found.get(term) ?? 0) + postingCount(postings, t));
      };
      if (editDistance === undefined || pattern.includes('*')) forEachTermMatchingGlob(postings.terms, pattern, !namespaced, this.budget, add);
      else {
        const [from, to] = namespaced ? postings.terms.prefixRange(pattern.slice(0, 3)) : [0, postings.terms.length];
        forEachTermWithinEdits(postings.terms, from, to, pattern, editDistance, !namespaced, this.budget, add);
      }
      if (!this.budget.scansLeft) break;
    }
    return found;
  }

  /**
   * Terms of the collection that begin with `prefix`, or whose words as written begin with it (a
   * range of each segment's sorted terms and of its sorted written words), with their postings.
   * A namespaced prefix (`de:instal`) keeps to its language's terms, a plain one to English and
   * neutral terms.
   */
  startingWith(prefix: string): Map<string, number> {
    const found = new Map<string, number>();
    const namespace = isNamespacedTerm(prefix) ? prefix.slice(0, 3) : '';
    const written = prefix.slice(namespace.length);
    const budget = this.budget;
    for (const segment of this.set.segments) {
      const postings = segment.stored.postings;
      const { terms, surfaces } = postings;
      const add = (t: number, term: string) => found.set(term, (found.get(term) ?? 0) + postingCount(postings, t));
      const [from, to] = terms.prefixRange(prefix);
      for (let t = from; t < to && budget.scan(); t++) {
        const term = terms.at(t);
        if (namespace !== '' || !isNamespacedTerm(term)) add(t, term);
      }
      const [first, last] = surfaces.words.prefixRange(written);
      for (let s = first; s < last && budget.scan(); s++) {
        for (let i = surfaces.offsets[s]; i < surfaces.offsets[s + 1]; i++) {
          const t = surfaces.termIds[i];
          const term = terms.at(t);
          if (namespace !== '' ? term.startsWith(namespace) : !isNamespacedTerm(term)) add(t, term);
        }
      }
      if (!budget.scansLeft) break;
    }
    return found;
  }

  /**
   * Terms within `distance` edits of `term` (a swap of neighbours is one edit) that share its
   * first letter, with their postings: the walk covers one range of each segment's sorted terms.
   */
  near(term: string, distance: number): Map<string, number> {
    const namespaced = isNamespacedTerm(term);
    const head = namespaced ? term.slice(0, 4) : term.slice(0, 1);
    const found = new Map<string, number>();
    for (const segment of this.set.segments) {
      const postings = segment.stored.postings;
      const [from, to] = postings.terms.prefixRange(head);
      forEachTermWithinEdits(postings.terms, from, to, term, distance, !namespaced, this.budget, (t) => {
        const candidate = postings.terms.at(t);
        if (candidate !== term) found.set(candidate, (found.get(candidate) ?? 0) + postingCount(postings, t));
      });
      if (!this.budget.scansLeft) break;
    }
    return found;
  }
}
