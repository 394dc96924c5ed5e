/**
 * Compacting the store after a build from it (the first `lse import`, `lse index`). A bulk import
 * leaves LevelDB's tables holding entries written over (pages, ranks) and deleted, which its
 * background compactions drop only during later runs: on disk until then, and compacted beside
 * the first server start's reads. Compacted at once, the data directory is at its size when the
 * command ends.
 */
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';

/** Compacts the whole store; the seconds it took. */
export async function compactStore(store: CrawlStore): Promise<number> {
  const started = performance.now();
  await store.compact();
  return (performance.now() - started) / 1000;
}
