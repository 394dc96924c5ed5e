/**
 * The final estimates by name, and the named methods (a selector with an estimate) that the
 * experiment command, estimation rounds and configuration accept.
 *
 * - `supergraph`: PageRank of the supergraph F (the paper's estimate).
 * - `world`: the frontier-world estimate of {@link frontierWorldRank} (docs/estimation.md).
 * - `checked`: the world estimate with `W` worth 0.75 of the frontier, used only when the crawl's
 *   own movement since three quarters of the budget confirms it ({@link checkedWorldRank}); else
 *   `supergraph`.
 * - `trajectory`: the supergraph estimate moved along the world model's correction (`W` worth 2 frontiers) by a
 *   weight estimated from how far the crawl's last quarter and eighth moved it along the correction predicted
 *   there, relative to the share of the outside they crawled ({@link trajectoryWorldRank}).
 * - `consensus`: the trajectory estimate read at six points of the crawl's second three quarters, with the weight
 *   min(1, 3 × their median) ({@link CONSENSUS_TRAJECTORY}).
 * - `gated`: `consensus` where the crawl shows the domain open to the rest of the web ({@link worldCorrectionApplies}:
 *   enough crawled pages two steps out link back into L, but not nearly all of them), `supergraph` elsewhere.
 */
import { checkedWorldRank, CONSENSUS_TRAJECTORY, frontierWorldModel, frontierWorldRank, trajectoryWorldRank } from './frontier-world.ts';
import { farBackLinks, worldCorrectionApplies } from './openness.ts';
import { isSelectorName, SELECTOR_NAMES, type SelectorName } from './selectors.ts';
import type { Supergraph } from './supergraph.ts';

export const ESTIMATOR_NAMES = ['supergraph', 'world', 'checked', 'trajectory', 'consensus', 'gated'] as const;
export type EstimatorName = (typeof ESTIMATOR_NAMES)[number];

export function isEstimatorName(name: string): name is EstimatorName {
  return (ESTIMATOR_NAMES as readonly string[]).includes(name);
}

/** The project's best measured method (docs/estimation.md): its selection and its estimate. */
export const BEST_METHOD = { selector: 'adaptive-hedged', estimator: 'gated' } as const satisfies { selector: SelectorName; estimator: EstimatorName };

/** Every name a method can be run under: the selectors, and `best`. */
export const METHOD_NAMES = [...SELECTOR_NAMES, 'best'] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

export function isMethodName(name: string): name is MethodName {
  return name === 'best' || isSelectorName(name);
}

/** A method's selector and estimate: `best` brings its own; a selector takes the given estimate. */
export function resolveMethod(name: MethodName, estimator: EstimatorName): { selector: SelectorName; estimator: EstimatorName } {
  return name === 'best' ? { ...BEST_METHOD } : { selector: name, estimator };
}

/**
 * The estimate over the pages of F (index = supergraph page id), given F's PageRank `rank`.
 * `supergraph` returns `rank` itself.
 */
export function estimateOverSupergraph<K>(
  name: EstimatorName,
  supergraph: Supergraph<K>,
  rank: Float64Array,
  options: { alpha?: number; tolerance?: number; maxIterations?: number } = {},
): Float64Array {
  if (name === 'supergraph') return rank;
  const settings = { alpha: options.alpha, tolerance: Math.min(options.tolerance ?? 1e-10, 1e-8), maxIterations: options.maxIterations };
  if (name === 'checked') return checkedWorldRank(supergraph, rank, settings).rank;
  if (name === 'trajectory') return trajectoryWorldRank(supergraph, rank, settings).rank;
  // `gated` is `consensus` where the gate opens and the supergraph estimate elsewhere.
  if (name === 'gated' && !worldCorrectionApplies(farBackLinks(supergraph.graph(), supergraph.localMask()))) return rank;
  if (name === 'consensus' || name === 'gated') return trajectoryWorldRank(supergraph, rank, { ...settings, ...CONSENSUS_TRAJECTORY }).rank;
  return frontierWorldRank(frontierWorldModel(supergraph), settings);
}
