/**
 * Builds a segment's query-time postings from its analysed documents (segment-analysis.ts, the
 * same terms lunr indexes), in the worker that builds the lunr index. lunr keeps term
 * frequencies only inside its per-segment BM25 weights; whitelisting token positions to recover
 * them doubled its JSON and build time, so the postings (tf, field lengths, positions for
 * phrases) are counted here. The tests check that scores from these postings equal lunr's.
 */
import type { CompactSegment, FieldPostings, SurfaceWords } from './compact-segment.ts';
import { FIELD_NAMES, type TextDocument } from './document.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import { languageColumn } from './language-column.ts';
import type { AnalyzedDocument } from './segment-analysis.ts';
import { TermDictionary } from './term-dictionary.ts';

const MAX_U16 = 0xffff;

/** Postings of documents given in ordinal order (ascending ids), from their analysed fields. */
export function buildPostings(name: string, documents: readonly TextDocument[], analyzed: readonly AnalyzedDocument[]): CompactSegment {
  const termIds = new Map<string, number>();
  const termList: string[] = [];
  const occurrences = FIELD_NAMES.map(() => ({ term: [] as number[], doc: [] as number[], position: [] as number[] }));
  const lengths = FIELD_NAMES.map(() => new Uint32Array(documents.length));
  analyzed.forEach((fields, ordinal) => {
    fields.forEach(({ terms, positions }, f) => {
      const out = occurrences[f];
      for (let i = 0; i < terms.length; i++) {
        let id = termIds.get(terms[i]);
        if (id === undefined) {
          id = termList.length;
          termIds.set(terms[i], id);
          termList.push(terms[i]);
        }
        out.term.push(id);
        out.doc.push(ordinal);
        out.position.push(positions[i]);
      }
      lengths[f][ordinal] = terms.length;
    });
  });
  // Terms in code-unit order, as lunr's JSON lists them.
  const order = termList.map((_, id) => id).sort((a, b) => (termList[a] < termList[b] ? -1 : termList[a] > termList[b] ? 1 : 0));
  const rank = new Int32Array(termList.length);
  order.forEach((id, r) => (rank[id] = r));
  const fields = occurrences.map((occ, f) => groupPostings(occ, rank, termList.length, lengths[f]));
  const docLangs = languageColumn(documents.map((doc) => doc.lang ?? DEFAULT_LANGUAGE));
  const surfaces = surfaceWords(analyzed, termIds, rank);
  return { name, docIds: Int32Array.from(documents, (doc) => doc.id), terms: TermDictionary.fromSorted(order.map((id) => termList[id])), fields, docLangs, surfaces };
}

/** The segment's written words (sorted) with the numbers of the terms they index. */
function surfaceWords(analyzed: readonly AnalyzedDocument[], termIds: Map<string, number>, rank: Int32Array): SurfaceWords {
  const bySurface = new Map<string, Set<number>>();
  for (const doc of analyzed) {
    for (const [surface, term] of doc.surfaces ?? []) {
      const id = termIds.get(term);
      if (id === undefined) continue;
      let numbers = bySurface.get(surface);
      if (!numbers) bySurface.set(surface, (numbers = new Set()));
      numbers.add(rank[id]);
    }
  }
  const words = [...bySurface.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const offsets = new Int32Array(words.length + 1);
  const ids: number[] = [];
  words.forEach((word, s) => {
    for (const number of bySurface.get(word)!) ids.push(number);
    offsets[s + 1] = ids.length;
  });
  return { words: TermDictionary.fromSorted(words), offsets, termIds: Int32Array.from(ids) };
}

/** Stable counting sort of occurrences by term rank (they arrive by document, then position). */
function groupPostings(occ: { term: number[]; doc: number[]; position: number[] }, rank: Int32Array, termCount: number, lengths: Uint32Array): FieldPostings {
  const n = occ.term.length;
  const start = new Int32Array(termCount + 1);
  for (let i = 0; i < n; i++) start[rank[occ.term[i]] + 1]++;
  for (let t = 0; t < termCount; t++) start[t + 1] += start[t];
  const next = start.slice(0, termCount);
  const sortedDoc = new Int32Array(n);
  let widest = 0;
  for (let i = 0; i < n; i++) if (occ.position[i] > widest) widest = occ.position[i];
  // Whole pages: a body of more than 65,536 words needs 32-bit positions (phrases and passages past that word).
  const positions = widest > MAX_U16 ? new Uint32Array(n) : new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const at = next[rank[occ.term[i]]]++;
    sortedDoc[at] = occ.doc[i];
    positions[at] = occ.position[i];
  }
  // One posting per (term, document) run.
  let postingCount = 0;
  for (let t = 0; t < termCount; t++) {
    for (let i = start[t]; i < start[t + 1]; i++) if (i === start[t] || sortedDoc[i] !== sortedDoc[i - 1]) postingCount++;
  }
  const offsets = new Int32Array(termCount + 1);
  const docs = new Int32Array(postingCount);
  const tf = new Uint16Array(postingCount);
  const positionOffsets = new Int32Array(postingCount + 1);
  let p = -1;
  for (let t = 0; t < termCount; t++) {
    offsets[t] = p + 1;
    for (let i = start[t]; i < start[t + 1]; i++) {
      if (i === start[t] || sortedDoc[i] !== sortedDoc[i - 1]) {
        p++;
        docs[p] = sortedDoc[i];
        positionOffsets[p] = i;
      }
      if (tf[p] < MAX_U16) tf[p]++;
    }
  }
  offsets[termCount] = postingCount;
  positionOffsets[postingCount] = n;
  return { offsets, docs, tf, positionOffsets, positions, lengths };
}
