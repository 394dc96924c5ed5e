/**
 * RecipFlow (issue 6, docs/estimation.md "Selection for the inflow"): a selector aimed at the rank flowing into `L`
 * from outside. A candidate's score is PF-Select's flow, taken over the frontier-world rank of `F` instead of F's
 * PageRank, with each linker's term weighted by how likely the linker's neighbourhood is to link back into `L`:
 *
 *     score[c] = Σ_{k→c} w[k] · x[k] / (o[k] + 1)
 *
 * - `x` is the frontier-world rank of `F` ({@link frontierWorldRank}) with `W` worth `scale · |frontier|` pages
 *   (default 0.75, as the checked estimate), built from the selection input alone: crawled global pages get the rank
 *   that the unseen web sends them, so candidates linked from well-linked outside pages count more;
 * - `o[k]` is `k`'s out-degree inside `F` (as PF-Select);
 * - `w[k] = 1` for a local page, `1 + reciprocity · (share of k's links inside F that go into L)` for a crawled global
 *   page (default reciprocity 5): a global page that links back into `L` marks a neighbourhood of the inflow.
 *
 * Chosen on the 24 known domains and evaluated once on 10 validation balls (docs/estimation.md); it is not `best`.
 * Cost per iteration: building the world model `O(|F| + links + frontier links)`, one power iteration over `F ∪ {W}`
 * (each step `O(|F| + links of F)`), the scores `O(frontier links)`, the top k `O(c log k)`.
 */
import { outDegrees } from '../graph.ts';
import { frontierWorldModelOf, frontierWorldRank, type FrontierWorldModel } from './frontier-world.ts';
import { candidateCount, scoringSelector, type PageSelector, type SelectionInput } from './selection.ts';

export interface ReciprocalFlowOptions {
  /** `W`'s size in frontier pages per frontier page (default 0.75). */
  scale?: number;
  /** The extra weight of a crawled global linker whose links inside F all go into L (default 5). */
  reciprocity?: number;
  /** Tolerance of the world model's power iteration (default 1e-8). */
  tolerance?: number;
}

/** The frontier-world model of `F` from a selection input (the model `frontierWorldModel` builds from a supergraph). */
export function frontierWorldModelOfInput(input: SelectionInput): FrontierWorldModel {
  return frontierWorldModelOf(input.graph, input.isLocal, input.linkers, candidateCount(input));
}

/** `w[k]`: 1 for local pages, `1 + reciprocity · (links into L) / (links inside F)` for crawled global pages. */
export function reciprocityWeights(input: Pick<SelectionInput, 'graph' | 'isLocal'>, reciprocity: number): Float64Array {
  const { graph, isLocal } = input;
  const size = graph.nodeCount;
  const weights = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    if (isLocal[k]) {
      weights[k] = 1;
      continue;
    }
    const degree = graph.outOffsets[k + 1] - graph.outOffsets[k];
    let intoL = 0;
    for (let e = graph.outOffsets[k]; e < graph.outOffsets[k + 1]; e++) if (isLocal[graph.outTargets[e]]) intoL++;
    weights[k] = 1 + (degree > 0 ? (reciprocity * intoL) / degree : 0);
  }
  return weights;
}

export function reciprocalFlowScores(input: SelectionInput, options: ReciprocalFlowOptions = {}): Float64Array {
  const count = candidateCount(input);
  const scores = new Float64Array(count);
  if (count === 0) return scores;
  const rank = frontierWorldRank(frontierWorldModelOfInput(input), { alpha: input.alpha, tolerance: options.tolerance ?? 1e-8, scale: options.scale ?? 0.75 });
  const weights = reciprocityWeights(input, options.reciprocity ?? 5);
  const degree = outDegrees(input.graph);
  const { linkerOffsets, linkers } = input;
  for (let c = 0; c < count; c++) {
    let sum = 0;
    for (let e = linkerOffsets[c]; e < linkerOffsets[c + 1]; e++) {
      const k = linkers[e];
      sum += (weights[k] * rank[k]) / (degree[k] + 1);
    }
    scores[c] = sum;
  }
  return scores;
}

export const reciprocalFlowSelector: PageSelector = scoringSelector('recipflow', (input) => reciprocalFlowScores(input));
