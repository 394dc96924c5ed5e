/**
 * Live document frequencies: how many of a segment's live pages hold a term, the `df` of BM25's
 * global statistics. A segment without deletions answers from its term offsets; one with
 * deletions must take its deleted pages out of each list, a pass per term, so the counts are kept
 * with the snapshot's segment. An update that deletes pages of a segment makes a new snapshot of it
 * with nothing kept: {@link warmLiveFrequencies} counts the terms recently asked of it before the
 * commit makes it visible, rather than in the first searches after it.
 */
import { askedTerms, postingCount, termNumber, termPostings } from './compact-segment.ts';
import { seek } from './ordinal-lists.ts';
import { deletedOrdinalsOf, type LiveSegment } from './segment-set.ts';
import { timeSlices } from '../stepwise.ts';

/** Counts kept per segment snapshot (all dropped when full). */
const KEPT = 65_536;
/** At most this many of a segment's recently asked terms are counted ahead (the most recent). */
const WARMED_TERMS = 4_096;
/** Longest stretch of counting between two turns of the event loop. */
const SLICE_MS = 4;

/** Live pages of `segment` that hold `term`, a page once per field that has it (as lunr counts). */
export function liveDocumentFrequency(segment: LiveSegment, term: string): number {
  const postings = segment.stored.postings;
  const t = termNumber(postings, term);
  if (t < 0) return 0;
  if (segment.deleted === null) return postingCount(postings, t);
  const known = segment.liveFrequencies?.get(term);
  if (known !== undefined) return known;
  let df = 0;
  for (const field of postings.fields) {
    const count = field.offsets[t + 1] - field.offsets[t];
    df += count === 0 ? 0 : count - deletedPostings(segment, termPostings(field, t).docs);
  }
  const frequencies = (segment.liveFrequencies ??= new Map());
  if (frequencies.size >= KEPT) frequencies.clear();
  frequencies.set(term, df);
  return df;
}

/**
 * Counts ahead, in turns of the event loop, the live frequencies of the terms recently asked of
 * each segment of `segments` that has deletions and is not in `previous` (a snapshot that a commit
 * is about to make visible). Returns how many terms were counted.
 */
export async function warmLiveFrequencies(segments: readonly LiveSegment[], previous: readonly LiveSegment[]): Promise<number> {
  const visible = new Set(previous);
  const turn = timeSlices(SLICE_MS);
  let counted = 0;
  for (const segment of segments) {
    if (segment.deleted === null || visible.has(segment)) continue;
    for (const term of askedTerms(segment.stored.postings).slice(-WARMED_TERMS)) {
      liveDocumentFrequency(segment, term);
      counted++;
      await turn();
    }
  }
  return counted;
}

/**
 * How many of a term's postings are deleted documents. Updates delete a few pages of a large
 * segment, so the deleted ordinals are looked up in the postings (galloping) rather than every
 * posting in the deletions: a query's terms in every segment of a million pages, each time.
 */
function deletedPostings(segment: LiveSegment, docs: Int32Array): number {
  const deleted = deletedOrdinalsOf(segment);
  let found = 0;
  if (deleted.length * 8 < docs.length) {
    let p = 0;
    for (let i = 0; i < deleted.length && p < docs.length; i++) {
      p = seek(docs, p, docs.length, deleted[i]);
      if (p < docs.length && docs[p] === deleted[i]) found++;
    }
  } else {
    const flags = segment.deleted!;
    for (let p = 0; p < docs.length; p++) found += flags[docs[p]];
  }
  return found;
}
