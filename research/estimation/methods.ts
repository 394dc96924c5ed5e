/**
 * The research methods: the product's (estimators.ts) and the variants measured on the way to them, which the
 * product does not offer. research/docs/history.md tells what each one measured.
 *
 * Selectors: `recipflow` (RecipFlow, absolute reciprocity), `adaptive` (SC-Select until the domain looks open, then
 * RecipFlow), `adaptive-hedged` (best's selection on its own).
 * Estimates: `world` (the frontier-world estimate), `checked` (the world estimate when the crawl's movement confirms
 * it), `trajectory` (moved along the world's correction by the crawl's trajectory), `consensus` (the trajectory
 * estimate from six windows, as `gated` uses it, everywhere).
 */
import {
  DEFAULT_METHODS,
  isEstimatorName,
  isMethodName,
  METHOD_NAMES,
  ESTIMATOR_NAMES,
  PRODUCT_METHODS,
  UnknownMethodError,
  estimateOverSupergraph,
  type EstimateOptions,
  type EstimatorName,
  type MethodCatalogue,
  type SupergraphEstimate,
} from '../../indexer/estimation/estimators.ts';
import type { Supergraph } from '../../indexer/estimation/supergraph.ts';
import { CONSENSUS_TRAJECTORY, frontierWorldModel, frontierWorldRank, trajectoryWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { reciprocalFlowScores } from '../../indexer/estimation/reciprocal-flow.ts';
import { scoringSelector, type PageSelector } from '../../indexer/estimation/selection.ts';
import { createSelector, HEDGED_SELECTOR, opennessSelector, type SelectorSettings } from '../../indexer/estimation/selectors.ts';
import { stochasticComplementSelector } from '../../indexer/estimation/stochastic-complement.ts';
import { checkedWorldRank } from './checked-world.ts';

/** RecipFlow with absolute reciprocity. */
export const reciprocalFlowSelector: PageSelector = scoringSelector('recipflow', (input) => reciprocalFlowScores(input));

/** `adaptive`: SC-Select's choice while the crawl has not shown the domain open, RecipFlow's once it has. */
export function adaptiveSelector(closed: PageSelector, open: PageSelector): PageSelector {
  return opennessSelector('adaptive', { closed, open });
}

export const RESEARCH_SELECTORS = ['recipflow', 'adaptive', HEDGED_SELECTOR] as const;
export const RESEARCH_ESTIMATORS = ['world', 'checked', 'trajectory', 'consensus'] as const;
export type ResearchEstimatorName = (typeof RESEARCH_ESTIMATORS)[number];

export function createResearchSelector(name: string, settings: SelectorSettings = {}): PageSelector {
  if (name === 'recipflow') return reciprocalFlowSelector;
  if (name === 'adaptive') return adaptiveSelector(stochasticComplementSelector({ buckets: settings.buckets }), reciprocalFlowSelector);
  return createSelector(name, settings);
}

export const RESEARCH_ESTIMATES: Record<ResearchEstimatorName, SupergraphEstimate> = {
  world: (supergraph, _rank, options) => frontierWorldRank(frontierWorldModel(supergraph), options),
  checked: (supergraph, rank, options) => checkedWorldRank(supergraph, rank, options).rank,
  trajectory: (supergraph, rank, options) => trajectoryWorldRank(supergraph, rank, options).rank,
  consensus: (supergraph, rank, options) => trajectoryWorldRank(supergraph, rank, { ...options, ...CONSENSUS_TRAJECTORY }).rank,
};

function isResearchEstimator(name: string): name is ResearchEstimatorName {
  return (RESEARCH_ESTIMATORS as readonly string[]).includes(name);
}

/** The product's methods and estimates plus the research variants. */
export const RESEARCH_METHODS: MethodCatalogue = {
  methods: [...METHOD_NAMES, ...RESEARCH_SELECTORS],
  estimators: [...ESTIMATOR_NAMES, ...RESEARCH_ESTIMATORS],
  resolve(name, estimator, kind) {
    if (!isEstimatorName(estimator) && !isResearchEstimator(estimator)) throw new UnknownMethodError('estimator', estimator, this.estimators);
    const estimate = isResearchEstimator(estimator) ? RESEARCH_ESTIMATES[estimator] : estimator;
    if (isMethodName(name)) {
      const method = name === 'default' ? DEFAULT_METHODS[kind] : name;
      // `best` brings its own estimate.
      if (method === 'best') return PRODUCT_METHODS.resolve('best', 'supergraph', kind);
      return { createSelector: (settings) => createSelector(method, settings), estimator: estimate };
    }
    if (!(RESEARCH_SELECTORS as readonly string[]).includes(name)) throw new UnknownMethodError('method', name, this.methods);
    return { createSelector: (settings) => createResearchSelector(name, settings), estimator: estimate };
  },
};

/** The product's estimate names and the research ones. */
export type AnyEstimatorName = EstimatorName | ResearchEstimatorName;

/** The estimate `name` in the form FindGlobalPR takes. */
export function estimateOf(name: AnyEstimatorName): EstimatorName | SupergraphEstimate {
  return isResearchEstimator(name) ? RESEARCH_ESTIMATES[name] : name;
}

/** {@link estimateOverSupergraph} by a product or research name. */
export function estimateByName<K>(name: AnyEstimatorName, supergraph: Supergraph<K>, rank: Float64Array, options: EstimateOptions = {}): Float64Array {
  return estimateOverSupergraph(estimateOf(name), supergraph, rank, options);
}
