/**
 * The query-time form of a segment: typed-array postings (see postings-builder.ts). lunr's own
 * objects (one JS object per posting, one Vector per field of every document) would take over a
 * gigabyte at 100k pages and score each query with per-segment statistics; these arrays take a
 * fraction of that and let the scorer apply collection-wide statistics.
 */
import { readPostingPositions, readTermPositions, readTermPostings, type PagedField, type TermPositions, type TermPostings } from './paged-postings.ts';
import type { LanguageColumn } from './language-column.ts';
import { emptyDictionary, type TermDictionary } from './term-dictionary.ts';

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
  /**
   * Set when the field's postings stay in the segment's file (paged-postings.ts): `docs`, `tf`,
   * `positionOffsets` and `positions` are then empty, and a term's are read on demand. Read them
   * through {@link termPostings} and {@link termPositions}, which serve both forms.
   */
  paged?: PagedField;
}

export interface CompactSegment {
  name: string;
  /** Page id of each document ordinal, ascending. */
  docIds: Int32Array;
  /** The segment's terms, sorted (code-unit order, like lunr's JSON), as bytes (term-dictionary.ts). */
  terms: TermDictionary;
  /** Parallel to FIELD_NAMES. */
  fields: FieldPostings[];
  /** Each document's language (`en` for documents that named none). */
  docLangs: LanguageColumn;
  /** Words as written (lower-cased), sorted, whose terms differ from them (stemmed words). */
  surfaces: SurfaceWords;
}

/** Term `t`'s documents and frequencies in a field (views of the arrays, or read from the file). */
export function termPostings(field: FieldPostings, t: number): TermPostings {
  const from = field.offsets[t];
  const end = field.offsets[t + 1];
  if (field.paged !== undefined) return from === end ? NO_POSTINGS : readTermPostings(field.paged, t, from, end);
  return { docs: field.docs.subarray(from, end), tf: field.tf.subarray(from, end) };
}

/** Term `t`'s word positions in a field, by posting (see {@link TermPositions}). */
export function termPositions(field: FieldPostings, t: number): TermPositions {
  const from = field.offsets[t];
  const end = field.offsets[t + 1];
  if (field.paged !== undefined) return readTermPositions(field.paged, t, from, end);
  return { starts: field.positionOffsets.subarray(from, end + 1), base: 0, positions: field.positions };
}

/** The word positions of the posting of term `t` for the document at `ordinal` (empty without one). */
export function postingPositions(field: FieldPostings, t: number, ordinal: number): Uint16Array | Uint32Array {
  const from = field.offsets[t];
  const { docs } = termPostings(field, t);
  const i = findPosting(docs, 0, docs.length, ordinal);
  if (i < 0) return field.positions.subarray(0, 0);
  return positionsOfPosting(field, from + i);
}

/** The word positions of posting `p` (its index in the field's arrays), read uncached when paged. */
export function positionsOfPosting(field: FieldPostings, p: number): Uint16Array | Uint32Array {
  if (field.paged !== undefined) return readPostingPositions(field.paged, p);
  return field.positions.subarray(field.positionOffsets[p], field.positionOffsets[p + 1]);
}

const NO_POSTINGS: TermPostings = { docs: new Int32Array(0), tf: new Uint16Array(0) };

/**
 * Surface word s indexes the term numbers termIds[offsets[s] .. offsets[s+1]] (one per language
 * its pages analyse it in), so a typed prefix finds words whose stem is shorter than the prefix.
 */
export interface SurfaceWords {
  words: TermDictionary;
  offsets: Int32Array;
  termIds: Int32Array;
}

export const noSurfaceWords = (): SurfaceWords => ({ words: emptyDictionary(), offsets: new Int32Array(1), termIds: new Int32Array(0) });

export type { TermPositions, TermPostings } from './paged-postings.ts';

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
    number = segment.terms.find(term);
    if (cache.size >= TERM_NUMBER_CACHE_SIZE) cache.clear();
    cache.set(term, number);
  }
  return number;
}

/** The terms recently asked of a segment (those it holds), most recent last: what a segment that replaces it will be asked. */
export function askedTerms(segment: CompactSegment): string[] {
  const cache = termNumberCaches.get(segment);
  return cache === undefined ? [] : [...cache].filter(([, t]) => t >= 0).map(([term]) => term);
}

/** Term `t`'s postings over every field of a segment, deleted pages included (lunr counts a page once per field that has the term). */
export function postingCount(segment: CompactSegment, t: number): number {
  let count = 0;
  for (const field of segment.fields) count += field.offsets[t + 1] - field.offsets[t];
  return count;
}

/** Whether term `t` has a posting for the document at `ordinal` in a field. */
export function hasPosting(field: FieldPostings, t: number, ordinal: number): boolean {
  if (field.offsets[t] === field.offsets[t + 1]) return false;
  const { docs } = termPostings(field, t);
  return findPosting(docs, 0, docs.length, ordinal) >= 0;
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
