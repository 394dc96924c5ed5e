// A research selector (research/docs/history.md, "Hedged selection, a survey sample for W, and a third validation set"):
// one selector's ranking with a share of every iteration's pages taken from another's.
import { candidateCount, combinedSelection, type PageSelector } from '../../indexer/estimation/selection.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';

/** `share` of each iteration's k pages from `second`'s ranking, the rest from `first`'s, without repeats. */
export function hedgedSelector(first: PageSelector, second: PageSelector, share: number): PageSelector {
  return {
    name: `${first.name}+${second.name}`,
    select(input, k) {
      const count = Math.min(k, candidateCount(input));
      return combinedSelection(input, k, first, second, count - Math.round(share * count));
    },
  };
}

/** A selector by name, or `SECOND:SHARE`: RecipFlow with `SHARE` of each iteration's pages from SECOND's ranking. */
export function researchSelector(name: string): PageSelector {
  const [second, share] = name.split(':');
  if (share === undefined) return createSelector(second);
  return hedgedSelector(createSelector('recipflow'), createSelector(second), Number(share));
}
