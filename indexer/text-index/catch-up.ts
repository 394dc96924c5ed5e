/**
 * Start-up catch-up of the index with the store, as a search engine replays its transaction log:
 * a job killed after the store committed its pages but before the index committed its manifest
 * leaves the index answering with older versions. The pages to compare are those the store's page
 * journal lists since the sequence the index recorded as applied (applied-sequence.ts): none when
 * nothing was written since the last start. Without that record, or when the journal no longer
 * reaches back to it, one pass over the store compares every page. Each compared page's document
 * version is checked against the one the manifest recorded; only the pages that differ are
 * re-indexed, and indexed pages the store no longer holds as indexable are removed.
 */
import type { CrawlStore } from '../store/crawl-store.ts';
import { indexableDocuments, isIndexablePage, pageToDocument } from './store-adapter.ts';
import type { TextDocument } from './document.ts';
import type { TextIndex } from './text-index.ts';
import { readAppliedSequence, writeAppliedSequence } from './applied-sequence.ts';

export interface CatchUpOptions {
  /** Largest share of the indexed pages the catch-up removes (index.maxRemovedShare); more is held. */
  maxRemovedShare: number;
  /** Pages re-indexed per index update (bounds the page text held in memory). */
  batchSize?: number;
}

export interface CatchUpReport {
  /** Indexable pages in the store (after a journal pass: the pages the index holds, caught up). */
  indexable: number;
  /** Pages compared with the index: all stored pages, or those the journal lists. */
  checked: number;
  /** Only the pages written since the index's recorded sequence were compared. */
  fromJournal: boolean;
  /** Pages (re-)indexed: newer in the store than in the index, or missing from it. */
  reindexed: number;
  /** Indexed pages the store no longer holds as indexable, removed from the index. */
  removed: number;
  /** Such pages left in the index: removing them would exceed maxRemovedShare. */
  heldRemovals: number;
  /** The index was rebuilt whole: most of its pages were stale (or it recorded no versions). */
  rebuilt: boolean;
}

/** A catch-up that finds more than this share of the pages stale rebuilds the index in one pass. */
const REBUILD_SHARE = 0.5;

export async function catchUpWithStore(store: CrawlStore, index: TextIndex, options: CatchUpOptions): Promise<CatchUpReport> {
  // Read before the pages: a page written during the pass is then checked again next time.
  const sequence = store.pageWriteSequence;
  const applied = await readAppliedSequence(index.directory);
  // A record past the store's sequence belongs to another store: trust nothing then.
  const journal = applied === undefined || applied > sequence ? undefined : await store.pageJournalSince(applied);
  const found = journal ? await comparePages(store, index, journal) : await compareAllPages(store, index);
  const indexed = index.info().documentCount;
  const removable = indexed === 0 || found.gone.length <= options.maxRemovedShare * indexed;
  const indexable = journal ? indexed + found.stale.filter((id) => !index.has(id)).length - (removable ? found.gone.length : 0) : found.indexable;
  const report: CatchUpReport = {
    indexable,
    checked: found.checked,
    fromJournal: journal !== undefined,
    reindexed: found.stale.length,
    removed: removable ? found.gone.length : 0,
    heldRemovals: removable ? 0 : found.gone.length,
    rebuilt: false,
  };
  if (found.stale.length > REBUILD_SHARE * Math.max(indexable, 1) && removable) {
    await index.rebuild(indexableDocuments(store));
    report.rebuilt = true;
  } else {
    if (report.removed > 0) await index.update({ remove: found.gone });
    await reindex(store, index, found.stale, options.batchSize ?? 1_000);
  }
  // Held removals are reported again at the next start, so nothing is recorded then.
  if (report.heldRemovals === 0 && applied !== sequence) {
    await writeAppliedSequence(index.directory, sequence);
    await store.prunePageJournal(sequence);
  }
  return report;
}

interface Comparison {
  /** Indexable pages not in the index in their stored version. */
  stale: number[];
  /** Indexed pages the store does not hold as indexable. */
  gone: number[];
  checked: number;
  /** Indexable pages seen (a full pass: all of the store's). */
  indexable: number;
}

async function compareAllPages(store: CrawlStore, index: TextIndex): Promise<Comparison> {
  const stale: number[] = [];
  const indexableIds = new Set<number>();
  let checked = 0;
  for await (const [id, page] of store.pages()) {
    checked++;
    if (!isIndexablePage(page)) continue;
    indexableIds.add(id);
    if (!index.holdsVersion(pageToDocument(id, page))) stale.push(id);
  }
  const gone: number[] = [];
  for (const id of index.liveIds()) if (!indexableIds.has(id)) gone.push(id);
  return { stale, gone, checked, indexable: indexableIds.size };
}

async function comparePages(store: CrawlStore, index: TextIndex, ids: readonly number[]): Promise<Comparison> {
  const stale: number[] = [];
  const gone: number[] = [];
  let indexable = 0;
  for (let start = 0; start < ids.length; start += 1_000) {
    const chunk = ids.slice(start, start + 1_000);
    const pages = await store.getPages(chunk);
    pages.forEach((page, i) => {
      const id = chunk[i];
      if (page && isIndexablePage(page)) {
        indexable++;
        if (!index.holdsVersion(pageToDocument(id, page))) stale.push(id);
      } else if (index.has(id)) gone.push(id);
    });
  }
  return { stale, gone, checked: ids.length, indexable };
}

async function reindex(store: CrawlStore, index: TextIndex, stale: readonly number[], batchSize: number): Promise<void> {
  for (let start = 0; start < stale.length; start += batchSize) {
    const ids = stale.slice(start, start + batchSize);
    const pages = await store.getPages(ids);
    const upsert: TextDocument[] = [];
    // A page can have changed since the scan (the store is not written during start-up, but be exact).
    pages.forEach((page, i) => page && isIndexablePage(page) && upsert.push(pageToDocument(ids[i], page)));
    await index.update({ upsert });
  }
}
