/**
 * The checked world estimate (`--estimator checked` of the research experiments): the frontier-world estimate with
 * `W` worth `scale · |frontier|` pages, used only when the crawl itself confirms it. Measured and not kept in the
 * product; research/docs/history.md has its results.
 */
import { restrictAndNormalise } from '../../indexer/metrics.ts';
import { comparePrefix, frontierWorldModel, frontierWorldRank, type FrontierWorldOptions } from '../../indexer/estimation/frontier-world.ts';
import type { Supergraph } from '../../indexer/estimation/supergraph.ts';

export interface CheckedWorldOptions extends FrontierWorldOptions {
  /** The earlier supergraph compared against: the local pages plus this share of the crawled ones (default 3/4). */
  prefixShare?: number;
  /** The world estimate needs the cosine of the check to reach this (default 0.25) … */
  threshold?: number;
  /** … and the crawl since the prefix to have realised at least this share of the predicted correction (default 0.03). */
  minRealised?: number;
}

/** The checked world estimate and how it was decided; exported for tests and reports. */
export interface CheckedWorldResult {
  /** Over the pages of `F`, normalised to sum 1: the world estimate if it passed the check, else `rank` itself. */
  rank: Float64Array;
  useWorld: boolean;
  /** Cosine between the crawl's movement of the local estimate and the correction the earlier world model predicted (NaN when either is zero). */
  cosine: number;
  /** The share of the predicted correction the crawl realised: the movement projected on the correction, `⟨M, D⟩ / ⟨D, D⟩` (NaN when D is zero). */
  realised: number;
  /** Size of the earlier supergraph (`localCount ≤ prefix < size`), 0 when no check was possible. */
  prefix: number;
}

/** The default scale of {@link checkedWorldRank} (chosen on the 12 shared-graph domains, in-sample). */
export const CHECKED_WORLD_SCALE = 0.75;

/**
 * The checked world estimate: the frontier-world estimate with
 * `W` worth `scale · |frontier|` pages, used only when the crawl itself confirms it.
 *
 * The check uses the crawl as held-out data. Pages join `F` in crawl order, so the supergraph of
 * an earlier iteration is a prefix of the current one ({@link frontierWorldModelAt}). At that
 * prefix, the world model predicts a correction `D = world(prefix) − PR(prefix)` of the local
 * estimate (both restricted to L, renormalised); the crawl since then actually moved the supergraph
 * estimate by `M = PR(F) − PR(prefix)`. If the world model's inflow is real, crawling uncovers part
 * of it: `M` points along `D` and realises a part of it. The world estimate is used when
 * `cos(M, D) ≥ threshold` and `⟨M, D⟩ / ⟨D, D⟩ ≥ minRealised`; else the supergraph PageRank `rank` is
 * returned unchanged (also when nothing has been crawled, the frontier is empty, or the crawl did not
 * move the estimate).
 *
 * Cost per call: two PageRank-sized power iterations on the prefix (plain and world) and one on `F`,
 * each step `O(|F| + links of F)`, plus `O(|F| + links + frontier links)` to build the models.
 */
export function checkedWorldRank<K>(supergraph: Supergraph<K>, rank: Float64Array, options: CheckedWorldOptions = {}): CheckedWorldResult {
  const scale = options.scale ?? CHECKED_WORLD_SCALE;
  const prefixShare = options.prefixShare ?? 0.75;
  const threshold = options.threshold ?? 0.25;
  const minRealised = options.minRealised ?? 0.03;
  const alpha = options.alpha ?? 0.85;
  const tolerance = options.tolerance ?? 1e-10;
  const local = supergraph.localCount;
  const crawled = supergraph.size - local;
  const plain: CheckedWorldResult = { rank, useWorld: false, cosine: Number.NaN, realised: Number.NaN, prefix: 0 };
  if (crawled === 0 || supergraph.frontierSize === 0) return plain;
  const prefix = local + Math.floor(prefixShare * crawled);
  const { cosine, realised } = comparePrefix(supergraph, restrictAndNormalise(rank, supergraph.localIds()), prefix, { ...options, alpha, tolerance, scale, maxIterations: options.maxIterations ?? 1000 });
  if (!(cosine >= threshold && realised >= minRealised)) return { ...plain, cosine, realised, prefix };
  return { rank: frontierWorldRank(frontierWorldModel(supergraph), { ...options, alpha, tolerance, scale }), useWorld: true, cosine, realised, prefix };
}

