/**
 * The local PageRank of an edge list, the part that runs in a worker thread: the graph is built
 * as `Supergraph(L).graph()` builds it (rows sorted, repeats and self-links dropped), so the
 * vector is the same, bit for bit, as the one computed from the pages' URLs.
 */
import { buildGraph } from '../../indexer/graph.ts';
import { restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import type { LocalGraphEdges } from './local-graph.ts';

export interface LocalPageRankJob {
  nodeCount: number;
  /** The edges in chunks, as {@link LocalGraphEdges} has them (in shared memory, for a worker). */
  sources: Int32Array[];
  targets: Int32Array[];
  edgeCount: number;
  alpha: number;
  tolerance: number;
}

export function computeLocalPageRank(job: LocalPageRankJob): Float64Array {
  const graph = buildGraph(job.nodeCount, joined(job.sources, job.edgeCount), joined(job.targets, job.edgeCount), job.edgeCount);
  const { rank } = pageRank(graph, { alpha: job.alpha, tolerance: job.tolerance });
  return restrictAndNormalise(rank, Int32Array.from({ length: job.nodeCount }, (_, i) => i));
}

/** The first `length` entries of the chunks as one array. */
function joined(chunks: readonly Int32Array[], length: number): Int32Array {
  if (chunks.length === 1) return chunks[0];
  const all = new Int32Array(length);
  for (let c = 0, at = 0; c < chunks.length && at < length; c++) {
    const part = chunks[c].subarray(0, Math.min(chunks[c].length, length - at));
    all.set(part, at);
    at += part.length;
  }
  return all;
}
