/**
 * The local graph as rows kept from one update to the next: the local pages in URL order (the
 * graph's numbering), and each page's followed links as store ids. An update replaces the rows of
 * the pages it wrote and leaves the others as they are; the graph's edges are derived from the
 * rows. Everything is typed arrays, worked through in steps that yield (see stepwise.ts), so a
 * million pages and ten million links never hold a server's event loop for long.
 */
import { mergeSortSteps } from '../../indexer/stepwise.ts';
import { seek } from '../../indexer/text-index/ordinal-lists.ts';

export interface LocalGraphRows {
  /** Store ids of the local pages in ascending URL order: page `i` of the graph is `ids[i]`. */
  ids: Int32Array<ArrayBuffer>;
  /** `linkable[i]`: page `ids[i]`'s URL is one a followed link can reach (http or https). */
  linkable: Uint8Array<ArrayBuffer>;
  /** The same pages' store ids, ascending: row `r` holds the links of page `rowIds[r]`. */
  rowIds: Int32Array<ArrayBuffer>;
  /** Row `r`'s links are `targets[rowEnds[r - 1] .. rowEnds[r])` (from 0 for the first row). */
  rowEnds: Int32Array<ArrayBuffer>;
  /** Targets of followed links (store ids, never negative), in the order each page lists them: repeats and self-links kept. */
  targets: Int32Array<ArrayBuffer>;
}

/** One written page, as an update reads it again: in the graph or not, and its followed links' targets. */
export interface WrittenRow {
  id: number;
  local: boolean;
  targets: readonly number[];
}

export interface LocalGraphEdges {
  /** Store ids of the local pages, in URL order: page `i` of the graph is `ids[i]`. */
  ids: Int32Array<ArrayBuffer>;
  /**
   * The edges in chunks of {@link EDGE_CHUNK} (the last one partly filled): edge `e` goes from
   * `sources[c][k]` to `targets[c][k]`, `e = c·EDGE_CHUNK + k < edgeCount`, in ascending store
   * id of the source, each page's links in its order (repeats and self-links kept). Chunks, so
   * that no ten-million-entry array is copied on the main thread as the list grows. Their memory
   * is shared ({@link sharedChunk}): the PageRank's worker reads them where they are.
   */
  sources: Array<Int32Array<SharedArrayBuffer>>;
  targets: Array<Int32Array<SharedArrayBuffer>>;
  edgeCount: number;
}

export const EDGE_CHUNK = 1 << 20;

/** Rows or links handled between two yields: a few milliseconds of typed-array work. */
const STEP = 1 << 16;
/** Ids sorted together before runs are merged (a merge step handles four times as many): each comparison makes two URL strings, about 1.5 µs. */
const SORT_RUN = 1024;

export const isLinkableUrl = (url: string): boolean => /^https?:/.test(url);

/**
 * Store ids in ascending URL order (code-unit order, as `<` compares strings): runs of
 * {@link SORT_RUN} ids sorted, then merged pairwise. URLs are distinct, so the order is the one
 * any sort gives.
 */
export function sortByUrlSteps(ids: Int32Array, urlOf: (id: number) => string): Generator<void, Int32Array<ArrayBuffer>> {
  return mergeSortSteps(ids, (a, b) => compareUrls(urlOf(a), urlOf(b)), SORT_RUN);
}

const compareUrls = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * An edge chunk in shared memory. Handed to a worker, it is shared, not transferred: the first
 * ArrayBuffer a thread ever detaches (a transfer does) makes V8 throw away all of that thread's
 * optimized code that assumed none would be, every search's included. On the server's main
 * thread that was the local PageRank's first start: answers of 50-70 ms (on a CPU, in baseline
 * code, TurboFan recompiling on the helper threads) for queries of 2-13 ms, beside every first
 * update of a million pages.
 */
const sharedChunk = (): Int32Array<SharedArrayBuffer> => new Int32Array(new SharedArrayBuffer(EDGE_CHUNK * Int32Array.BYTES_PER_ELEMENT));

/**
 * The graph's edges: each row's targets turned from store ids into page numbers, keeping the
 * links to local pages with an http(s) URL. `urlCount` bounds the store ids a target may have.
 */
export function* edgesOfRowsSteps(rows: LocalGraphRows, urlCount: number): Generator<void, LocalGraphEdges> {
  const { ids, linkable, rowIds, rowEnds, targets } = rows;
  const place = new Int32Array(urlCount).fill(-1);
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] < urlCount) place[ids[i]] = i;
    if (i % STEP === STEP - 1) yield;
  }
  const sources: Array<Int32Array<SharedArrayBuffer>> = [];
  const edgeTargets: Array<Int32Array<SharedArrayBuffer>> = [];
  let edgeCount = 0;
  let k = EDGE_CHUNK;
  let sinceYield = 0;
  for (let r = 0, start = 0; r < rowIds.length; start = rowEnds[r++]) {
    const from = rowIds[r] < urlCount ? place[rowIds[r]] : -1;
    if (from < 0) continue;
    for (let t = start; t < rowEnds[r]; t++) {
      const target = targets[t];
      const to = target < urlCount ? place[target] : -1;
      if (to < 0 || linkable[to] === 0) continue;
      if (k === EDGE_CHUNK) {
        sources.push(sharedChunk());
        edgeTargets.push(sharedChunk());
        k = 0;
      }
      sources[sources.length - 1][k] = from;
      edgeTargets[edgeTargets.length - 1][k++] = to;
      edgeCount++;
    }
    sinceYield += rowEnds[r] - start + 1;
    if (sinceYield >= STEP) {
      sinceYield = 0;
      yield;
    }
  }
  return { ids, sources, targets: edgeTargets, edgeCount };
}

/**
 * The rows with every written page's row replaced by what it holds now: dropped when the page
 * has left the graph, added or replaced when it is in it. `written` is in ascending id order,
 * each id once; `urlOf` gives the URL of any id the rows or `written` hold.
 */
export function* withWrittenRowsSteps(rows: LocalGraphRows, written: readonly WrittenRow[], urlOf: (id: number) => string): Generator<void, LocalGraphRows> {
  const writtenIds = new Set(written.map((row) => row.id));
  const added = written.filter((row) => row.local);
  const kept = yield* keptInUrlOrderSteps(rows, writtenIds);
  const addedIds = yield* sortByUrlSteps(Int32Array.from(added, (row) => row.id), urlOf);
  const { ids, linkable } = yield* mergedInUrlOrderSteps(kept, addedIds, urlOf);
  const { rowIds, rowEnds, targets } = yield* mergedRowsSteps(rows, written, added);
  return { ids, linkable, rowIds, rowEnds, targets };
}

/** The pages of `rows` in URL order less the written ones, with whether each is linkable. */
function* keptInUrlOrderSteps(rows: LocalGraphRows, writtenIds: ReadonlySet<number>): Generator<void, { ids: Int32Array; linkable: Uint8Array }> {
  const ids = new Int32Array(rows.ids.length);
  const linkable = new Uint8Array(rows.ids.length);
  let n = 0;
  for (let i = 0; i < rows.ids.length; i++) {
    if (!writtenIds.has(rows.ids[i])) {
      ids[n] = rows.ids[i];
      linkable[n++] = rows.linkable[i];
    }
    if (i % STEP === STEP - 1) yield;
  }
  return { ids: ids.subarray(0, n), linkable: linkable.subarray(0, n) };
}

/**
 * Two lists in URL order merged into one: each added id's place found by binary search among
 * the kept ones (a few hundred thousand comparisons for ten thousand added ids, where a merge
 * walking both lists would make a URL string of every kept page).
 */
function* mergedInUrlOrderSteps(kept: { ids: Int32Array; linkable: Uint8Array }, added: Int32Array, urlOf: (id: number) => string): Generator<void, { ids: Int32Array<ArrayBuffer>; linkable: Uint8Array<ArrayBuffer> }> {
  const ids = new Int32Array(kept.ids.length + added.length);
  const linkable = new Uint8Array(ids.length);
  let from = 0;
  let to = 0;
  for (let a = 0; a < added.length; a++) {
    const url = urlOf(added[a]);
    let low = from;
    let high = kept.ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (urlOf(kept.ids[middle]) < url) low = middle + 1;
      else high = middle;
    }
    ids.set(kept.ids.subarray(from, low), to);
    linkable.set(kept.linkable.subarray(from, low), to);
    to += low - from;
    from = low;
    ids[to] = added[a];
    linkable[to++] = isLinkableUrl(url) ? 1 : 0;
    if (a % 1024 === 1023) yield;
  }
  ids.set(kept.ids.subarray(from), to);
  linkable.set(kept.linkable.subarray(from), to);
  return { ids, linkable };
}

/**
 * The rows in store id order, the written pages' rows taken out and the local ones among them put
 * back with their links. The kept rows' links are copied a run of rows at a time.
 */
function* mergedRowsSteps(rows: LocalGraphRows, written: readonly WrittenRow[], added: readonly WrittenRow[]): Generator<void, Pick<LocalGraphRows, 'rowIds' | 'rowEnds' | 'targets'>> {
  const { rowIds, rowEnds, targets } = rows;
  // The rows of written pages, ascending: found by search, not by a lookup per row.
  const dropped: number[] = [];
  for (let w = 0, r = 0; w < written.length; w++) {
    r = seek(rowIds, r, rowIds.length, written[w].id);
    if (r < rowIds.length && rowIds[r] === written[w].id) dropped.push(r);
  }
  const rowCount = rowIds.length - dropped.length + added.length;
  let targetCount = targets.length;
  for (const r of dropped) targetCount -= rowEnds[r] - (r === 0 ? 0 : rowEnds[r - 1]);
  for (const row of added) targetCount += row.targets.length;
  yield;
  const newIds = new Int32Array(rowCount);
  const newEnds = new Int32Array(rowCount);
  const newTargets = new Int32Array(targetCount);
  let n = 0;
  let t = 0;
  // Kept rows whose links are not copied yet: targets[copyFrom .. pending), to go at newTargets[t].
  let copyFrom = 0;
  let pending = 0;
  const flush = () => {
    newTargets.set(targets.subarray(copyFrom, pending), t);
    t += pending - copyFrom;
    copyFrom = pending;
  };
  const putAdded = (row: WrittenRow) => {
    flush();
    newIds[n] = row.id;
    for (const target of row.targets) newTargets[t++] = target;
    newEnds[n++] = t;
  };
  let a = 0;
  let d = 0;
  let sinceYield = 0;
  for (let r = 0; r < rowIds.length; r++) {
    while (a < added.length && added[a].id < rowIds[r]) putAdded(added[a++]);
    if (d < dropped.length && dropped[d] === r) {
      d++;
      flush();
      copyFrom = pending = rowEnds[r];
      continue;
    }
    newIds[n] = rowIds[r];
    newEnds[n++] = t + rowEnds[r] - copyFrom;
    pending = rowEnds[r];
    if (++sinceYield === STEP) {
      sinceYield = 0;
      yield;
    }
  }
  while (a < added.length) putAdded(added[a++]);
  flush();
  return { rowIds: newIds, rowEnds: newEnds, targets: newTargets };
}
