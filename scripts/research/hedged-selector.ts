// A research selector (docs/estimation.md, "Hedged selection, a survey sample for W, and a third validation set"):
// one selector's ranking with a share of every iteration's pages taken from another's.
import { candidateCount, type PageSelector } from '../../indexer/estimation/selection.ts';
import { createSelector } from '../../indexer/estimation/selectors.ts';

/** `share` of each iteration's k pages from `second`'s ranking, the rest from `first`'s, without repeats. */
export function hedgedSelector(first: PageSelector, second: PageSelector, share: number): PageSelector {
  return {
    name: `${first.name}+${second.name}`,
    select(input, k) {
      const count = Math.min(k, candidateCount(input));
      const a = first.select(input, count);
      const b = second.select(input, count);
      const fromSecond = Math.round(share * count);
      const taken = new Uint8Array(candidateCount(input));
      const out: number[] = [];
      const take = (list: Int32Array, limit: number) => {
        for (let i = 0; i < list.length && out.length < limit; i++) if (!taken[list[i]]) (taken[list[i]] = 1), out.push(list[i]);
      };
      take(a, count - fromSecond);
      take(b, count);
      take(a, count);
      return Int32Array.from(out);
    },
  };
}

/** A selector by name, or `SECOND:SHARE`: RecipFlow with `SHARE` of each iteration's pages from SECOND's ranking. */
export function researchSelector(name: string): PageSelector {
  const [second, share] = name.split(':');
  if (share === undefined) return createSelector(second);
  return hedgedSelector(createSelector('recipflow'), createSelector(second), Number(share));
}
