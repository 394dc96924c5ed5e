/**
 * Start-up catch-up of the index with the store, as a search engine replays its transaction log:
 * a job killed after the store committed its pages but before the index committed its manifest
 * leaves the index answering with older versions. One pass over the store compares each indexable
 * page's document version with the one the manifest recorded; only the pages that differ are
 * re-indexed, and indexed pages the store no longer holds as indexable are removed.
 */
import type { CrawlStore } from '../store/crawl-store.ts';
import { indexableDocuments, isIndexablePage, pageToDocument } from './store-adapter.ts';
import type { TextDocument } from './document.ts';
import type { TextIndex } from './text-index.ts';

export interface CatchUpOptions {
  /** Largest share of the indexed pages the catch-up removes (index.maxRemovedShare); more is held. */
  maxRemovedShare: number;
  /** Pages re-indexed per index update (bounds the page text held in memory). */
  batchSize?: number;
}

export interface CatchUpReport {
  /** Indexable pages in the store. */
  indexable: number;
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
  const stale: number[] = [];
  const indexableIds = new Set<number>();
  for await (const [id, page] of store.pages()) {
    if (!isIndexablePage(page)) continue;
    indexableIds.add(id);
    if (!index.holdsVersion(pageToDocument(id, page))) stale.push(id);
  }
  const gone: number[] = [];
  for (const id of index.liveIds()) if (!indexableIds.has(id)) gone.push(id);
  const indexed = index.info().documentCount;
  const removable = indexed === 0 || gone.length <= options.maxRemovedShare * indexed;
  const report: CatchUpReport = { indexable: indexableIds.size, reindexed: stale.length, removed: removable ? gone.length : 0, heldRemovals: removable ? 0 : gone.length, rebuilt: false };
  if (stale.length > REBUILD_SHARE * indexableIds.size && removable) {
    await index.rebuild(indexableDocuments(store));
    return { ...report, rebuilt: true };
  }
  if (report.removed > 0) await index.update({ remove: gone });
  const batchSize = options.batchSize ?? 1_000;
  for (let start = 0; start < stale.length; start += batchSize) {
    const ids = stale.slice(start, start + batchSize);
    const pages = await store.getPages(ids);
    const upsert: TextDocument[] = [];
    // A page can have changed since the scan (the store is not written during start-up, but be exact).
    pages.forEach((page, i) => page && isIndexablePage(page) && upsert.push(pageToDocument(ids[i], page)));
    await index.update({ upsert });
  }
  return report;
}
