/**
 * The local pages' link graph read from the store as edge lists over typed arrays, for the local
 * PageRank. Pages are numbered in URL order (as {@link loadRoundStart} numbers L), an edge is a
 * followed link to another local page with an http(s) URL — the graph `Supergraph(L).graph()`
 * builds, without a URL string or a page object per page.
 *
 * The graph's rows (local-graph-rows.ts) are saved beside the store as of a page-write sequence.
 * The next load reads them with the pages written since (the store's page journal lists them)
 * instead of every page and link: at a million pages, the pages written by a 1 % update rather
 * than 2 GB of page records decoded and a million URLs sorted again. Without usable saved rows,
 * every page and link is read, yielding to the event loop every {@link SLICE_MS} ms, so a server
 * keeps answering meanwhile.
 */
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import type { PageRecord, StoredLink } from '../../indexer/store/records.ts';
import { GrowingArray } from '../../indexer/growing-array.ts';
import { runStepsYielding, timeSlices } from '../../indexer/stepwise.ts';
import { readLocalGraphRows, saveLocalGraphRows } from './local-graph-file.ts';
import { edgesOfRowsSteps, isLinkableUrl, sortByUrlSteps, withWrittenRowsSteps, type LocalGraphEdges, type LocalGraphRows, type WrittenRow } from './local-graph-rows.ts';

export type { LocalGraphEdges } from './local-graph-rows.ts';

/** Work between two turns of the event loop while every page is read, in ms. */
const SLICE_MS = 8;

export interface LoadedLocalGraph extends LocalGraphEdges {
  /** Where the rows came from: the saved ones and the pages written since, or every page. */
  readFrom: 'saved' | 'pages';
}

export async function loadLocalGraph(store: CrawlStore): Promise<LoadedLocalGraph> {
  // Read before the pages: a page written meanwhile makes the saved rows stale, never wrong.
  const sequence = store.pageWriteSequence;
  const urlOf = (id: number) => store.urlOf(id)!;
  const saved = await readLocalGraphRows(store);
  let reason = saved.reason;
  let rows: LocalGraphRows | undefined;
  if (saved.rows) {
    const written = saved.asOf <= sequence ? await store.pageJournalSince(saved.asOf) : undefined;
    if (written) rows = written.length === 0 ? saved.rows : await runStepsYielding(withWrittenRowsSteps(saved.rows, await readWrittenRows(store, written), urlOf));
    else reason = saved.asOf > sequence ? 'saved for another store' : 'the page journal no longer reaches back to them';
  }
  const readFrom = rows ? 'saved' : 'pages';
  if (!rows) {
    if (reason !== 'none saved') process.stderr.write(`reading the local graph from the pages (saved rows: ${reason})\n`);
    rows = await scanRows(store);
  }
  if (!(saved.rows === rows && saved.asOf === sequence)) {
    // A failure only costs the next load a full read.
    await saveLocalGraphRows(store, rows, sequence).catch((error: Error) => process.stderr.write(`could not save the local graph: ${error.message}\n`));
  }
  return { ...(await runStepsYielding(edgesOfRowsSteps(rows, store.urlCount))), readFrom };
}

/** A page is in the local graph when it is local and its last visit fetched it (or found it unchanged). */
const isGraphPage = (id: number, page: PageRecord | undefined, urlCount: number): boolean =>
  page !== undefined && page.role === 'local' && (page.state === 'fetched' || page.state === 'not-modified') && id < urlCount;

/** A link the graph may hold: followed, to something that can be a store id. */
const isFollowed = (link: StoredLink): boolean => !link.nofollow && Number.isInteger(link.to) && link.to >= 0 && link.to < 2 ** 31;

/** The written pages (ascending ids) as the store holds them now, with the links of those in the graph. */
async function readWrittenRows(store: CrawlStore, written: readonly number[]): Promise<WrittenRow[]> {
  const urlCount = store.urlCount;
  const rows: WrittenRow[] = [];
  for await (const [id, page] of store.pagesOf(written)) rows.push({ id, local: isGraphPage(id, page, urlCount), targets: [] });
  const local = rows.filter((row) => row.local);
  let k = 0;
  for await (const [, links] of store.linksOf(local.map((row) => row.id))) local[k++].targets = links.filter(isFollowed).map((link) => link.to);
  return rows;
}

/** The rows from every page and every page's links. */
async function scanRows(store: CrawlStore): Promise<LocalGraphRows> {
  const urlCount = store.urlCount;
  const urlOf = (id: number) => store.urlOf(id)!;
  const local = new GrowingArray((size) => new Int32Array(size));
  let turn = timeSlices(SLICE_MS);
  for await (const [id, page] of store.pages()) {
    if (isGraphPage(id, page, urlCount)) local.push(id);
    await turn();
  }
  const rowIds = local.done();
  const ids = await runStepsYielding(sortByUrlSteps(rowIds, urlOf));
  const linkable = new Uint8Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    if (isLinkableUrl(urlOf(ids[i]))) linkable[i] = 1;
    await turn();
  }
  // Pages and links both come in ascending id order: row r's links are the entry of rowIds[r], if any.
  const rowEnds = new Int32Array(rowIds.length);
  const targets = new GrowingArray((size) => new Int32Array(size));
  let r = 0;
  turn = timeSlices(SLICE_MS);
  for await (const [id, links] of store.allLinks()) {
    await turn();
    while (r < rowIds.length && rowIds[r] < id) rowEnds[r++] = targets.length;
    if (r === rowIds.length || rowIds[r] !== id) continue;
    for (const link of links) if (isFollowed(link)) targets.push(link.to);
    rowEnds[r++] = targets.length;
  }
  while (r < rowIds.length) rowEnds[r++] = targets.length;
  return { ids, linkable, rowIds, rowEnds, targets: targets.done() };
}
