/**
 * The shared graphs up to labels (research/docs/history.md): selectors break score ties by the lowest page id, so
 * relabelling the pages by a seeded permutation changes only which of the tied pages are taken first.
 */
import { buildGraph } from '../../indexer/graph.ts';
import type { WebGraph } from '../../indexer/graph-files.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';

/** A uniformly random relabelling of 0 … n−1 (Fisher–Yates with the project's PRNG). */
export function permutation(n: number, seed: number): Int32Array {
  const random = seededRandom(seed);
  const p = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

/**
 * The same link graph with page `i` renamed `to[i]`. URLs, hosts and labels keep the old order: resolve a domain on the
 * original graph, then map its pages through `to`.
 */
export function relabelled(web: WebGraph, to: Int32Array): WebGraph {
  const { graph } = web;
  const sources = new Int32Array(graph.edgeCount);
  const targets = new Int32Array(graph.edgeCount);
  for (let i = 0, e = 0; i < graph.nodeCount; i++) {
    for (let k = graph.outOffsets[i]; k < graph.outOffsets[i + 1]; k++, e++) {
      sources[e] = to[i];
      targets[e] = to[graph.outTargets[k]];
    }
  }
  return { ...web, graph: buildGraph(graph.nodeCount, sources, targets) };
}
