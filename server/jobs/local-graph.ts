/**
 * The local pages' link graph read from the store as edge lists over typed arrays, for the local
 * PageRank. Pages are numbered in URL order (as {@link loadRoundStart} numbers L), an edge is a
 * followed link to another local page with an http(s) URL — the graph `Supergraph(L).graph()`
 * builds, without a URL string or a page object per page. The reading gives the event loop a turn
 * every {@link SLICE_MS} ms, so a server keeps answering while a million pages are read: a page
 * record is decoded whole (its text too), and a count of pages between turns held the loop for
 * 20–90 ms at a million pages.
 */
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { mergeSortSteps, runStepsYielding, timeSlices } from '../../indexer/stepwise.ts';

export interface LocalGraphEdges {
  /** Store ids of the local pages, in URL order: page `i` of the graph is `ids[i]`. */
  ids: Int32Array<ArrayBuffer>;
  /**
   * The edges in chunks of {@link EDGE_CHUNK} (the last one partly filled): edge `e` goes from
   * `sources[c][k]` to `targets[c][k]`, `e = c·EDGE_CHUNK + k < edgeCount` (repeats and self-links
   * kept). Chunks, so that no million-entry array is copied on the main thread as the list grows.
   */
  sources: Array<Int32Array<ArrayBuffer>>;
  targets: Array<Int32Array<ArrayBuffer>>;
  edgeCount: number;
}

export const EDGE_CHUNK = 1 << 20;

/** Work between two turns of the event loop, in ms. */
const SLICE_MS = 8;
/** Ids sorted together before runs are merged (a merge step handles four times as many): each comparison makes two URL strings, about 1.5 µs. */
const SORT_RUN = 1024;

export async function loadLocalGraph(store: CrawlStore): Promise<LocalGraphEdges> {
  const urlCount = store.urlCount;
  const urlOf = (id: number) => store.urlOf(id)!;
  let local = new Int32Array(1024);
  let localCount = 0;
  let turn = timeSlices(SLICE_MS);
  for await (const [id, page] of store.pages()) {
    if (page.role === 'local' && (page.state === 'fetched' || page.state === 'not-modified') && id < urlCount) {
      if (localCount === local.length) local = grown(local);
      local[localCount++] = id;
    }
    await turn();
  }
  const ids = await sortByUrl(local.subarray(0, localCount), urlOf);
  // place[id]: the page number of a local page; linkable[i]: page i's URL is one a followed link can reach.
  const place = new Int32Array(urlCount).fill(-1);
  const linkable = new Uint8Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    place[ids[i]] = i;
    if (/^https?:/.test(urlOf(ids[i]))) linkable[i] = 1;
    await turn();
  }
  const sources: Array<Int32Array<ArrayBuffer>> = [];
  const targets: Array<Int32Array<ArrayBuffer>> = [];
  let edgeCount = 0;
  let k = EDGE_CHUNK;
  turn = timeSlices(SLICE_MS);
  for await (const [id, links] of store.allLinks()) {
    await turn();
    const from = id < urlCount ? place[id] : -1;
    if (from < 0) continue;
    for (const link of links) {
      if (link.nofollow || !(link.to >= 0 && link.to < urlCount)) continue;
      const to = place[link.to];
      if (to < 0 || linkable[to] === 0) continue;
      if (k === EDGE_CHUNK) {
        sources.push(new Int32Array(EDGE_CHUNK));
        targets.push(new Int32Array(EDGE_CHUNK));
        k = 0;
      }
      sources[sources.length - 1][k] = from;
      targets[targets.length - 1][k++] = to;
      edgeCount++;
    }
  }
  return { ids, sources, targets, edgeCount };
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * Store ids in ascending URL order (code-unit order, as `<` compares strings): runs of
 * {@link SORT_RUN} ids sorted, then merged pairwise, yielding between steps. URLs are
 * distinct, so the order is the one any sort gives.
 */
export async function sortByUrl(ids: Int32Array, urlOf: (id: number) => string): Promise<Int32Array<ArrayBuffer>> {
  const compare = (a: number, b: number) => {
    const x = urlOf(a);
    const y = urlOf(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  return runStepsYielding(mergeSortSteps(ids, compare, SORT_RUN));
}
