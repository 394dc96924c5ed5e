/**
 * Per-block summaries of a term's postings in one field, for dynamic pruning: for each block of
 * {@link BLOCK_SIZE} postings, its last document, its largest term frequency and its shortest
 * field length. A posting's BM25 weight grows with the frequency and shrinks with the length, so
 * the weight of (largest frequency, shortest length) bounds every weight of the block whatever the
 * collection-wide statistics are. That keeps the summaries valid across updates (which change idf
 * and average lengths but never a segment's postings), so they are computed on a term's first use
 * in a segment and kept with the segment, and the postings file stays as it is.
 */
import { termPostings, type FieldPostings, type TermPostings } from './compact-segment.ts';

export const BLOCK_SIZE = 64;

export interface BlockSummary {
  /** Last document ordinal of each block (ascending). */
  lastDoc: Int32Array;
  maxFrequency: Uint16Array;
  minLength: Uint32Array;
  /** The same over the whole list: what bounds any of its weights. */
  listMaxFrequency: number;
  listMinLength: number;
}

/**
 * Summaries of short lists are bounded like the term-number cache (the terms a workload asks for
 * again and again stay). Those of long lists, which cost the most to make again, are kept while
 * the segment lives: they take about a fortieth of their lists' bytes.
 */
const summaries = new WeakMap<FieldPostings, { short: Map<number, BlockSummary>; long: Map<number, BlockSummary> }>();
const SHORT_SUMMARIES_PER_FIELD = 4_096;
/** Lists of at least this many postings keep their summaries. */
export const LONG_LIST = 16 * BLOCK_SIZE;

/** The block summary of term number `t` in a field (computed once, then cached). */
export function blockSummary(field: FieldPostings, t: number): BlockSummary {
  let cache = summaries.get(field);
  if (cache === undefined) summaries.set(field, (cache = { short: new Map(), long: new Map() }));
  const long = field.offsets[t + 1] - field.offsets[t] >= LONG_LIST;
  const kept = long ? cache.long : cache.short;
  let summary = kept.get(t);
  if (summary === undefined) {
    summary = summarise(termPostings(field, t), field.lengths);
    if (!long && kept.size >= SHORT_SUMMARIES_PER_FIELD) kept.clear();
    kept.set(t, summary);
  }
  return summary;
}

function summarise({ docs, tf }: TermPostings, lengths: Uint32Array): BlockSummary {
  const to = docs.length;
  const count = Math.ceil(to / BLOCK_SIZE);
  const lastDoc = new Int32Array(count);
  const maxFrequency = new Uint16Array(count);
  const minLength = new Uint32Array(count);
  let listMaxFrequency = 0;
  let listMinLength = 0xffffffff;
  for (let b = 0; b < count; b++) {
    const start = b * BLOCK_SIZE;
    const end = Math.min(to, start + BLOCK_SIZE);
    let frequency = 0;
    let length = 0xffffffff;
    for (let p = start; p < end; p++) {
      if (tf[p] > frequency) frequency = tf[p];
      const l = lengths[docs[p]];
      if (l < length) length = l;
    }
    lastDoc[b] = docs[end - 1];
    maxFrequency[b] = frequency;
    minLength[b] = length;
    if (frequency > listMaxFrequency) listMaxFrequency = frequency;
    if (length < listMinLength) listMinLength = length;
  }
  return { lastDoc, maxFrequency, minLength, listMaxFrequency, listMinLength };
}
