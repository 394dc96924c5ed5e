/**
 * RecipFlow (docs/estimation.md): the selection `best` uses once a domain looks open, aimed at the rank flowing into `L`
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
  /**
   * Count a crawled global page's share of links into `L` only above the crawl's mean share, as a fraction of what
   * is left above it (default false; {@link reciprocityWeights}).
   */
  relative?: boolean;
}

/** The frontier-world model of `F` from a selection input (the model `frontierWorldModel` builds from a supergraph). */
export function frontierWorldModelOfInput(input: SelectionInput): FrontierWorldModel {
  return frontierWorldModelOf(input.graph, input.isLocal, input.linkers, candidateCount(input));
}

/**
 * `w[k]`: 1 for local pages, `1 + reciprocity · s[k]` for a crawled global page whose share of links inside F that go
 * into L is `s[k]` (0 without links inside F).
 *
 * `relative`: `1 + reciprocity · max(0, s[k] − s̄) / (1 − s̄)` instead, with `s̄` the mean of `s` over the crawled global
 * pages. Why: in a dense community nearly every crawled page links back, so the absolute share singles out nothing
 * and only inflates the weight of the whole crawl; measured against the mean, a page counts for linking back more
 * often than its neighbourhood does (docs/estimation.md, "A dense-community hedge").
 */
export function reciprocityWeights(input: Pick<SelectionInput, 'graph' | 'isLocal'>, reciprocity: number, relative = false): Float64Array {
  const { graph, isLocal } = input;
  const size = graph.nodeCount;
  // First the shares s[k], then the weights in place.
  const weights = new Float64Array(size);
  let shareSum = 0;
  let globalCount = 0;
  for (let k = 0; k < size; k++) {
    if (isLocal[k]) continue;
    const degree = graph.outOffsets[k + 1] - graph.outOffsets[k];
    let intoL = 0;
    for (let e = graph.outOffsets[k]; e < graph.outOffsets[k + 1]; e++) if (isLocal[graph.outTargets[e]]) intoL++;
    weights[k] = degree > 0 ? intoL / degree : 0;
    shareSum += weights[k];
    globalCount++;
  }
  const mean = relative && globalCount > 0 ? shareSum / globalCount : 0;
  // With every share equal to 1 nothing stands out: the weights stay 1.
  const room = 1 - mean;
  for (let k = 0; k < size; k++) {
    const share = weights[k];
    if (isLocal[k]) weights[k] = 1;
    else if (!relative) weights[k] = 1 + reciprocity * share;
    else weights[k] = room > 0 ? 1 + (reciprocity * Math.max(0, share - mean)) / room : 1;
  }
  return weights;
}

export function reciprocalFlowScores(input: SelectionInput, options: ReciprocalFlowOptions = {}): Float64Array {
  const count = candidateCount(input);
  const scores = new Float64Array(count);
  if (count === 0) return scores;
  const rank = frontierWorldRank(frontierWorldModelOfInput(input), { alpha: input.alpha, tolerance: options.tolerance ?? 1e-8, scale: options.scale ?? 0.75 });
  const weights = reciprocityWeights(input, options.reciprocity ?? 5, options.relative ?? false);
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

/** RecipFlow with the reciprocity counted against the crawl's mean share ({@link reciprocityWeights} `relative`). */
export const relativeReciprocalFlowSelector: PageSelector = scoringSelector('recipflow-relative', (input) => reciprocalFlowScores(input, { relative: true }));
