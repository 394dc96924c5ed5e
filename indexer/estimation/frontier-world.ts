/**
 * The frontier-world estimate (docs/estimation.md): PageRank of the supergraph `F` plus
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
import { pageRank } from '../pagerank.ts';
import { mean, median, restrictAndNormalise } from '../metrics.ts';

export interface FrontierWorldOptions {
  alpha?: number;
  /** Stop when the L1 change of an iteration falls below this (default 1e-10). */
  tolerance?: number;
  maxIterations?: number;
  /**
   * The size of the inflow: `W` gets the teleport share of `scale · |frontier|` pages (default 1,
   * the model above; 0 leaves `W` only the rank that `F` sends it).
   */
  scale?: number;
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
  const frontier = supergraph.frontierView();
  return frontierWorldModelOf(supergraph.graph(), supergraph.localMask(), frontier.linkers, frontier.count);
}

/**
 * The model from its parts: F's link graph, which of its pages are local, the linkers (ids in F)
 * of every frontier link, and the number of frontier pages. Cost `O(|F| + links + frontier links)`.
 */
export function frontierWorldModelOf(graph: LinkGraph, isLocal: Uint8Array, linkers: Int32Array, frontierPages: number): FrontierWorldModel {
  const size = graph.nodeCount;
  const linksToWorld = new Float64Array(size);
  for (let e = 0; e < linkers.length; e++) linksToWorld[linkers[e]]++;
  // W's rank leaves along the links the crawled global pages have into F.
  const worldOut = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    if (isLocal[i]) continue;
    for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) worldOut[graph.outTargets[e]]++;
  }
  return { graph, linksToWorld, worldOut, frontierPages };
}

/**
 * The model of the supergraph as it was when it held its first `pages` pages (`localCount ≤ pages
 * ≤ size`). Pages join `F` in crawl order and keep their ids, so that earlier supergraph is the
 * prefix `0 … pages-1`: its internal links are the links among those ids, and its frontier is the
 * current frontier's candidates linked from the prefix plus the later-crawled pages the prefix links
 * to. Cost `O(|F| + links of F + frontier links)`. Pages marked unreachable since are not counted.
 */
export function frontierWorldModelAt<K>(supergraph: Supergraph<K>, pages: number): FrontierWorldModel {
  const full = supergraph.graph();
  const size = supergraph.size;
  if (!(Number.isInteger(pages) && pages >= supergraph.localCount && pages <= size)) throw new RangeError(`prefix of ${pages} pages outside ${supergraph.localCount} … ${size}`);
  const frontier = supergraph.frontierView();
  const outOffsets = new Int32Array(pages + 1);
  const linksToWorld = new Float64Array(pages);
  const worldOut = new Float64Array(pages);
  const linkedLater = new Uint8Array(size);
  let later = 0;
  for (let i = 0; i < pages; i++) {
    let inside = 0;
    for (let e = full.outOffsets[i]; e < full.outOffsets[i + 1]; e++) {
      const t = full.outTargets[e];
      if (t < pages) {
        inside++;
        if (i >= supergraph.localCount) worldOut[t]++;
      } else {
        linksToWorld[i]++;
        if (!linkedLater[t]) {
          linkedLater[t] = 1;
          later++;
        }
      }
    }
    outOffsets[i + 1] = outOffsets[i] + inside;
  }
  const outTargets = new Int32Array(outOffsets[pages]);
  for (let i = 0, w = 0; i < pages; i++) {
    for (let e = full.outOffsets[i]; e < full.outOffsets[i + 1]; e++) if (full.outTargets[e] < pages) outTargets[w++] = full.outTargets[e];
  }
  let candidates = 0;
  for (let c = 0; c + 1 < frontier.linkerOffsets.length; c++) {
    let linked = false;
    for (let e = frontier.linkerOffsets[c]; e < frontier.linkerOffsets[c + 1]; e++) {
      const linker = frontier.linkers[e];
      if (linker < pages) {
        linksToWorld[linker]++;
        linked = true;
      }
    }
    if (linked) candidates++;
  }
  const graph: LinkGraph = { nodeCount: pages, edgeCount: outTargets.length, outOffsets, outTargets };
  return { graph, linksToWorld, worldOut, frontierPages: candidates + later };
}

/**
 * The stationary vector of the model over the pages of `F` (W's own rank left out), normalised
 * to sum 1. Index `i` is page `i` of the supergraph, so `0 … localCount-1` are the local pages.
 */
export function frontierWorldRank(model: FrontierWorldModel, options: FrontierWorldOptions = {}): Float64Array {
  const alpha = options.alpha ?? 0.85;
  const tolerance = options.tolerance ?? 1e-10;
  const maxIterations = options.maxIterations ?? 1000;
  const scale = options.scale ?? 1;
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
  // Teleport: 1 part per page of F, `scale · frontierPages` parts for W.
  const teleportPage = 1 / (size + scale * frontierPages);
  const teleportWorld = scale * frontierPages * teleportPage;

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

/**
 * What the crawl since an earlier supergraph (the prefix of `prefix` pages) says about the world
 * model of that prefix: `D = world(prefix)|_L − PR(prefix)|_L` is the correction the model predicted,
 * `M = now − PR(prefix)|_L` how the supergraph estimate actually moved since; returns `cos(M, D)`
 * (NaN when either is zero) and the share of `D` realised, `⟨M, D⟩ / ⟨D, D⟩` (NaN when `D` is zero).
 * `now` is the current supergraph estimate over L, renormalised.
 */
export function comparePrefix<K>(
  supergraph: Supergraph<K>,
  now: Float64Array,
  prefix: number,
  options: FrontierWorldOptions & { alpha: number; tolerance: number; scale: number; maxIterations: number },
): { model: FrontierWorldModel; cosine: number; realised: number } {
  const local = supergraph.localIds();
  const model = frontierWorldModelAt(supergraph, prefix);
  const before = restrictAndNormalise(pageRank(model.graph, { alpha: options.alpha, tolerance: options.tolerance, maxIterations: options.maxIterations }).rank, local);
  const predicted = restrictAndNormalise(frontierWorldRank(model, options), local);
  return { model, ...correctionAlignment(now, before, predicted) };
}

/**
 * How far a movement `now − before` went along a predicted correction `predicted − before` (vectors over L):
 * the cosine of the two (NaN when either is zero) and the share realised, `⟨M, D⟩ / ⟨D, D⟩` (NaN when `D` is zero).
 */
export function correctionAlignment(now: Float64Array, before: Float64Array, predicted: Float64Array): { cosine: number; realised: number } {
  let dot = 0;
  let moved = 0;
  let correction = 0;
  for (let j = 0; j < now.length; j++) {
    const m = now[j] - before[j];
    const d = predicted[j] - before[j];
    dot += m * d;
    moved += m * m;
    correction += d * d;
  }
  return { cosine: moved > 0 && correction > 0 ? dot / Math.sqrt(moved * correction) : Number.NaN, realised: correction > 0 ? dot / correction : Number.NaN };
}

export interface TrajectoryWorldOptions extends FrontierWorldOptions {
  /** The earlier supergraphs compared against: the local pages plus these shares of the crawled ones (default 3/4 and 7/8). */
  prefixShares?: readonly number[];
  /** Upper bound on the weight of the correction (default {@link TRAJECTORY_MAX_WEIGHT}; a safety bound, see docs/estimation.md). */
  maxWeight?: number;
  /** How the windows' weights are combined: their `mean` (default) or their `median` (one stretch of the crawl cannot carry it). */
  aggregate?: 'mean' | 'median';
  /** Factor on the combined weight before the cap (default 1). */
  gain?: number;
}

/** What the crawl's trajectory said at one earlier supergraph; exported for tests and reports. */
export interface TrajectoryWindow {
  /** Size of the earlier supergraph. */
  prefix: number;
  /** Cosine between the movement `M` of the local estimate since the prefix and the correction `D` the prefix's world model predicted (NaN when either is zero). */
  cosine: number;
  /** `⟨M, D⟩ / ⟨D, D⟩`: the share of `D` the crawl realised (NaN when D is zero). */
  realised: number;
  /** Pages crawled since the prefix over the prefix's frontier pages: the share of the outside crawled since. */
  crawledShare: number;
  /** `cosine · realised / crawledShare` when all three are positive, else 0. */
  weight: number;
}

export interface TrajectoryWorldResult {
  /** Over the pages of `F`; only its restriction to L is the estimate (the crawled global pages keep `rank`). */
  rank: Float64Array;
  /** λ: `gain` times the mean (or median) of the windows' weights, capped at `maxWeight`; 0 when `rank` is returned unchanged. */
  weight: number;
  windows: TrajectoryWindow[];
}

/** The default size of `W` in {@link trajectoryWorldRank}: the world model only gives the direction of the correction. */
export const TRAJECTORY_WORLD_SCALE = 2;

/** The default cap on the trajectory estimate's weight λ. */
export const TRAJECTORY_MAX_WEIGHT = 10;

/**
 * The consensus trajectory estimate (docs/estimation.md, "The consensus trajectory estimate"): six windows spread over
 * the second three quarters of the crawl, λ = min(1, 3 · their median weight). The median asks most of the crawl to
 * confirm the correction, so one stretch that happened to move along it (a page that swung the estimate) cannot; the
 * cap keeps the estimate between the supergraph and the world estimate; the factor 3 offsets the rule's measured
 * underestimate of the needed weight (chosen on the 84 measured domains, before the fifth validation set).
 */
export const CONSENSUS_TRAJECTORY = { prefixShares: [0.25, 0.375, 0.5, 0.625, 0.75, 0.875], aggregate: 'median', gain: 3, maxWeight: 1 } as const satisfies TrajectoryWorldOptions;

/**
 * The trajectory-weighted world estimate (docs/estimation.md): the supergraph
 * estimate moved along the world model's correction by a weight λ estimated from the crawl itself,
 *
 *     estimate|_L = max(0, PR(F)|_L + λ · (world_s(F)|_L − PR(F)|_L)), renormalised.
 *
 * λ comes from the earlier supergraphs (prefixes, {@link frontierWorldModelAt}). At a prefix, the world model predicts
 * a correction `D = world_s(prefix)|_L − PR(prefix)|_L`; since then the crawl moved the supergraph estimate by
 * `M = PR(F)|_L − PR(prefix)|_L`, and it crawled a share `q = (|F| − prefix) / (the prefix's frontier pages)` of the
 * outside the prefix saw. If crawling a share `q` of the outside uncovers about a share `q` of the true remaining
 * correction `T` (so `M ≈ q·T`), then `⟨M, D⟩ / ⟨D, D⟩ / q` estimates `⟨T, D⟩ / ⟨D, D⟩`, the least-squares weight of
 * `D` in `T`; it is multiplied by `cos(M, D)` to shrink it when the movement is not along `D` (and is 0 when the crawl
 * moved against `D`). λ is `gain` times the mean (or median) of this weight over the prefixes, at most `maxWeight`. With λ = 0 (nothing crawled,
 * empty frontier, no movement along `D`) `rank` is returned unchanged.
 *
 * Cost per call: per prefix a plain and a world power iteration on the prefix, plus one world power iteration on `F`,
 * each step `O(|F| + links of F)`, and `O(|F| + links + frontier links)` per model built.
 */
export function trajectoryWorldRank<K>(supergraph: Supergraph<K>, rank: Float64Array, options: TrajectoryWorldOptions = {}): TrajectoryWorldResult {
  const scale = options.scale ?? TRAJECTORY_WORLD_SCALE;
  const prefixShares = options.prefixShares ?? [0.75, 0.875];
  const maxWeight = options.maxWeight ?? TRAJECTORY_MAX_WEIGHT;
  const gain = options.gain ?? 1;
  const alpha = options.alpha ?? 0.85;
  const tolerance = options.tolerance ?? 1e-10;
  const maxIterations = options.maxIterations ?? 1000;
  const local = supergraph.localCount;
  const size = supergraph.size;
  const crawled = size - local;
  const plain: TrajectoryWorldResult = { rank, weight: 0, windows: [] };
  if (crawled === 0 || supergraph.frontierSize === 0 || prefixShares.length === 0) return plain;
  const now = restrictAndNormalise(rank, supergraph.localIds());
  const windows: TrajectoryWindow[] = [];
  for (const share of prefixShares) {
    const prefix = local + Math.floor(share * crawled);
    if (prefix >= size) {
      windows.push({ prefix, cosine: Number.NaN, realised: Number.NaN, crawledShare: 0, weight: 0 });
      continue;
    }
    const { model, cosine, realised } = comparePrefix(supergraph, now, prefix, { ...options, alpha, tolerance, scale, maxIterations });
    const crawledShare = model.frontierPages > 0 ? (size - prefix) / model.frontierPages : 0;
    const weight = cosine > 0 && realised > 0 && crawledShare > 0 ? (cosine * realised) / crawledShare : 0;
    windows.push({ prefix, cosine, realised, crawledShare, weight });
  }
  const weight = Math.min(maxWeight, gain * (options.aggregate === 'median' ? median(windows.map((w) => w.weight)) : mean(windows.map((w) => w.weight))));
  if (!(weight > 0)) return { ...plain, windows };
  const world = restrictAndNormalise(frontierWorldRank(frontierWorldModel(supergraph), { ...options, alpha, tolerance, scale }), supergraph.localIds());
  const blended = moveTowardsWorld(now, world, weight);
  let localMass = 0;
  for (let j = 0; j < local; j++) localMass += rank[j];
  const out = rank.slice();
  for (let j = 0; j < local; j++) out[j] = blended[j] * localMass;
  return { rank: out, weight, windows };
}

/**
 * The local estimate `now` moved a share `weight` of the way to `world` (both over L, summing to 1), clipped at 0 and
 * renormalised: `max(0, now + weight · (world − now)) / sum`.
 */
export function moveTowardsWorld(now: ArrayLike<number>, world: ArrayLike<number>, weight: number): Float64Array {
  const blended = new Float64Array(now.length);
  let sum = 0;
  for (let j = 0; j < now.length; j++) {
    blended[j] = Math.max(0, now[j] + weight * (world[j] - now[j]));
    sum += blended[j];
  }
  for (let j = 0; j < blended.length; j++) blended[j] /= sum;
  return blended;
}
