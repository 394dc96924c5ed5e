/**
 * The selectors by name, as the experiment command, estimation rounds and configuration name them.
 */
import { outlinkCountSelector, pageRankFlowSelector, randomSelector } from './baseline-selectors.ts';
import type { PageSelector } from './selection.ts';
import { stochasticComplementSelector } from './stochastic-complement.ts';
import { reciprocalFlowSelector } from './reciprocal-flow.ts';

export const SELECTOR_NAMES = ['sc', 'pf', 'outlink', 'random', 'recipflow'] as const;
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
    default:
      throw new UnknownSelectorError(name);
  }
}
