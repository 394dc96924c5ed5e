/**
 * The comparison selectors of the paper (its §5.2.2 and §6.1; docs/estimation.md).
 */
import { outDegrees } from '../graph.ts';
import { randomStream } from '../seeded-random.ts';
import { candidateCount, scoringSelector, SelectorStateError, type PageSelector, type SelectionInput } from './selection.ts';

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

/**
 * Random: `k` distinct candidates uniformly, from a seeded generator. Its state is the
 * generator's, so a run continued from it draws what one longer run draws.
 */
export function randomSelector(seed: number): PageSelector {
  let stream = randomStream(seed);
  const random = () => stream.next();
  return {
    name: 'random',
    saveState: () => ({ generator: stream.state }),
    restoreState(state) {
      const generator = state.generator;
      if (!(Number.isInteger(generator) && generator >= 0 && generator <= 0xffffffff)) throw new SelectorStateError('random', state);
      stream = randomStream(generator);
    },
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
