/**
 * An immutable snapshot of the index: its segments, which of their documents are deleted, and the
 * collection-wide statistics the scorer needs. Queries take one snapshot and never see it change;
 * writers build a new one and swap it in ({@link IndexHandle}).
 */
import type { CompactSegment } from './compact-segment.ts';
import { FIELD_NAMES } from './document.ts';
import type { LanguageColumn } from './language-column.ts';
import type { StoredSegment } from './segment-files.ts';

export interface LiveSegment {
  stored: StoredSegment;
  /** deleted[ordinal] = 1 for deleted documents; null when none are. */
  deleted: Uint8Array | null;
  deletedCount: number;
  /** The deleted ordinals, ascending (made on first use by {@link deletedOrdinalsOf}). */
  deletedOrdinals: Int32Array | undefined;
  /** Live document frequencies of the terms queries asked for (kept with the snapshot's segment; deletions make them cost a pass). */
  liveFrequencies: Map<string, number> | undefined;
}

export interface DocumentLocation {
  segment: LiveSegment;
  ordinal: number;
}

export interface SegmentSet {
  generation: number;
  segments: readonly LiveSegment[];
  /** Live documents. */
  documentCount: number;
  /** Sum of live documents' field lengths, per field (parallel to FIELD_NAMES). */
  fieldLengthSums: Float64Array;
  /** Where each live document is. */
  locations: DocumentLocations;
  /** Languages of the live documents, with their counts (queries are analysed in these). */
  languages: ReadonlyMap<string, number>;
}

export function postingsOf(segment: LiveSegment): CompactSegment {
  return segment.stored.postings;
}

/** A live segment with the given page ids marked deleted (ids not in the segment are ignored). */
export function withDeletions(stored: StoredSegment, deletedIds: Iterable<number>, previous?: Uint8Array | null): LiveSegment {
  const { docIds } = stored.postings;
  const deleted = previous ? previous.slice() : new Uint8Array(docIds.length);
  for (const id of deletedIds) {
    const ordinal = ordinalOf(docIds, id);
    if (ordinal >= 0) deleted[ordinal] = 1;
  }
  let deletedCount = 0;
  for (let i = 0; i < deleted.length; i++) deletedCount += deleted[i];
  return liveSegment(stored, deletedCount > 0 ? deleted : null, deletedCount);
}

/**
 * Every live segment is made here, with all its fields, so that all have one shape (hidden class).
 * Fields added on first use gave the first segment with deletions a shape of its own, and at the
 * first update of a server the whole search path (a dozen functions compiled for the one shape)
 * was thrown away and ran in the interpreter until compiled again: the searches right after the
 * commit took several times their usual time.
 */
function liveSegment(stored: StoredSegment, deleted: Uint8Array | null, deletedCount: number): LiveSegment {
  return { stored, deleted, deletedCount, deletedOrdinals: undefined, liveFrequencies: undefined };
}

/** The segment's deleted ordinals, ascending, kept with it (a snapshot's deletions never change). */
export function deletedOrdinalsOf(segment: LiveSegment): Int32Array {
  if (segment.deletedOrdinals) return segment.deletedOrdinals;
  const ordinals = new Int32Array(segment.deletedCount);
  const { deleted } = segment;
  if (deleted) for (let i = 0, n = 0; i < deleted.length; i++) if (deleted[i]) ordinals[n++] = i;
  return (segment.deletedOrdinals = ordinals);
}

export function liveCount(segment: LiveSegment): number {
  return segment.stored.postings.docIds.length - segment.deletedCount;
}

/** Page ids of a segment's deleted documents, ascending. */
export function deletedIds(segment: LiveSegment): number[] {
  const { docIds } = segment.stored.postings;
  return Array.from(deletedOrdinalsOf(segment), (ordinal) => docIds[ordinal]);
}

export function makeSegmentSet(generation: number, segments: readonly LiveSegment[]): SegmentSet {
  const fieldLengthSums = new Float64Array(FIELD_NAMES.length);
  const languages = new Map<string, number>();
  let documentCount = 0;
  for (const segment of segments) {
    const stats = segmentStatistics(segment);
    documentCount += stats.liveCount;
    for (let f = 0; f < fieldLengthSums.length; f++) fieldLengthSums[f] += stats.fieldLengthSums[f] ?? 0;
    for (const [lang, count] of stats.languages) languages.set(lang, (languages.get(lang) ?? 0) + count);
  }
  return { generation, segments, documentCount, fieldLengthSums, locations: new DocumentLocations(segments), languages };
}

interface SegmentStatistics {
  liveCount: number;
  fieldLengthSums: Float64Array;
  /** Live documents per language of the segment's column. */
  languageCounts: Float64Array;
  languages: Map<string, number>;
}

// A segment's statistics are counted once: a commit that swaps one segment in recounts that one
// only, so the pause of a swap does not grow with the pages of the whole index. Every document of
// a stored segment is counted once too, and a segment with deletions takes its deleted documents
// off that count: an update that deletes a few pages in each of ten segments of 100k pages
// counts those pages, not a million (lengths are integers: the sums stay exact).
const statisticsCache = new WeakMap<LiveSegment, SegmentStatistics>();
const storedStatisticsCache = new WeakMap<object, SegmentStatistics>();

function segmentStatistics(segment: LiveSegment): SegmentStatistics {
  let stats = statisticsCache.get(segment);
  if (stats) return stats;
  const all = storedStatistics(segment);
  if (segment.deleted === null) stats = all;
  else {
    const { fields, docLangs } = segment.stored.postings;
    const languageCounts = all.languageCounts.slice();
    const fieldLengthSums = all.fieldLengthSums.slice();
    const deleted = deletedOrdinalsOf(segment);
    for (let i = 0; i < deleted.length; i++) languageCounts[docLangs.codes[deleted[i]]]--;
    for (let f = 0; f < fields.length; f++) {
      const { lengths } = fields[f];
      for (let i = 0; i < deleted.length; i++) fieldLengthSums[f] -= lengths[deleted[i]];
    }
    stats = { liveCount: all.liveCount - deleted.length, fieldLengthSums, languageCounts, languages: languageMap(docLangs, languageCounts, segment.deleted) };
  }
  statisticsCache.set(segment, stats);
  return stats;
}

function storedStatistics(segment: LiveSegment): SegmentStatistics {
  let stats = storedStatisticsCache.get(segment.stored);
  if (stats) return stats;
  const { docIds, fields, docLangs } = segment.stored.postings;
  const fieldLengthSums = new Float64Array(fields.length);
  for (let f = 0; f < fields.length; f++) {
    const { lengths } = fields[f];
    let sum = 0;
    for (let ordinal = 0; ordinal < docIds.length; ordinal++) sum += lengths[ordinal];
    fieldLengthSums[f] = sum;
  }
  const languageCounts = new Float64Array(docLangs.languages.length);
  const { codes } = docLangs;
  for (let ordinal = 0; ordinal < docIds.length; ordinal++) languageCounts[codes[ordinal]]++;
  stats = { liveCount: docIds.length, fieldLengthSums, languageCounts, languages: languageMap(docLangs, languageCounts, null) };
  storedStatisticsCache.set(segment.stored, stats);
  return stats;
}

/**
 * The languages with live documents and their counts, in the order of their first live document
 * (as a count of the live documents gives them).
 */
function languageMap(column: LanguageColumn, counts: Float64Array, deleted: Uint8Array | null): Map<string, number> {
  const languages = new Map<string, number>();
  let wanted = 0;
  for (const count of counts) if (count > 0) wanted++;
  const { codes } = column;
  for (let ordinal = 0; ordinal < codes.length && languages.size < wanted; ordinal++) {
    if (deleted?.[ordinal]) continue;
    const lang = column.languages[codes[ordinal]];
    if (!languages.has(lang)) languages.set(lang, counts[codes[ordinal]]);
  }
  return languages;
}

/**
 * Where each live page is, found by a binary search in each segment's ascending ids (a page is
 * live in one segment at most). No map of every page: building one took a pause proportional
 * to the whole index at every swap, and memory per page.
 */
export class DocumentLocations {
  constructor(private readonly segments: readonly LiveSegment[]) {}

  get(id: number): DocumentLocation | undefined {
    // Newest segments last: a page updated recently is found first.
    for (let s = this.segments.length - 1; s >= 0; s--) {
      const segment = this.segments[s];
      const ordinal = ordinalOf(segment.stored.postings.docIds, id);
      if (ordinal >= 0 && !segment.deleted?.[ordinal]) return { segment, ordinal };
    }
    return undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  /** Ids of the live pages, segment by segment. */
  *keys(): IterableIterator<number> {
    for (const segment of this.segments) {
      const { docIds } = segment.stored.postings;
      for (let ordinal = 0; ordinal < docIds.length; ordinal++) if (!segment.deleted?.[ordinal]) yield docIds[ordinal];
    }
  }
}

/** Binary search of a page id among a segment's ascending ids; -1 when absent. */
export function ordinalOf(docIds: Int32Array, id: number): number {
  let lo = 0;
  let hi = docIds.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (docIds[mid] < id) lo = mid + 1;
    else if (docIds[mid] > id) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/**
 * Holds the current snapshot. `current` is replaced in one assignment, so a query that read it
 * keeps a consistent view while a rebuild or merge swaps in the next generation.
 */
export class IndexHandle {
  private snapshot: SegmentSet;

  constructor(initial: SegmentSet) {
    this.snapshot = initial;
  }

  get current(): SegmentSet {
    return this.snapshot;
  }

  swap(next: SegmentSet): SegmentSet {
    const previous = this.snapshot;
    this.snapshot = next;
    return previous;
  }
}
