/**
 * Merges the postings of several segments into one without analysing any text again: the live
 * documents of all sources, in ascending page id (the merged ordinals), the union of their terms
 * in code-unit order, and for each term and field the sources' postings with ordinals remapped,
 * deleted documents left out, and positions copied. A term that only deleted documents used is
 * dropped, so the merged postings are those a fresh build over the same live documents counts.
 * (Written-word lists keep the words of deleted documents whose terms are still live: they only
 * widen prefix suggestions, as they do in a segment with deletions.)
 */
import type { CompactSegment, FieldPostings, SurfaceWords } from './compact-segment.ts';
import { gatheredLanguageColumn, type LanguageColumn } from './language-column.ts';
import { DictionaryBuilder, type TermDictionary } from './term-dictionary.ts';

export interface MergeSource {
  postings: CompactSegment;
  /** deleted[ordinal] = 1 for documents left out; null when none are. */
  deleted: Uint8Array | null;
}

export interface MergedPostings {
  postings: CompactSegment;
  /** For each merged ordinal, the source it comes from and its ordinal there. */
  sourceOf: Int32Array;
  sourceOrdinal: Int32Array;
}

const MAX_U16 = 0xffff;

export function mergePostings(name: string, sources: readonly MergeSource[]): MergedPostings {
  const plan = planMerge(name, sources);
  const { docIds, terms, docLangs, surfaces, sourceOf, sourceOrdinal } = plan;
  const fields: FieldPostings[] = [];
  for (let f = 0; f < plan.fieldCount; f++) fields.push(mergeField(plan, f));
  return { postings: { name, docIds, terms, fields, docLangs, surfaces }, sourceOf, sourceOrdinal };
}

/** What a merge decides before it copies any posting: the merged documents, terms and written words. */
export interface MergePlan {
  name: string;
  sources: readonly MergeSource[];
  docIds: Int32Array;
  docLangs: LanguageColumn;
  terms: TermDictionary;
  surfaces: SurfaceWords;
  fieldCount: number;
  /** newOrdinals[s][ordinal]: the merged ordinal of a source's document, -1 when left out. */
  newOrdinals: Int32Array[];
  /** For each merged ordinal, the source it comes from and its ordinal there. */
  sourceOf: Int32Array;
  sourceOrdinal: Int32Array;
  /** sourceTerms[s][t]: merged term t's number in source s, -1 where the source lacks it. */
  sourceTerms: Int32Array[];
  /** The sources in the order their pages follow one another, or null when they interleave. */
  order: number[] | null;
}

export function planMerge(name: string, sources: readonly MergeSource[]): MergePlan {
  const { newOrdinals, sourceOf, sourceOrdinal } = mergeDocuments(sources);
  const docCount = sourceOf.length;
  const docIds = new Int32Array(docCount);
  for (let o = 0; o < docCount; o++) docIds[o] = sources[sourceOf[o]].postings.docIds[sourceOrdinal[o]];
  const docLangs = gatheredLanguageColumn(sources.map((source) => source.postings.docLangs), sourceOf, sourceOrdinal);
  const { terms, termMaps } = mergeTerms(sources, newOrdinals);
  const fieldCount = sources[0]?.postings.fields.length ?? 0;
  // Each merged term's number in each source (inverse of termMaps), -1 where a source lacks it.
  const sourceTerms = sources.map(() => new Int32Array(terms.length).fill(-1));
  termMaps.forEach((map, s) => map.forEach((number, t) => number >= 0 && (sourceTerms[s][number] = t)));
  const order = blockOrder(sourceOf, sources.length);
  const surfaces = mergeSurfaces(sources, termMaps);
  return { name, sources, docIds, docLangs, terms, surfaces, fieldCount, newOrdinals, sourceOf, sourceOrdinal, sourceTerms, order };
}

/** Live documents in ascending page id; newOrdinals[s][ordinal] is -1 for left-out documents. */
function mergeDocuments(sources: readonly MergeSource[]): { newOrdinals: Int32Array[]; sourceOf: Int32Array; sourceOrdinal: Int32Array } {
  const heads = sources.map(() => 0);
  const newOrdinals = sources.map((s) => new Int32Array(s.postings.docIds.length).fill(-1));
  let live = 0;
  for (const s of sources) for (let i = 0; i < s.postings.docIds.length; i++) if (!s.deleted?.[i]) live++;
  const sourceOf = new Int32Array(live);
  const sourceOrdinal = new Int32Array(live);
  for (let o = 0; o < live; o++) {
    let best = -1;
    let bestId = 0;
    for (let s = 0; s < sources.length; s++) {
      const { postings, deleted } = sources[s];
      while (heads[s] < postings.docIds.length && deleted?.[heads[s]]) heads[s]++;
      if (heads[s] < postings.docIds.length && (best < 0 || postings.docIds[heads[s]] < bestId)) {
        best = s;
        bestId = postings.docIds[heads[s]];
      }
    }
    sourceOf[o] = best;
    sourceOrdinal[o] = heads[best];
    newOrdinals[best][heads[best]++] = o;
  }
  return { newOrdinals, sourceOf, sourceOrdinal };
}

/**
 * The sorted union of the sources' terms that some live document uses; termMaps[s][t] = merged
 * number or -1. Terms are compared and copied as bytes: a merge makes no string per term.
 */
function mergeTerms(sources: readonly MergeSource[], newOrdinals: readonly Int32Array[]): { terms: TermDictionary; termMaps: Int32Array[] } {
  const termMaps = sources.map((s) => new Int32Array(s.postings.terms.length).fill(-1));
  const usedBy = sources.map((s, i) => liveTerms(s, newOrdinals[i]));
  const heads = sources.map(() => 0);
  const terms = new DictionaryBuilder();
  for (;;) {
    let least = -1;
    for (let s = 0; s < sources.length; s++) {
      const list = sources[s].postings.terms;
      while (heads[s] < list.length && !usedBy[s][heads[s]]) heads[s]++;
      if (heads[s] < list.length && (least < 0 || list.compareWith(heads[s], sources[least].postings.terms, heads[least]) < 0)) least = s;
    }
    if (least < 0) break;
    const number = terms.length;
    const leastTerms = sources[least].postings.terms;
    const leastAt = heads[least];
    terms.addEntry(leastTerms, leastAt);
    for (let s = 0; s < sources.length; s++) {
      const list = sources[s].postings.terms;
      if (heads[s] < list.length && list.compareWith(heads[s], leastTerms, leastAt) === 0) termMaps[s][heads[s]++] = number;
    }
  }
  return { terms: terms.done(), termMaps };
}

/** usedBy[t] = 1 when a live document of the source has term t in some field. */
function liveTerms(source: MergeSource, newOrdinals: Int32Array): Uint8Array {
  const used = new Uint8Array(source.postings.terms.length);
  for (const field of source.postings.fields) {
    for (let t = 0; t < used.length; t++) {
      if (used[t]) continue;
      for (let p = field.offsets[t]; p < field.offsets[t + 1]; p++) {
        if (newOrdinals[field.docs[p]] >= 0) {
          used[t] = 1;
          break;
        }
      }
    }
  }
  return used;
}

function mergeField(plan: MergePlan, f: number): FieldPostings {
  const { sources, sourceOf, sourceOrdinal } = plan;
  const inputs = sources.map((s) => s.postings.fields[f]);
  const termCount = plan.terms.length;
  let postingBound = 0;
  let positionBound = 0;
  let wide = false;
  for (const field of inputs) {
    postingBound += field.docs.length;
    positionBound += field.positions.length;
    if (field.positions.BYTES_PER_ELEMENT === 4) wide = true;
  }
  const out: FieldOutput = {
    docs: new Int32Array(postingBound),
    tf: new Uint16Array(postingBound),
    positionOffsets: new Int32Array(postingBound + 1),
    positions: wide ? new Uint32Array(positionBound) : new Uint16Array(positionBound),
    p: 0,
    q: 0,
  };
  const offsets = new Int32Array(termCount + 1);
  visitPostings(plan, f, (input, from, ordinal) => copyPosting(input, from, ordinal, out), (t) => (offsets[t] = out.p));
  const { p, q, positions } = out;
  offsets[termCount] = p;
  out.positionOffsets[p] = q;
  const lengths = new Uint32Array(sourceOf.length);
  for (let o = 0; o < sourceOf.length; o++) lengths[o] = inputs[sourceOf[o]].lengths[sourceOrdinal[o]];
  // Positions stay 32-bit only where a merged page needs them, as a fresh build would count them.
  let widest = 0;
  if (wide) for (let i = 0; i < q; i++) if (positions[i] > widest) widest = positions[i];
  const kept = wide && widest <= MAX_U16 ? Uint16Array.from(positions.subarray(0, q)) : positions.subarray(0, q);
  // Views, not copies: the arrays were sized for every source posting, deleted ones included.
  return { offsets, docs: out.docs.subarray(0, p), tf: out.tf.subarray(0, p), positionOffsets: out.positionOffsets.subarray(0, p + 1), positions: kept, lengths };
}

interface FieldOutput {
  docs: Int32Array;
  tf: Uint16Array;
  positionOffsets: Int32Array;
  positions: Uint16Array | Uint32Array;
  /** Postings and positions written so far. */
  p: number;
  q: number;
}

function copyPosting(input: FieldPostings, from: number, ordinal: number, out: FieldOutput): void {
  const { p } = out;
  out.docs[p] = ordinal;
  out.tf[p] = input.tf[from];
  out.positionOffsets[p] = out.q;
  const source = input.positions;
  const target = out.positions;
  let q = out.q;
  for (let i = input.positionOffsets[from], stop = input.positionOffsets[from + 1]; i < stop; i++) target[q++] = source[i];
  out.q = q;
  out.p = p + 1;
}

/**
 * The order in which the sources' pages follow one another when they do not interleave (each
 * source's live pages form one run of merged ordinals), or null when they do.
 */
function blockOrder(sourceOf: Int32Array, sourceCount: number): number[] | null {
  const order: number[] = [];
  const seen = new Uint8Array(sourceCount);
  for (let o = 0; o < sourceOf.length; o++) {
    const s = sourceOf[o];
    if (o > 0 && s === sourceOf[o - 1]) continue;
    if (seen[s]) return null;
    seen[s] = 1;
    order.push(s);
  }
  return order;
}

/**
 * The union of the sources' written words (a k-way merge of their sorted lists, compared as
 * bytes), with their terms renumbered (terms no live page uses left out, and words left with none).
 */
function mergeSurfaces(sources: readonly MergeSource[], termMaps: readonly Int32Array[]): SurfaceWords {
  const lists = sources.map((source) => source.postings.surfaces);
  const heads = lists.map(() => 0);
  const words = new DictionaryBuilder();
  const offsets: number[] = [0];
  const ids: number[] = [];
  for (;;) {
    let least = -1;
    for (let s = 0; s < lists.length; s++) {
      if (heads[s] < lists[s].words.length && (least < 0 || lists[s].words.compareWith(heads[s], lists[least].words, heads[least]) < 0)) least = s;
    }
    if (least < 0) break;
    const leastWords = lists[least].words;
    const leastAt = heads[least];
    const numbers = new Set<number>();
    for (let s = 0; s < lists.length; s++) {
      const { words: list, offsets: from, termIds } = lists[s];
      if (heads[s] >= list.length || list.compareWith(heads[s], leastWords, leastAt) !== 0) continue;
      const w = heads[s]++;
      for (let i = from[w]; i < from[w + 1]; i++) {
        const number = termMaps[s][termIds[i]];
        if (number >= 0) numbers.add(number);
      }
    }
    if (numbers.size === 0) continue;
    words.addEntry(leastWords, leastAt);
    for (const number of [...numbers].sort((a, b) => a - b)) ids.push(number);
    offsets.push(ids.length);
  }
  return { words: words.done(), offsets: Int32Array.from(offsets), termIds: Int32Array.from(ids) };
}

/** What a merge does with one posting: source field, its index there, the merged ordinal. */
export type PostingVisitor = (input: FieldPostings, from: number, ordinal: number) => void;

/**
 * Each posting of field f in merged order, `onTerm` before each term's: a term's postings are the
 * sources' in turn when their pages follow one another, else a k-way merge by merged ordinal.
 */
export function visitPostings(plan: MergePlan, f: number, visit: PostingVisitor, onTerm?: (t: number) => void): void {
  const { sources, newOrdinals, sourceTerms, order } = plan;
  const inputs = sources.map((s) => s.postings.fields[f]);
  const cursor = new Int32Array(sources.length);
  const end = new Int32Array(sources.length);
  for (let t = 0; t < plan.terms.length; t++) {
    onTerm?.(t);
    if (order) {
      // The sources' pages do not interleave: each term's postings are the sources' in turn.
      for (const s of order) {
        const st = sourceTerms[s][t];
        if (st < 0) continue;
        const input = inputs[s];
        const map = newOrdinals[s];
        for (let from = input.offsets[st], to = input.offsets[st + 1]; from < to; from++) {
          const ordinal = map[input.docs[from]];
          if (ordinal >= 0) visit(input, from, ordinal);
        }
      }
      continue;
    }
    for (let s = 0; s < sources.length; s++) {
      const st = sourceTerms[s][t];
      cursor[s] = st >= 0 ? inputs[s].offsets[st] : 0;
      end[s] = st >= 0 ? inputs[s].offsets[st + 1] : 0;
    }
    // k-way merge by merged ordinal (the remapping keeps each source's order).
    for (;;) {
      let best = -1;
      let bestOrdinal = 0;
      for (let s = 0; s < sources.length; s++) {
        const map = newOrdinals[s];
        const sourceDocs = inputs[s].docs;
        while (cursor[s] < end[s] && map[sourceDocs[cursor[s]]] < 0) cursor[s]++;
        if (cursor[s] < end[s]) {
          const ordinal = map[sourceDocs[cursor[s]]];
          if (best < 0 || ordinal < bestOrdinal) {
            best = s;
            bestOrdinal = ordinal;
          }
        }
      }
      if (best < 0) break;
      visit(inputs[best], cursor[best]++, bestOrdinal);
    }
  }
}
