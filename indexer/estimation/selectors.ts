/**
 * The selectors by name, as the experiment command, estimation rounds and configuration name them:
 * the paper's SC-Select and its baselines PF, OutlinkCount and Random. `adaptive-hedged` is the
 * selection of the `best` method (estimators.ts); it is not offered on its own.
 */
import { outlinkCountSelector, pageRankFlowSelector, randomSelector } from './baseline-selectors.ts';
import { combinedSelection, composedState, type PageSelector } from './selection.ts';
import { stochasticComplementSelector } from './stochastic-complement.ts';
import { relativeReciprocalFlowSelector } from './reciprocal-flow.ts';
import { farBackLinks, looksDense, looksOpen } from './openness.ts';

export const SELECTOR_NAMES = ['sc', 'pf', 'outlink', 'random'] as const;
export type SelectorName = (typeof SELECTOR_NAMES)[number];

/** The selection `best` runs. */
export const HEDGED_SELECTOR = 'adaptive-hedged';
/** Every selection {@link createSelector} builds. */
export type SelectionName = SelectorName | typeof HEDGED_SELECTOR;

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

/** A fresh selector (Random's generator starts from the seed; `restoreState` continues an earlier run's). */
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
    case HEDGED_SELECTOR:
      return hedgedAdaptiveSelector(stochasticComplementSelector({ buckets: settings.buckets }), relativeReciprocalFlowSelector);
    default:
      throw new UnknownSelectorError(name);
  }
}

/** The selection for each state of the crawl ({@link looksOpen}, {@link looksDense}). */
export interface OpennessBranches {
  closed: PageSelector;
  open: PageSelector;
  /** While open and dense (default `open`). */
  dense?: PageSelector;
}

/**
 * Each iteration, the selection for the state the crawl shows the domain in (docs/estimation.md): closed, open, or
 * open inside a dense community. Extra cost per iteration: one pass over F's links.
 */
export function opennessSelector(name: string, { closed, open, dense = open }: OpennessBranches): PageSelector {
  return {
    name,
    select(input, k) {
      const links = farBackLinks(input.graph, input.isLocal);
      const branch = !looksOpen(links) ? closed : looksDense(links) ? dense : open;
      return branch.select(input, k);
    },
    // Which branch runs is read from F every iteration; only the branches may keep state.
    ...composedState({ closed, open, dense }),
  };
}

/**
 * `adaptive-hedged` (docs/estimation.md): `closed`'s choice (SC-Select) while the crawl has not shown the domain
 * open, `open`'s (RecipFlow with relative reciprocity) once it has; while the domain looks like a dense community
 * (more than half of the far pages link back) the first ⌈k/2⌉ pages of every iteration are `closed`'s. There the gated
 * estimate makes no correction, so the final estimate is the supergraph PageRank, the estimate SC-Select's crawl is
 * made for. In the dense state both selections run.
 */
export function hedgedAdaptiveSelector(closed: PageSelector, open: PageSelector): PageSelector {
  const dense: PageSelector = { name: 'hedge', select: (input, k) => combinedSelection(input, k, closed, open, Math.round(k / 2)) };
  return opennessSelector(HEDGED_SELECTOR, { closed, open, dense });
}
