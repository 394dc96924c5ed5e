/**
 * The comparison selectors of the paper (its §5.2.2 and §6.1; docs/estimation.md).
 */
import { outDegrees } from '../graph.ts';
import { seededRandom } from '../seeded-random.ts';
import { candidateCount, scoringSelector, type PageSelector, type SelectionInput } from './selection.ts';

/**
 * PF-Select, the flow-only part of SC-Select: `Σ_{k→j} f[k] / (o[k] + 1)` — the PageRank page `j`
 * would receive from its linkers once they also link to it.
 */
export function pageRankFlowScores(input: SelectionInput): Float64Array {
  const degree = outDegrees(input.graph);
  const count = candidateCount(input);
  const scores = new Float64Array(count);
  const { linkerOffsets, linkers, rank } = input;
  for (let c = 0; c < count; c++) {
    let sum = 0;
    for (let e = linkerOffsets[c]; e < linkerOffsets[c + 1]; e++) {
      const k = linkers[e];
      sum += rank[k] / (degree[k] + 1);
    }
    scores[c] = sum;
  }
  return scores;
}

/** OutlinkCount: the number of pages of `F` that link to the candidate. */
export function linkerCountScores(input: SelectionInput): Float64Array {
  const count = candidateCount(input);
  const scores = new Float64Array(count);
  for (let c = 0; c < count; c++) scores[c] = input.linkerOffsets[c + 1] - input.linkerOffsets[c];
  return scores;
}

export const pageRankFlowSelector: PageSelector = scoringSelector('pf', pageRankFlowScores);
export const outlinkCountSelector: PageSelector = scoringSelector('outlink', linkerCountScores);

/** Random: `k` distinct candidates uniformly, from a seeded generator (one per run). */
export function randomSelector(seed: number): PageSelector {
  const random = seededRandom(seed);
  return {
    name: 'random',
    select(input, k) {
      const count = candidateCount(input);
      const take = Math.min(k, count);
      const order = new Int32Array(count);
      for (let i = 0; i < count; i++) order[i] = i;
      // Partial Fisher–Yates: the first `take` entries are a uniform sample.
      for (let i = 0; i < take; i++) {
        const j = i + Math.floor(random() * (count - i));
        const t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      return order.slice(0, take);
    },
  };
}
