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
  maxFrequency: Uint32Array;
  minLength: Uint32Array;
  /** The same over the whole list: what bounds any of its weights. */
  listMaxFrequency: number;
  listMinLength: number;
}

/**
 * Summaries kept in one growing array per field and kind, at offsets by term: a summary is
 * `[blocks, listMaxFrequency, listMinLength, lastDoc × blocks, maxFrequency × blocks,
 * minLength × blocks]`. Its arrays are views made on each use. An object and three typed arrays
 * (each with its buffer) per summary were, at a million pages, about 120,000 objects that every
 * full collection marked.
 */
class SummaryPool {
  words = new Uint32Array(1024);
  used = 0;
  readonly at = new Map<number, number>();

  /** Term `t`'s summary of its postings: computed into the array, its offset kept. */
  add(t: number, postings: TermPostings, lengths: Uint32Array): number {
    const offset = this.used;
    const length = 3 + 3 * Math.ceil(postings.docs.length / BLOCK_SIZE);
    if (offset + length > this.words.length) {
      // A new buffer: views made from the old one stay valid (and unchanged) while held.
      const larger = new Uint32Array(Math.max(this.words.length * 2, offset + length));
      larger.set(this.words.subarray(0, offset));
      this.words = larger;
    }
    summarise(postings, lengths, this.words.subarray(offset, offset + length));
    this.used = offset + length;
    this.at.set(t, offset);
    return offset;
  }

  view(offset: number): BlockSummary {
    const { words } = this;
    const blocks = words[offset];
    const start = words.byteOffset + (offset + 3) * 4;
    return {
      lastDoc: new Int32Array(words.buffer, start, blocks),
      maxFrequency: new Uint32Array(words.buffer, start + blocks * 4, blocks),
      minLength: new Uint32Array(words.buffer, start + blocks * 8, blocks),
      listMaxFrequency: words[offset + 1],
      listMinLength: words[offset + 2],
    };
  }
}

/**
 * Summaries of short lists are bounded like the term-number cache (the terms a workload asks for
 * again and again stay). Those of long lists, which cost the most to make again, are kept while
 * the segment lives: they take about a fortieth of their lists' bytes.
 */
const summaries = new WeakMap<FieldPostings, { short: SummaryPool; long: SummaryPool }>();
const SHORT_SUMMARIES_PER_FIELD = 4_096;
/** Lists of at least this many postings keep their summaries. */
export const LONG_LIST = 16 * BLOCK_SIZE;

/** The block summary of term number `t` in a field (computed once, then kept). */
export function blockSummary(field: FieldPostings, t: number): BlockSummary {
  let pools = summaries.get(field);
  if (pools === undefined) summaries.set(field, (pools = { short: new SummaryPool(), long: new SummaryPool() }));
  const long = field.offsets[t + 1] - field.offsets[t] >= LONG_LIST;
  if (!long && pools.short.at.size >= SHORT_SUMMARIES_PER_FIELD && !pools.short.at.has(t)) pools.short = new SummaryPool();
  const pool = long ? pools.long : pools.short;
  const offset = pool.at.get(t) ?? pool.add(t, termPostings(field, t), field.lengths);
  return pool.view(offset);
}

/** Writes a summary's words (see {@link SummaryPool}) into `words`, of the length it takes. */
function summarise({ docs, tf }: TermPostings, lengths: Uint32Array, words: Uint32Array): void {
  const to = docs.length;
  const count = Math.ceil(to / BLOCK_SIZE);
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
    words[3 + b] = docs[end - 1];
    words[3 + count + b] = frequency;
    words[3 + 2 * count + b] = length;
    if (frequency > listMaxFrequency) listMaxFrequency = frequency;
    if (length < listMinLength) listMinLength = length;
  }
  words[0] = count;
  words[1] = listMaxFrequency;
  words[2] = listMinLength;
}
