/**
 * Warms segments before a commit swaps them in. A merge replaces segments whose postings the
 * queries have read into the postings cache (and whose block summaries they made) by one whose
 * postings are all in its file: without warming, the searches right after the swap read and
 * summarise every term again, hundreds of milliseconds each at a million pages, all while an
 * update's work goes on. The terms recently asked of the replaced segments are read from the new
 * ones first, a few milliseconds of work per turn of the event loop (as Lucene's merged-segment
 * warmer does before a merged segment is visible). Then the index's other warmers run (the ranking's
 * static prior of each new segment).
 */
import { blockSummary, LONG_LIST } from './block-bounds.ts';
import { askedTerms, termNumber, termPostings, type CompactSegment, type FieldPostings } from './compact-segment.ts';
import { FIELD_NAMES } from './document.ts';
import { timeSlices } from '../stepwise.ts';

/** Work a caller wants done on new segments before they become visible (may take several turns). */
export type SegmentWarmer = (segments: readonly CompactSegment[]) => Promise<void>;

/** Longest stretch of warming between two turns of the event loop. */
const SLICE_MS = 4;
/** At most this many of the replaced segments' recent terms are read (the most recent). */
const MAX_TERMS = 4_096;

/** Reads into the postings cache the postings and block summaries of the terms recently asked of `replaced`, in `fresh`. */
export async function warmPostings(fresh: readonly CompactSegment[], replaced: readonly CompactSegment[]): Promise<number> {
  const turn = timeSlices(SLICE_MS);
  const terms = new Set<string>();
  for (const segment of replaced) {
    for (const term of askedTerms(segment)) terms.add(term);
    await turn();
  }
  const wanted = [...terms].slice(-MAX_TERMS);
  let read = 0;
  for (const segment of fresh) {
    for (const term of wanted) {
      const t = termNumber(segment, term);
      if (t < 0) continue;
      for (const field of segment.fields) {
        if (field.offsets[t] === field.offsets[t + 1]) continue;
        termPostings(field, t);
        blockSummary(field, t);
        read++;
      }
      await turn();
    }
  }
  return read;
}

/** What {@link warmLongestLists} read. */
export interface ListsWarmed {
  lists: number;
  /** Bytes of documents and frequencies read. */
  bytes: number;
  /** Whether it stopped at its time budget, with long lists left unread. */
  stoppedAtBudget: boolean;
}

/**
 * Reads the longest postings lists of `segments` into the postings cache with their block
 * summaries, longest first, until `maxBytes` are read or `budgetMs` have passed (as Solr's
 * first-searcher warming does before a core serves). An index just opened has nothing in its
 * cache: the first searches for common words would each read and summarise lists of hundreds of
 * thousands of postings per segment. Lists shorter than a long list's summary threshold are left
 * to the queries: they read quickly.
 */
export async function warmLongestLists(segments: readonly CompactSegment[], { budgetMs, maxBytes }: { budgetMs: number; maxBytes: number }): Promise<ListsWarmed> {
  const started = performance.now();
  const lists: Array<{ field: FieldPostings; t: number; length: number }> = [];
  for (const segment of segments) for (const field of segment.fields) for (const list of longLists(field)) lists.push(list);
  lists.sort((a, b) => b.length - a.length);
  const warmed: ListsWarmed = { lists: 0, bytes: 0, stoppedAtBudget: false };
  const turn = timeSlices(SLICE_MS);
  for (const { field, t, length } of lists) {
    const bytes = length * (Int32Array.BYTES_PER_ELEMENT + Uint16Array.BYTES_PER_ELEMENT);
    if (warmed.bytes + bytes > maxBytes) continue;
    if (performance.now() - started >= budgetMs) {
      warmed.stoppedAtBudget = true;
      break;
    }
    termPostings(field, t);
    blockSummary(field, t);
    warmed.lists++;
    warmed.bytes += bytes;
    await turn();
  }
  return warmed;
}

/**
 * The terms with the most postings in the body of the largest segment, most first, at most
 * `count`, each with at least a long list's postings: what queries made to warm a start are made
 * of (a small index has none, and nothing to warm).
 */
export function frequentTerms(segments: readonly CompactSegment[], count: number): string[] {
  const body = FIELD_NAMES.indexOf('body');
  let largest: CompactSegment | undefined;
  for (const segment of segments) if (largest === undefined || segment.docIds.length > largest.docIds.length) largest = segment;
  if (largest === undefined) return [];
  const long = longLists(largest.fields[body]).sort((a, b) => b.length - a.length || a.t - b.t);
  return long.slice(0, count).map(({ t }) => largest.terms.at(t));
}

/** The field's terms with at least a long list's postings, in term order. */
function longLists(field: FieldPostings): Array<{ field: FieldPostings; t: number; length: number }> {
  const { offsets } = field;
  const lists: Array<{ field: FieldPostings; t: number; length: number }> = [];
  for (let t = 0; t + 1 < offsets.length; t++) {
    const length = offsets[t + 1] - offsets[t];
    if (length >= LONG_LIST) lists.push({ field, t, length });
  }
  return lists;
}
