/**
 * The selectors by name, as the experiment command, estimation rounds and configuration name them.
 */
import { outlinkCountSelector, pageRankFlowSelector, randomSelector } from './baseline-selectors.ts';
import type { PageSelector } from './selection.ts';
import { stochasticComplementSelector } from './stochastic-complement.ts';
import { reciprocalFlowSelector } from './reciprocal-flow.ts';
import { farBackLinks, looksOpen } from './openness.ts';

export const SELECTOR_NAMES = ['sc', 'pf', 'outlink', 'random', 'recipflow', 'adaptive'] as const;
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
