import { describe, expect, it } from 'vitest';
import { pageRank } from '../indexer/pagerank.ts';
import { frontierWorldModel } from '../indexer/estimation/frontier-world.ts';
import { frontierWorldModelOfInput, reciprocalFlowScores, reciprocityWeights } from '../indexer/estimation/reciprocal-flow.ts';
import { createSelector } from '../indexer/estimation/selectors.ts';
import { selectionInput } from '../indexer/estimation/find-global-pagerank.ts';
import { scoringSelector } from '../indexer/estimation/selection.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { randomEdgeList, type EdgeList } from './helpers/random-graphs.ts';
import { denseWorld, supergraphOf } from './helpers/dense-world.ts';

/** RecipFlow with absolute reciprocity: the top scores of {@link reciprocalFlowScores}. */
const reciprocalFlowSelector = scoringSelector('recipflow', (input) => reciprocalFlowScores(input));

const alpha = 0.85;


/**
 * RecipFlow's scores computed directly from the global edge list (no Supergraph, selection or frontier-world code):
 * F = local then crawled pages, W = the frontier as one node worth `scale · |frontier|` pages (dense stationary vector),
 * then for every frontier page `Σ_{k→c} w[k] x[k] / (o[k] + 1)`. Returns the scores by frontier page.
 */
function directScores(list: EdgeList, local: number[], crawled: number[], scale = 0.75, reciprocity = 5, relative = false): Map<number, number> {
  const { F, id, out, frontier, rank } = denseWorld(list, local, crawled, scale, alpha);
  const isLocal = new Set(local);
  const inside = (k: number) => [...(out.get(k) ?? [])].filter((t) => id.has(t));
  const share = (k: number) => (inside(k).length > 0 ? inside(k).filter((t) => isLocal.has(t)).length / inside(k).length : 0);
  // Relative reciprocity: a crawled page's share counts above the mean share of all crawled pages.
  const mean = relative ? crawled.reduce((s, k) => s + share(k), 0) / crawled.length : 0;
  const scores = new Map<number, number>();
  for (const c of frontier) {
    let score = 0;
    for (const k of F) {
      if (!(out.get(k) ?? new Set()).has(c)) continue;
      const w = isLocal.has(k) ? 1 : 1 + (reciprocity * Math.max(0, share(k) - mean)) / (1 - mean);
      score += (w * rank[id.get(k)!]) / (inside(k).length + 1);
    }
    scores.set(c, score);
  }
  return scores;
}

function randomCrawl(seed: number) {
  const list = randomEdgeList(seed, 70, 0.05, 0.15);
  const random = seededRandom(seed + 500);
  const local = Array.from({ length: 15 }, (_, i) => i);
  const crawled = Array.from({ length: 55 }, (_, i) => i + 15).filter(() => random() < 0.35);
  const supergraph = supergraphOf(list, local, crawled);
  const input = selectionInput(supergraph, pageRank(supergraph.graph(), { alpha, tolerance: 1e-12 }).rank, alpha);
  return { list, local, crawled, supergraph, input };
}

describe('RecipFlow selector', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('scores equal a direct dense computation from the edge list (random crawl %i)', (seed) => {
    const { list, local, crawled, supergraph, input } = randomCrawl(seed);
    const keys = supergraph.frontierView().keys;
    expect(keys.length).toBeGreaterThan(0);
    const direct = directScores(list, local, crawled);
    expect(direct.size).toBe(keys.length);
    const scores = reciprocalFlowScores(input, { tolerance: 1e-15 });
    keys.forEach((key, c) => expect(scores[c]).toBeCloseTo(direct.get(key)!, 12));
    // Other constants, the same way.
    const other = directScores(list, local, crawled, 2, 0.5);
    const otherScores = reciprocalFlowScores(input, { tolerance: 1e-15, scale: 2, reciprocity: 0.5 });
    keys.forEach((key, c) => expect(otherScores[c]).toBeCloseTo(other.get(key)!, 12));
    // Relative reciprocity, with the defaults and with other constants.
    const relative = directScores(list, local, crawled, 0.75, 5, true);
    const relativeScores = reciprocalFlowScores(input, { tolerance: 1e-15, relative: true });
    keys.forEach((key, c) => expect(relativeScores[c]).toBeCloseTo(relative.get(key)!, 12));
    const otherRelative = directScores(list, local, crawled, 2, 3, true);
    const otherRelativeScores = reciprocalFlowScores(input, { tolerance: 1e-15, scale: 2, reciprocity: 3, relative: true });
    keys.forEach((key, c) => expect(otherRelativeScores[c]).toBeCloseTo(otherRelative.get(key)!, 12));
    expect(Array.from(relativeScores)).not.toEqual(Array.from(scores));
  });

  it.each([11, 12, 13, 14])('picks the k frontier pages of highest direct score, best first (random crawl %i)', (seed) => {
    const { list, local, crawled, supergraph, input } = randomCrawl(seed);
    const keys = supergraph.frontierView().keys;
    const direct = directScores(list, local, crawled);
    const k = Math.min(5, keys.length);
    const expected = [...direct.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k).map(([key]) => key);
    const picked = Array.from(reciprocalFlowSelector.select(input, k), (c) => keys[c]);
    expect(picked).toEqual(expected);
    expect(reciprocalFlowSelector.name).toBe('recipflow');
  });

  it('builds the same world model from the selection input as from the supergraph', () => {
    for (const seed of [21, 22, 23]) {
      const { supergraph, input } = randomCrawl(seed);
      const fromInput = frontierWorldModelOfInput(input);
      const fromSupergraph = frontierWorldModel(supergraph);
      expect(Array.from(fromInput.linksToWorld)).toEqual(Array.from(fromSupergraph.linksToWorld));
      expect(Array.from(fromInput.worldOut)).toEqual(Array.from(fromSupergraph.worldOut));
      expect(fromInput.frontierPages).toBe(fromSupergraph.frontierPages);
    }
  });

  it('weighs a crawled global page by its share of links into L', () => {
    // L = {0, 1}; crawled global pages 2 (links to 0, 1, 3, 4: half into L) and 3 (links to 4 only); 4 is crawled too.
    const list: EdgeList = { pages: 8, edges: [[0, 2], [1, 5], [2, 0], [2, 1], [2, 3], [2, 4], [3, 4], [4, 6], [3, 7]] };
    const supergraph = supergraphOf(list, [0, 1], [2, 3, 4]);
    const weights = reciprocityWeights({ graph: supergraph.graph(), isLocal: supergraph.localMask() }, 5);
    expect(Array.from(weights)).toEqual([1, 1, 1 + 5 * 0.5, 1, 1]);
    // Relative: the mean share of the three crawled pages is 1/6, so page 2 counts (1/2 − 1/6) / (1 − 1/6) = 2/5 of it.
    const relative = reciprocityWeights({ graph: supergraph.graph(), isLocal: supergraph.localMask() }, 5, true);
    expect(Array.from(relative).map((w) => Number(w.toFixed(12)))).toEqual([1, 1, 3, 1, 1]);
  });

  it('gives every page weight 1 when every crawled page links only into L (relative reciprocity)', () => {
    // L = {0, 1}; crawled 2 and 3 link only into L: the mean share is 1 and nothing stands out.
    const list: EdgeList = { pages: 5, edges: [[0, 2], [1, 3], [2, 0], [3, 1], [3, 0], [0, 4]] };
    const supergraph = supergraphOf(list, [0, 1], [2, 3]);
    const relative = reciprocityWeights({ graph: supergraph.graph(), isLocal: supergraph.localMask() }, 5, true);
    expect(Array.from(relative)).toEqual([1, 1, 1, 1]);
    expect(Array.from(reciprocityWeights({ graph: supergraph.graph(), isLocal: supergraph.localMask() }, 5))).toEqual([1, 1, 6, 6]);
  });

  it('returns no scores for an empty frontier', () => {
    const list = randomEdgeList(31, 30, 0.1, 0.1);
    const all = Array.from({ length: 30 }, (_, i) => i);
    const supergraph = supergraphOf(list, all.slice(0, 10), all.slice(10));
    expect(supergraph.frontierSize).toBe(0);
    const input = selectionInput(supergraph, pageRank(supergraph.graph()).rank, alpha);
    expect(reciprocalFlowScores(input)).toHaveLength(0);
    expect(reciprocalFlowSelector.select(input, 3)).toHaveLength(0);
  });
});
