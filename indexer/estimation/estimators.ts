/**
 * The final estimates and the methods (a selection with an estimate) that the experiment command,
 * estimation rounds and configuration accept.
 *
 * Estimates:
 * - `supergraph`: PageRank of the supergraph F (the paper's estimate).
 * - `gated`: where the crawl shows the domain open to the rest of the web ({@link worldCorrectionApplies}),
 *   the supergraph estimate moved along the frontier-world model's correction by a weight the crawl's own
 *   trajectory gives ({@link CONSENSUS_TRAJECTORY}); the supergraph estimate elsewhere.
 *
 * Methods: a selector (with the estimate asked for, default `supergraph`); `best`, the hedged adaptive
 * selection with the gated estimate, measured best on topic communities; `default`, what a round runs on a
 * domain of its kind: SC-Select on sites (host, prefix and regex scopes), `best` on topics (docs/estimation.md).
 */
import { CONSENSUS_TRAJECTORY, trajectoryWorldRank } from './frontier-world.ts';
import { farBackLinks, worldCorrectionApplies } from './openness.ts';
import type { PageSelector } from './selection.ts';
import { createSelector, HEDGED_SELECTOR, isSelectorName, SELECTOR_NAMES, type SelectionName, type SelectorName, type SelectorSettings } from './selectors.ts';
import type { Supergraph } from './supergraph.ts';

export const ESTIMATOR_NAMES = ['supergraph', 'gated'] as const;
export type EstimatorName = (typeof ESTIMATOR_NAMES)[number];

export function isEstimatorName(name: string): name is EstimatorName {
  return (ESTIMATOR_NAMES as readonly string[]).includes(name);
}

export interface EstimateOptions {
  alpha?: number;
  tolerance?: number;
  maxIterations?: number;
}

/** A final estimate over the pages of F, from F and its PageRank `rank` (research adds its own). */
export type SupergraphEstimate = <K>(supergraph: Supergraph<K>, rank: Float64Array, options: EstimateOptions) => Float64Array;

/** The project's best measured method on topic communities (docs/estimation.md): its selection and its estimate. */
export const BEST_METHOD = { selector: HEDGED_SELECTOR, estimator: 'gated' } as const satisfies { selector: SelectionName; estimator: EstimatorName };

/** What a round on a site and on a topic crawl runs unless told otherwise. */
export type DomainKind = 'site' | 'topic';
export const DEFAULT_METHODS = { site: 'sc', topic: 'best' } as const satisfies Record<DomainKind, SelectorName | 'best'>;

/** Every name a method can be run under: the selectors, `best` and `default`. */
export const METHOD_NAMES = [...SELECTOR_NAMES, 'best', 'default'] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

export function isMethodName(name: string): name is MethodName {
  return name === 'best' || name === 'default' || isSelectorName(name);
}

/** A method's selection and estimate: `best` brings its own, `default` is the kind's default, a selector takes `estimator`. */
export function resolveMethod(name: MethodName, estimator: EstimatorName, kind: DomainKind): { selector: SelectionName; estimator: EstimatorName } {
  if (name === 'default') return resolveMethod(DEFAULT_METHODS[kind], estimator, kind);
  return name === 'best' ? { ...BEST_METHOD } : { selector: name, estimator };
}

/** A method ready to run: a fresh selector per run and its estimate. */
export interface RunnableMethod {
  createSelector(settings: SelectorSettings): PageSelector;
  estimator: EstimatorName | SupergraphEstimate;
}

/** The methods an experiment may name; research/ extends the product's with its variants. */
export interface MethodCatalogue {
  readonly methods: readonly string[];
  readonly estimators: readonly string[];
  /** The method `name` with the estimate `estimator` on a domain of `kind`; throws on an unknown name. */
  resolve(name: string, estimator: string, kind: DomainKind): RunnableMethod;
}

export class UnknownMethodError extends Error {
  constructor(what: 'method' | 'estimator', name: string, known: readonly string[]) {
    super(`unknown ${what} "${name}"; choose from ${known.join(', ')}`);
    this.name = 'UnknownMethodError';
  }
}

export const PRODUCT_METHODS: MethodCatalogue = {
  methods: METHOD_NAMES,
  estimators: ESTIMATOR_NAMES,
  resolve(name, estimator, kind) {
    if (!isMethodName(name)) throw new UnknownMethodError('method', name, METHOD_NAMES);
    if (!isEstimatorName(estimator)) throw new UnknownMethodError('estimator', estimator, ESTIMATOR_NAMES);
    const method = resolveMethod(name, estimator, kind);
    return { createSelector: (settings) => createSelector(method.selector, settings), estimator: method.estimator };
  },
};

/**
 * The estimate over the pages of F (index = supergraph page id), given F's PageRank `rank`.
 * `supergraph` returns `rank` itself.
 */
export function estimateOverSupergraph<K>(estimate: EstimatorName | SupergraphEstimate, supergraph: Supergraph<K>, rank: Float64Array, options: EstimateOptions = {}): Float64Array {
  if (estimate === 'supergraph') return rank;
  const settings = { alpha: options.alpha, tolerance: Math.min(options.tolerance ?? 1e-10, 1e-8), maxIterations: options.maxIterations };
  if (typeof estimate === 'function') return estimate(supergraph, rank, settings);
  // `gated`: the consensus trajectory estimate where the gate opens, the supergraph estimate elsewhere.
  if (!worldCorrectionApplies(farBackLinks(supergraph.graph(), supergraph.localMask()))) return rank;
  return trajectoryWorldRank(supergraph, rank, { ...settings, ...CONSENSUS_TRAJECTORY }).rank;
}
