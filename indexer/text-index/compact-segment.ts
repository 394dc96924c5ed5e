/**
 * The query-time form of a segment: typed-array postings (see postings-builder.ts). lunr's own
 * objects (one JS object per posting, one Vector per field of every document) would take over a
 * gigabyte at 100k pages and score each query with per-segment statistics; these arrays take a
 * fraction of that and let the scorer apply collection-wide statistics.
 */

/** Postings of one field, grouped by term (term t's postings are offsets[t] .. offsets[t+1]). */
export interface FieldPostings {
  offsets: Int32Array;
  /** Document ordinals, ascending within a term. */
  docs: Int32Array;
  tf: Uint16Array;
  /** Posting p's token ordinals are positions[positionOffsets[p] .. positionOffsets[p+1]]. */
  positionOffsets: Int32Array;
  /** 16 bits while every position of the field fits (most segments), 32 when a long page needs them. */
  positions: Uint16Array | Uint32Array;
  /** Field length (indexed terms, stop words excluded) per document ordinal. */
  lengths: Uint32Array;
}

export interface CompactSegment {
  name: string;
  /** Page id of each document ordinal, ascending. */
  docIds: Int32Array;
  /** The segment's terms, sorted (code-unit order, like lunr's JSON). */
  terms: string[];
  /** Parallel to FIELD_NAMES. */
  fields: FieldPostings[];
  /** Each document's language (`en` for documents that named none). */
  docLangs: string[];
  /** Words as written (lower-cased), sorted, whose terms differ from them (stemmed words). */
  surfaces: SurfaceWords;
}

/**
 * Surface word s indexes the term numbers termIds[offsets[s] .. offsets[s+1]] (one per language
 * its pages analyse it in), so a typed prefix finds words whose stem is shorter than the prefix.
 */
export interface SurfaceWords {
  words: string[];
  offsets: Int32Array;
  termIds: Int32Array;
}

export const noSurfaceWords = (): SurfaceWords => ({ words: [], offsets: new Int32Array(1), termIds: new Int32Array(0) });

// Queries ask the same few terms of every segment again and again (scoring, required clauses,
// matched terms, passages): remember the answers per segment, up to a bound.
const termNumberCaches = new WeakMap<CompactSegment, Map<string, number>>();
const TERM_NUMBER_CACHE_SIZE = 4_096;

/** A term's number in a segment; -1 when absent. */
export function termNumber(segment: CompactSegment, term: string): number {
  let cache = termNumberCaches.get(segment);
  if (cache === undefined) termNumberCaches.set(segment, (cache = new Map()));
  let number = cache.get(term);
  if (number === undefined) {
    number = searchTerm(segment.terms, term);
    if (cache.size >= TERM_NUMBER_CACHE_SIZE) cache.clear();
    cache.set(term, number);
  }
  return number;
}

/** Binary search in sorted terms; -1 when absent. */
function searchTerm(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const probe = terms[mid];
    if (probe < term) lo = mid + 1;
    else if (probe > term) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Index of `ordinal` in docs[from..to) (ascending), or -1. */
export function findPosting(docs: Int32Array, from: number, to: number, ordinal: number): number {
  let lo = from;
  let hi = to - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const probe = docs[mid];
    if (probe < ordinal) lo = mid + 1;
    else if (probe > ordinal) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** The typed arrays of a segment, for zero-copy transfer from a worker. */
export function segmentBuffers(segment: CompactSegment): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [segment.docIds.buffer as ArrayBuffer, segment.surfaces.offsets.buffer as ArrayBuffer, segment.surfaces.termIds.buffer as ArrayBuffer];
  for (const field of segment.fields) {
    for (const array of [field.offsets, field.docs, field.tf, field.positionOffsets, field.positions, field.lengths]) {
      buffers.push(array.buffer as ArrayBuffer);
    }
  }
  return buffers;
}
