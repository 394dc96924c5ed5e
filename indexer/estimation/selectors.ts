/**
 * The selectors by name, as the experiment command, estimation rounds and configuration name them.
 */
import { outlinkCountSelector, pageRankFlowSelector, randomSelector } from './baseline-selectors.ts';
import { combinedSelection, type PageSelector } from './selection.ts';
import { stochasticComplementSelector } from './stochastic-complement.ts';
import { reciprocalFlowSelector, relativeReciprocalFlowSelector } from './reciprocal-flow.ts';
import { farBackLinks, looksDense, looksOpen } from './openness.ts';

export const SELECTOR_NAMES = ['sc', 'pf', 'outlink', 'random', 'recipflow', 'adaptive', 'adaptive-hedged'] as const;
export type SelectorName = (typeof SELECTOR_NAMES)[number];

export interface SelectorSettings {
  /** Seed of the Random selector. */
  seed?: number;
  /** SC-Select's optional c-bucket discretisation. */
  buckets?: number;
}

export class UnknownSelectorError extends Error {
  constructor(name: string) {
    super(`unknown selector "${name}"; choose from ${SELECTOR_NAMES.join(', ')}`);
    this.name = 'UnknownSelectorError';
  }
}

export function isSelectorName(name: string): name is SelectorName {
  return (SELECTOR_NAMES as readonly string[]).includes(name);
}

/** A fresh selector (Random keeps its generator's state across the iterations of one run). */
export function createSelector(name: string, settings: SelectorSettings = {}): PageSelector {
  switch (name) {
    case 'sc':
      return stochasticComplementSelector({ buckets: settings.buckets });
    case 'pf':
      return pageRankFlowSelector;
    case 'outlink':
      return outlinkCountSelector;
    case 'random':
      return randomSelector(settings.seed ?? 1);
    case 'recipflow':
      return reciprocalFlowSelector;
    case 'adaptive':
      return adaptiveSelector(stochasticComplementSelector({ buckets: settings.buckets }), reciprocalFlowSelector);
    case 'adaptive-hedged':
      return hedgedAdaptiveSelector(stochasticComplementSelector({ buckets: settings.buckets }), relativeReciprocalFlowSelector);
    default:
      throw new UnknownSelectorError(name);
  }
}

/**
 * `adaptive` (issue 6, docs/estimation.md "An open-domain gate"): each iteration, `closed`'s choice (SC-Select) while
 * the crawl has not shown the domain open ({@link looksOpen}), `open`'s (RecipFlow) once it has. On a nearly closed
 * domain the crawl is SC-Select's, whose estimate is already close to the truth there; elsewhere RecipFlow aims the
 * rest of the budget at the inflow. Extra cost per iteration: one pass over F's links.
 */
export function adaptiveSelector(closed: PageSelector, open: PageSelector): PageSelector {
  return {
    name: 'adaptive',
    select(input, k) {
      return (looksOpen(farBackLinks(input.graph, input.isLocal)) ? open : closed).select(input, k);
    },
  };
}

/**
 * `adaptive-hedged` (issue 6, docs/estimation.md "A dense-community hedge"): as {@link adaptiveSelector} with
 * `closed` (SC-Select) while the domain looks closed and `open` (RecipFlow with relative reciprocity) while it looks
 * open, but while it looks like a dense community ({@link looksDense}: more than half of the far pages link back)
 * half of every iteration's pages are `closed`'s. There the gated estimate makes no correction, so the final estimate
 * is the supergraph PageRank, the estimate SC-Select's crawl is made for; RecipFlow's own crawl ended up to 1.17×
 * worse than SC-Select's on such domains. Extra cost per iteration: one pass over F's links, and in the dense state
 * both selections.
 */
export function hedgedAdaptiveSelector(closed: PageSelector, open: PageSelector): PageSelector {
  return {
    name: 'adaptive-hedged',
    select(input, k) {
      const links = farBackLinks(input.graph, input.isLocal);
      if (!looksOpen(links)) return closed.select(input, k);
      if (!looksDense(links)) return open.select(input, k);
      return combinedSelection(input, k, closed, open, Math.round(k / 2));
    },
  };
}
