/**
 * The query-time form of a segment: typed-array postings derived from its lunr JSON. lunr's own
 * objects (one JS object per posting, one Vector per field of every document) would take over a
 * gigabyte at 100k pages and score each query with per-segment statistics; these arrays take a
 * fraction of that and let the scorer apply collection-wide statistics.
 */
import { FIELD_NAMES } from './document.ts';
import { IndexCorruptError } from './errors.ts';
import type { LunrIndexJson } from './lunr-segment.ts';

/** Postings of one field, grouped by term (term t's postings are offsets[t] .. offsets[t+1]). */
export interface FieldPostings {
  offsets: Int32Array;
  /** Document ordinals, ascending within a term. */
  docs: Int32Array;
  tf: Uint16Array;
  /** Posting p's token ordinals are positions[positionOffsets[p] .. positionOffsets[p+1]]. */
  positionOffsets: Int32Array;
  positions: Uint16Array;
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
}

const MAX_U16 = 0xffff;

/** Converts a lunr index JSON (built with the `index` metadata whitelisted) to postings arrays. */
export function compactSegment(name: string, docIds: readonly number[], json: LunrIndexJson): CompactSegment {
  const fieldNames = json.fields;
  if (fieldNames.length !== FIELD_NAMES.length || fieldNames.some((field, i) => field !== FIELD_NAMES[i])) {
    throw new IndexCorruptError(`segment ${name}: fields ${fieldNames.join(',')} are not ${FIELD_NAMES.join(',')}`);
  }
  const ordinalOf = new Map<string, number>();
  docIds.forEach((id, ordinal) => ordinalOf.set(String(id), ordinal));
  const terms = json.invertedIndex.map(([term]) => term);
  for (let t = 1; t < terms.length; t++) {
    if (!(terms[t - 1] < terms[t])) throw new IndexCorruptError(`segment ${name}: terms are not sorted at ${terms[t]}`);
  }
  const fields = fieldNames.map((field) => compactField(name, field, json, ordinalOf, docIds.length));
  return { name, docIds: Int32Array.from(docIds), terms, fields };
}

function compactField(
  segment: string,
  field: string,
  json: LunrIndexJson,
  ordinalOf: Map<string, number>,
  docCount: number,
): FieldPostings {
  // First pass: sizes, so that every array is allocated once.
  let postingCount = 0;
  let positionCount = 0;
  for (const [, posting] of json.invertedIndex) {
    const byDoc = posting[field] as Record<string, { index?: number[] }>;
    for (const ref in byDoc) {
      postingCount++;
      positionCount += byDoc[ref].index?.length ?? 1;
    }
  }
  const offsets = new Int32Array(json.invertedIndex.length + 1);
  const docs = new Int32Array(postingCount);
  const tf = new Uint16Array(postingCount);
  const positionOffsets = new Int32Array(postingCount + 1);
  const positions = new Uint16Array(positionCount);
  const lengths = new Uint32Array(docCount);
  let p = 0;
  let q = 0;
  json.invertedIndex.forEach(([term, posting], t) => {
    offsets[t] = p;
    const byDoc = posting[field] as Record<string, { index?: number[] }>;
    const start = p;
    for (const ref in byDoc) {
      const ordinal = ordinalOf.get(ref);
      if (ordinal === undefined) throw new IndexCorruptError(`segment ${segment}: term ${term} names unknown document ${ref}`);
      const occurrences = byDoc[ref].index;
      if (occurrences === undefined) throw new IndexCorruptError(`segment ${segment} was built without token positions`);
      docs[p] = ordinal;
      tf[p] = Math.min(occurrences.length, MAX_U16);
      lengths[ordinal] += occurrences.length;
      positionOffsets[p] = q;
      for (const position of occurrences) positions[q++] = Math.min(position, MAX_U16);
      p++;
    }
    // Integer-like keys enumerate in ascending order, so this holds for our refs; check anyway.
    for (let i = start + 1; i < p; i++) {
      if (docs[i - 1] >= docs[i]) throw new IndexCorruptError(`segment ${segment}: postings of ${term} are not in document order`);
    }
  });
  offsets[json.invertedIndex.length] = p;
  positionOffsets[p] = q;
  return { offsets, docs, tf, positionOffsets, positions, lengths };
}

/** Binary search for a term's number in a segment; -1 when absent. */
export function termNumber(segment: CompactSegment, term: string): number {
  const { terms } = segment;
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
  const buffers: ArrayBuffer[] = [segment.docIds.buffer as ArrayBuffer];
  for (const field of segment.fields) {
    for (const array of [field.offsets, field.docs, field.tf, field.positionOffsets, field.positions, field.lengths]) {
      buffers.push(array.buffer as ArrayBuffer);
    }
  }
  return buffers;
}
