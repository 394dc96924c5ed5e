/**
 * The documents of a segment that match a query, found without scoring (for `total`, facet counts
 * and the candidates of top-k): live, matching every required clause and no prohibited one, and
 * holding at least one scored term. With required word clauses (every word of an all-words query)
 * each clause is one ascending list and the lists are intersected smallest first, so the work
 * follows the rarest words, not the union of all the query's postings; a required phrase or
 * identifier beside them is then checked on their candidates alone.
 */
import { termNumber, termPostings, type CompactSegment } from './compact-segment.ts';
import { clauseBitmap } from './clause-bitmaps.ts';
import { clauseMatches, isTermClause } from './clause-matches.ts';
import { phraseHolders } from './phrase-match.ts';
import type { QueryBudget } from './query-budget.ts';
import { emptyBits, keepSetBits, ordinalsOfBits, scratchWords, seek, setBits, unionSorted } from './ordinal-lists.ts';
import type { ScoredList } from './scored-lists.ts';
import type { ResolvedClause, ScoringPlan } from './scoring-plan.ts';
import type { LiveSegment } from './segment-set.ts';

/** A term's documents in one field, with a forward cursor. */
interface Range {
  docs: Int32Array;
  cursor: number;
  /** Whether the range is one of the scored lists (its documents hold a scored term). */
  scored: boolean;
  /** The term's number in the segment and the field (names the clause's cached bitmap). */
  term: number;
  field: number;
}

const NONE = new Int32Array(0);

/** Ordinals of the segment's matching documents, ascending. */
export function matchingDocuments(segment: LiveSegment, plan: ScoringPlan, lists: readonly ScoredList[], budget: QueryBudget): Int32Array {
  const postings = segment.stored.postings;
  if (lists.length === 0) return NONE;
  const termClauses: Range[][] = [];
  for (const clause of plan.required) {
    if (!isTermClause(clause)) continue;
    const ranges = termRanges(postings, clause.terms, clause.fields, plan);
    if (ranges.length === 0) return NONE;
    termClauses.push(ranges);
  }
  // Beside word clauses, identifiers and phrases are checked on their candidates only: their
  // lists are looked up for them rather than marked over the whole segment (a part or a word of
  // a phrase is often a common word, `get` of `apt-get`).
  const others = plan.required.filter((clause) => !isTermClause(clause));
  const requiredMarks = termClauses.length > 0 ? [] : others.map((clause) => clauseMatches(postings, clause, budget));
  let excluded: Uint8Array | null = null;
  for (const clause of plan.prohibited) {
    const marks = clauseMatches(postings, clause, budget);
    if (excluded === null) excluded = marks;
    else for (let d = 0; d < marks.length; d++) excluded[d] |= marks[d];
  }
  let candidates: Int32Array;
  let needsScoredCheck = false;
  if (termClauses.length > 0) {
    // The smallest clause's documents, kept where every other clause holds them too.
    const clauses = termClauses.map((ranges) => ({ ranges, postings: ranges.reduce((n, range) => n + range.docs.length, 0) })).sort((a, b) => a.postings - b.postings);
    if (clauses.length > 1 && isCommon(postings, clauses[0])) candidates = heldByAll(postings, clauses);
    else {
      candidates = clauseDocuments(postings, clauses[0]);
      for (let i = 1; i < clauses.length && candidates.length > 0; i++) candidates = heldBy(postings, candidates, clauses[i]);
    }
    for (const clause of others) candidates = heldByClause(postings, candidates, clause, budget);
    // A document of the smallest clause holds a scored term when that clause's lists are all scored.
    needsScoredCheck = clauses[0].ranges.some((range) => !range.scored);
  } else {
    candidates = unionSorted(lists.map((list) => list.docs));
  }
  const scoredRanges: Range[] = needsScoredCheck ? lists.map((list) => ({ docs: list.docs, cursor: 0, scored: true, term: list.term, field: -1 })) : [];
  const deleted = segment.deleted;
  if (deleted === null && excluded === null && requiredMarks.length === 0 && !needsScoredCheck) return candidates;
  const out = new Int32Array(candidates.length);
  let count = 0;
  documents: for (let i = 0; i < candidates.length; i++) {
    const d = candidates[i];
    if (deleted !== null && deleted[d]) continue;
    if (excluded !== null && excluded[d]) continue;
    for (const marks of requiredMarks) if (!marks[d]) continue documents;
    if (needsScoredCheck && !anyHas(scoredRanges, d)) continue;
    out[count++] = d;
  }
  return out.subarray(0, count);
}

/** The postings of `terms` in `fields`, each of a clause's terms in each of its fields (scored: weighed by the plan). */
function termRanges(postings: CompactSegment, terms: readonly string[], fields: readonly number[], plan: ScoringPlan | null): Range[] {
  const ranges: Range[] = [];
  for (const term of terms) {
    const t = termNumber(postings, term);
    if (t < 0) continue;
    const weights = plan?.terms.find((scored) => scored.term === term)?.weights;
    for (const f of fields) {
      const field = postings.fields[f];
      if (field.offsets[t] === field.offsets[t + 1]) continue;
      const { docs } = termPostings(field, t);
      ranges.push({ docs, cursor: 0, scored: weights !== undefined && weights[f] !== 0, term: t, field: f });
    }
  }
  return ranges;
}

/** A required clause's ranges and how many postings they hold together. */
interface ClauseRanges {
  ranges: Range[];
  postings: number;
}

/** Past this share of a segment's documents, a clause's lists are combined through a bitmap. */
const BITMAP_SHARE = 1 / 16;

/** Whether the clause's lists are combined through a bitmap, kept with the segment (clause-bitmaps.ts). */
const isCommon = (segment: CompactSegment, clause: ClauseRanges) => clause.postings >= segment.docIds.length * BITMAP_SHARE;
/** Candidates this many times fewer than a clause's postings are looked up in its lists. */
const GALLOP_RATIO = 16;

/** The clause's documents, ascending, without repeats (one range: a view, no copy). */
function clauseDocuments(segment: CompactSegment, clause: ClauseRanges): Int32Array {
  if (clause.ranges.length === 1 || !isCommon(segment, clause)) return unionOf(clause.ranges);
  return ordinalsOfBits(bitmapOf(segment, clause));
}

/** The candidates a phrase or identifier clause matches (as clause-matches.ts marks them). */
function heldByClause(segment: CompactSegment, candidates: Int32Array, clause: ResolvedClause, budget: QueryBudget): Int32Array {
  if (clause.phrases !== null) return unionSorted(clause.phrases.map((words) => phraseHolders(segment, words, clause.fields, candidates, budget)));
  return heldByIdentifier(segment, candidates, clause);
}

/** The candidates an identifier clause matches: those holding one of its terms, or every one of its parts. */
function heldByIdentifier(segment: CompactSegment, candidates: Int32Array, clause: ResolvedClause): Int32Array {
  const rangesOf = (terms: readonly string[]): ClauseRanges => {
    const ranges = termRanges(segment, terms, clause.fields, null);
    return { ranges, postings: ranges.reduce((n, range) => n + range.docs.length, 0) };
  };
  const whole = heldBy(segment, candidates, rangesOf(clause.terms));
  let apart = candidates;
  for (const alternatives of clause.parts ?? []) if (apart.length > 0) apart = heldBy(segment, apart, rangesOf(alternatives));
  return unionSorted([whole, apart]);
}

/** The candidates that one of the clause's ranges holds. */
function heldBy(segment: CompactSegment, candidates: Int32Array, clause: ClauseRanges): Int32Array {
  if (clause.ranges.length === 0) return NONE;
  // A common clause's bitmap is kept, so testing a bit per candidate beats galloping in its lists.
  const common = isCommon(segment, clause);
  // One range or several, the same loop: a path of its own for one range was first taken by the
  // small segments of an update, and V8 then threw away the search's compiled code.
  if (!common && candidates.length * GALLOP_RATIO < clause.postings) {
    const out = new Int32Array(candidates.length);
    let n = 0;
    for (let i = 0; i < candidates.length; i++) if (anyHas(clause.ranges, candidates[i])) out[n++] = candidates[i];
    return out.subarray(0, n);
  }
  return keepSetBits(candidates, bitmapOf(segment, clause));
}

/**
 * The documents every clause holds, when each is a large share of the segment: their bitmaps
 * intersected word by word (32 documents a step), then read out once.
 */
function heldByAll(segment: CompactSegment, clauses: readonly ClauseRanges[]): Int32Array {
  const first = bitmapOf(segment, clauses[0]);
  // The kept bitmaps are read, never written: their intersection goes in reused memory.
  const common = scratchWords(first.length);
  common.set(first);
  for (let c = 1; c < clauses.length; c++) {
    const bits = bitmapOf(segment, clauses[c]);
    for (let w = 0; w < common.length; w++) common[w] &= bits[w];
  }
  return ordinalsOfBits(common);
}

/** The clause's documents as a bitmap: kept with the segment for a common clause, else made for this query. */
function bitmapOf(segment: CompactSegment, { ranges, postings }: ClauseRanges): Uint32Array {
  const lists = ranges.map((range) => range.docs);
  if (isCommon(segment, { ranges, postings })) return clauseBitmap(segment, ranges.map((range) => `${range.term}.${range.field}`).join(' '), lists);
  const bits = emptyBits(segment.docIds.length);
  setBits(bits, lists);
  return bits;
}

/** The documents of several ranges, ascending, without repeats (one range: a view, no copy). */
function unionOf(ranges: readonly Range[]): Int32Array {
  return unionSorted(ranges.map((range) => range.docs));
}

/** Whether any range holds `d` (cursors move forward: `d` must not decrease between calls). */
function anyHas(ranges: Range[], d: number): boolean {
  for (const range of ranges) {
    const p = seek(range.docs, range.cursor, range.docs.length, d);
    range.cursor = p;
    if (p < range.docs.length && range.docs[p] === d) return true;
  }
  return false;
}
