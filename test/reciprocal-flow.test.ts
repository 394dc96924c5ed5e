import { describe, expect, it } from 'vitest';
import { buildGraph } from '../indexer/graph.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { frontierWorldModel } from '../indexer/estimation/frontier-world.ts';
import { frontierWorldModelOfInput, reciprocalFlowScores, reciprocalFlowSelector, reciprocityWeights } from '../indexer/estimation/reciprocal-flow.ts';
import { createSelector } from '../indexer/estimation/selectors.ts';
import { pageOfGraph } from '../indexer/estimation/experiment.ts';
import { selectionInput } from '../indexer/estimation/find-global-pagerank.ts';
import { Supergraph } from '../indexer/estimation/supergraph.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { denseStationary, randomEdgeList, type EdgeList } from './helpers/random-graphs.ts';

const alpha = 0.85;

function supergraphOf(list: EdgeList, local: number[], crawled: number[]): Supergraph<number> {
  const graph = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
  const supergraph = new Supergraph(local.map((p) => pageOfGraph(graph, p)));
  supergraph.addPages(crawled.map((p) => pageOfGraph(graph, p)));
  return supergraph;
}

/**
 * RecipFlow's scores computed directly from the global edge list (no Supergraph, selection or frontier-world code):
 * F = local then crawled pages, W = the frontier as one node worth `scale · |frontier|` pages (dense stationary vector),
 * then for every frontier page `Σ_{k→c} w[k] x[k] / (o[k] + 1)`. Returns the scores by frontier page.
 */
function directScores(list: EdgeList, local: number[], crawled: number[], scale = 0.75, reciprocity = 5): Map<number, number> {
  const F = [...local, ...crawled];
  const id = new Map(F.map((p, i) => [p, i]));
  const isLocal = new Set(local);
  const out = new Map<number, Set<number>>();
  for (const [a, b] of list.edges) if (a !== b) (out.get(a) ?? out.set(a, new Set()).get(a)!).add(b);
  const frontier = new Set<number>();
  for (const p of F) for (const t of out.get(p) ?? []) if (!id.has(t)) frontier.add(t);
  const m = F.length;
  const W = m;
  const v = new Array(m + 1).fill(1 / (m + scale * frontier.size));
  v[W] = (scale * frontier.size) / (m + scale * frontier.size);
  const P = Array.from({ length: m + 1 }, () => new Array(m + 1).fill(0));
  const column = (col: number, weights: Map<number, number>) => {
    const total = [...weights.values()].reduce((a, b) => a + b, 0);
    for (let row = 0; row <= m; row++) P[row][col] = total === 0 ? v[row] : (1 - alpha) * v[row];
    if (total > 0) for (const [row, w] of weights) P[row][col] += (alpha * w) / total;
  };
  for (let i = 0; i < m; i++) {
    const weights = new Map<number, number>();
    for (const t of out.get(F[i]) ?? []) weights.set(id.get(t) ?? W, (weights.get(id.get(t) ?? W) ?? 0) + 1);
    column(i, weights);
  }
  const worldOut = new Map<number, number>();
  if (frontier.size > 0) for (const p of crawled) for (const t of out.get(p) ?? []) if (id.has(t)) worldOut.set(id.get(t)!, (worldOut.get(id.get(t)!) ?? 0) + 1);
  column(W, worldOut);
  const x = denseStationary(P).slice(0, m);
  const sum = x.reduce((a, b) => a + b, 0);
  const scores = new Map<number, number>();
  for (const c of frontier) {
    let score = 0;
    for (const k of F) {
      if (!(out.get(k) ?? new Set()).has(c)) continue;
      const inside = [...(out.get(k) ?? [])].filter((t) => id.has(t));
      const intoL = inside.filter((t) => isLocal.has(t)).length;
      const w = isLocal.has(k) ? 1 : 1 + (inside.length > 0 ? (reciprocity * intoL) / inside.length : 0);
      score += (w * x[id.get(k)!]) / sum / (inside.length + 1);
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
  });

  it.each([11, 12, 13, 14])('picks the k frontier pages of highest direct score, best first (random crawl %i)', (seed) => {
    const { list, local, crawled, supergraph, input } = randomCrawl(seed);
    const keys = supergraph.frontierView().keys;
    const direct = directScores(list, local, crawled);
    const k = Math.min(5, keys.length);
    const expected = [...direct.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k).map(([key]) => key);
    const picked = Array.from(createSelector('recipflow').select(input, k), (c) => keys[c]);
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
  });

  it('returns no scores for an empty frontier', () => {
    const list = randomEdgeList(31, 30, 0.1, 0.1);
    const all = Array.from({ length: 30 }, (_, i) => i);
    const supergraph = supergraphOf(list, all.slice(0, 10), all.slice(10));
    expect(supergraph.frontierSize).toBe(0);
    const input = selectionInput(supergraph, pageRank(supergraph.graph()).rank, alpha);
    expect(reciprocalFlowScores(input)).toHaveLength(0);
    expect(createSelector('recipflow').select(input, 3)).toHaveLength(0);
  });
});
