/**
 * The local PageRank of an edge list, the part that runs in a worker thread: the graph is built
 * as `Supergraph(L).graph()` builds it (rows sorted, repeats and self-links dropped), so the
 * vector is the same, bit for bit, as the one computed from the pages' URLs.
 */
import { buildGraph } from '../../indexer/graph.ts';
import { restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank } from '../../indexer/pagerank.ts';

export interface LocalPageRankJob {
  nodeCount: number;
  sources: Int32Array<ArrayBuffer>;
  targets: Int32Array<ArrayBuffer>;
  edgeCount: number;
  alpha: number;
  tolerance: number;
}

export function computeLocalPageRank(job: LocalPageRankJob): Float64Array {
  const graph = buildGraph(job.nodeCount, job.sources, job.targets, job.edgeCount);
  const { rank } = pageRank(graph, { alpha: job.alpha, tolerance: job.tolerance });
  return restrictAndNormalise(rank, Int32Array.from({ length: job.nodeCount }, (_, i) => i));
}
