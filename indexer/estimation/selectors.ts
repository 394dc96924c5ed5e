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

/** The selection for each state of the crawl ({@link looksOpen}, {@link looksDense}). */
interface OpennessBranches {
  closed: PageSelector;
  open: PageSelector;
  /** While open and dense (default `open`). */
  dense?: PageSelector;
}

/**
 * Each iteration, the selection for the state the crawl shows the domain in (issue 6, docs/estimation.md "An open-domain
 * gate"): closed, open, or open inside a dense community. Extra cost per iteration: one pass over F's links.
 */
function opennessSelector(name: string, { closed, open, dense = open }: OpennessBranches): PageSelector {
  return {
    name,
    select(input, k) {
      const links = farBackLinks(input.graph, input.isLocal);
      const branch = !looksOpen(links) ? closed : looksDense(links) ? dense : open;
      return branch.select(input, k);
    },
  };
}

/**
 * `adaptive` (docs/estimation.md "An open-domain gate"): `closed`'s choice (SC-Select) while the crawl has not shown the
 * domain open, `open`'s (RecipFlow) once it has. On a nearly closed domain the crawl is SC-Select's, whose estimate is
 * already close to the truth there; elsewhere RecipFlow aims the rest of the budget at the inflow.
 */
export function adaptiveSelector(closed: PageSelector, open: PageSelector): PageSelector {
  return opennessSelector('adaptive', { closed, open });
}

/**
 * `adaptive-hedged` (docs/estimation.md "A dense-community hedge"): as `adaptive`, with `open` RecipFlow with relative
 * reciprocity, but while the domain looks like a dense community (more than half of the far pages link back) the first
 * ⌈k/2⌉ pages of every iteration are `closed`'s. There the gated estimate makes no correction, so the final estimate
 * is the supergraph PageRank, the estimate SC-Select's crawl is made for; RecipFlow's own crawl ended up to 1.17×
 * worse than SC-Select's on such domains. In the dense state both selections run.
 */
export function hedgedAdaptiveSelector(closed: PageSelector, open: PageSelector): PageSelector {
  const dense: PageSelector = { name: 'hedge', select: (input, k) => combinedSelection(input, k, closed, open, Math.round(k / 2)) };
  return opennessSelector('adaptive-hedged', { closed, open, dense });
}
