/**
 * The frontier-world estimate (issue 6; docs/estimation.md): PageRank of the supergraph `F` plus
 * one node `W` standing for the whole frontier — every page linked from `F` that was not crawled.
 *
 * The supergraph estimate drops the links from `F` to the frontier and, with them, the rank that
 * flows out to the rest of the web and back. Here that rank is kept:
 * - a page of `F` with `a` links inside `F` and `b` links to frontier pages sends `1/(a+b)` of its
 *   rank along each link inside `F` and `b/(a+b)` to `W`;
 * - `W` is modelled as `f = |frontier|` average crawled global pages: its teleport share is that of
 *   `f` pages, and its rank leaves along the links the crawled global pages (`F \ L`) have into
 *   `F`, each link counted once (so where the pages already fetched from outside point, the rest of
 *   the web is taken to point too);
 * - dangling rank (and all of `W`'s when no crawled global page links into `F`) follows the
 *   teleport vector, as in the reference PageRank.
 * With an empty frontier `W` receives nothing and the estimate equals the supergraph PageRank.
 *
 * Cost per call: one power iteration over `|F| + 1` nodes, each step `O(|F| + links of F)`.
 */
import type { LinkGraph } from '../graph.ts';
import type { Supergraph } from './supergraph.ts';

export interface FrontierWorldOptions {
  alpha?: number;
  /** Stop when the L1 change of an iteration falls below this (default 1e-10). */
  tolerance?: number;
  maxIterations?: number;
}

/** The weighted graph of `F ∪ {W}` in the form the solver needs; exported for tests. */
export interface FrontierWorldModel {
  /** The link graph of `F` (internal links). */
  graph: LinkGraph;
  /** Links from each page of `F` to frontier pages. */
  linksToWorld: Float64Array;
  /** `W`'s out-weights over the pages of `F` (links from crawled global pages). */
  worldOut: Float64Array;
  /** Frontier pages `W` stands for. */
  frontierPages: number;
}

export function frontierWorldModel<K>(supergraph: Supergraph<K>): FrontierWorldModel {
  const graph = supergraph.graph();
  const size = supergraph.size;
  const frontier = supergraph.frontierView();
  const linksToWorld = new Float64Array(size);
  for (let e = 0; e < frontier.linkers.length; e++) linksToWorld[frontier.linkers[e]]++;
  const worldOut = new Float64Array(size);
  for (let i = supergraph.localCount; i < size; i++) {
    for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) worldOut[graph.outTargets[e]]++;
  }
  return { graph, linksToWorld, worldOut, frontierPages: frontier.keys.length };
}

/**
 * The stationary vector of the model over the pages of `F` (W's own rank left out), normalised
 * to sum 1. Index `i` is page `i` of the supergraph, so `0 … localCount-1` are the local pages.
 */
export function frontierWorldRank(model: FrontierWorldModel, options: FrontierWorldOptions = {}): Float64Array {
  const alpha = options.alpha ?? 0.85;
  const tolerance = options.tolerance ?? 1e-10;
  const maxIterations = options.maxIterations ?? 1000;
  const { graph, linksToWorld, worldOut, frontierPages } = model;
  const size = graph.nodeCount;
  if (size === 0) return new Float64Array(0);
  const offsets = graph.outOffsets;
  const targets = graph.outTargets;

  // Each page's share per link, counting its links to the frontier (towards W) too.
  const share = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const degree = offsets[i + 1] - offsets[i] + linksToWorld[i];
    share[i] = degree > 0 ? 1 / degree : 0;
  }
  let worldWeight = 0;
  for (let j = 0; j < size; j++) worldWeight += worldOut[j];
  const worldShare = frontierPages > 0 && worldWeight > 0 ? 1 / worldWeight : 0;
  // Teleport: 1 part per page of F, `frontierPages` parts for W.
  const teleportPage = 1 / (size + frontierPages);
  const teleportWorld = frontierPages * teleportPage;

  let rank = new Float64Array(size).fill(teleportPage);
  let world = teleportWorld;
  let next = new Float64Array(size);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    next.fill(0);
    let dangling = 0;
    let nextWorld = 0;
    for (let i = 0; i < size; i++) {
      const r = rank[i];
      if (share[i] === 0) {
        dangling += r;
        continue;
      }
      const flow = alpha * r * share[i];
      for (let e = offsets[i]; e < offsets[i + 1]; e++) next[targets[e]] += flow;
      nextWorld += flow * linksToWorld[i];
    }
    if (worldShare > 0) {
      const flow = alpha * world * worldShare;
      for (let j = 0; j < size; j++) if (worldOut[j] > 0) next[j] += flow * worldOut[j];
    } else {
      dangling += world;
    }
    const base = 1 - alpha + alpha * dangling;
    let change = 0;
    for (let j = 0; j < size; j++) {
      const value = next[j] + base * teleportPage;
      change += Math.abs(value - rank[j]);
      next[j] = value;
    }
    nextWorld += base * teleportWorld;
    change += Math.abs(nextWorld - world);
    [rank, next] = [next, rank];
    world = nextWorld;
    if (change < tolerance) break;
  }
  let sum = 0;
  for (let j = 0; j < size; j++) sum += rank[j];
  for (let j = 0; j < size; j++) rank[j] /= sum;
  return rank;
}
