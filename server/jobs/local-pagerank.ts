/**
 * The current local PageRank (the domain's own link graph, rank name `local-current`): what the
 * search ranking uses for pages no estimation round has covered yet. Rounds store the local
 * PageRank they started from as `local`, next to their `estimate`.
 *
 * The graph is read from the store in chunks that yield to the event loop and the power
 * iteration runs in a worker thread, so a server answers searches while it is computed.
 */
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { computeLocalPageRank } from './local-pagerank-compute.ts';
import { computeLocalPageRankInWorker } from './local-pagerank-thread.ts';
import { loadLocalGraph } from './local-graph.ts';

export interface LocalPageRankOptions {
  /** 0: compute on the calling thread (tests); 1 (default): in a worker thread. */
  workers?: 0 | 1;
}

export async function storeLocalPageRank(store: CrawlStore, alpha: number, tolerance: number, options: LocalPageRankOptions = {}): Promise<number> {
  const { ids, sources, targets, edgeCount } = await loadLocalGraph(store);
  if (ids.length === 0) return 0;
  const job = { nodeCount: ids.length, sources, targets, edgeCount, alpha, tolerance };
  const rank = options.workers === 0 ? computeLocalPageRank(job) : await computeLocalPageRankInWorker(job);
  await store.batch().putRanks({ name: 'local-current', version: 0, ids, values: rank, info: { kind: 'local-pagerank' } }).commit();
  return ids.length;
}
