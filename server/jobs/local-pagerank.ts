/**
 * The current local PageRank (the domain's own link graph, rank name `local-current`): what the
 * search ranking uses for pages no estimation round has covered yet. Rounds store the local
 * PageRank they started from as `local`, next to their `estimate`.
 */
import { Supergraph } from '../../indexer/estimation/supergraph.ts';
import { restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { loadLocalDomain } from './estimation-round.ts';

export async function storeLocalPageRank(store: CrawlStore, alpha: number, tolerance: number): Promise<number> {
  const domain = await loadLocalDomain(store);
  if (domain.pages.length === 0) return 0;
  // Links leaving the domain are not edges of its graph: the supergraph of L alone.
  const graph = new Supergraph(domain.pages).graph();
  const rank = restrictAndNormalise(pageRank(graph, { alpha, tolerance }).rank, Int32Array.from({ length: domain.pages.length }, (_, i) => i));
  await store.batch().putRanks({ name: 'local-current', version: 0, ids: domain.ids, values: rank, info: { kind: 'local-pagerank' } }).commit();
  return domain.pages.length;
}
