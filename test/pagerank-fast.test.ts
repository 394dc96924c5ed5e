/**
 * The fast PageRank solver (indexer/pagerank-fast.ts) against the reference power iteration, a
 * dense brute-force solve, and the shared reference vectors. Its `residual` is a guaranteed
 * bound on the L1 error, so the tests check the bound as well as the answer.
 */
import { describe, expect, it } from 'vitest';
import { buildGraph, graphFromAdjacency, type LinkGraph } from '../indexer/graph.ts';
import { loadWebGraph, readPageVector } from '../indexer/graph-files.ts';
import { l1Distance } from '../indexer/metrics.ts';
import { pageRank, PageRankOptionError } from '../indexer/pagerank.ts';
import { pageRankFast } from '../indexer/pagerank-fast.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { densePageRankMatrix, denseStationary, randomEdgeList, type EdgeList } from './helpers/random-graphs.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

function graphOf(list: EdgeList): LinkGraph {
  return buildGraph(list.pages, list.edges.map(([a]) => a), list.edges.map(([, b]) => b));
}

function randomTeleport(seed: number, n: number): Float64Array {
  const random = seededRandom(seed);
  const v = Float64Array.from({ length: n }, () => (random() < 0.3 ? 0 : random()));
  v[n - 1] += 0.1;
  return v;
}

function normalised(vector: Float64Array): number[] {
  const sum = vector.reduce((a, b) => a + b, 0);
  return Array.from(vector, (x) => x / sum);
}

/** Pages linking back to a hub and to each other: where the reciprocal-pair update acts. */
function hubsAndCycles(): LinkGraph {
  const rows: number[][] = [];
  const hub = 0;
  rows[hub] = [1, 2, 3, 4, 5, 6];
  for (let p = 1; p <= 6; p++) rows[p] = p % 2 === 0 ? [hub] : [hub, p + 1, 7];
  rows[7] = [8];
  rows[8] = [7]; // a closed two-cycle
  rows[9] = [10, 11, 12];
  rows[10] = [9, 11, 12];
  rows[11] = [9, 10, 12];
  rows[12] = [9, 10, 11, 13]; // a near-clique with one way out
  rows[13] = []; // dangling
  return graphFromAdjacency(rows);
}

describe('pageRankFast against a dense brute-force solve', () => {
  const cases = Array.from({ length: 16 }, (_, c) => ({ seed: 500 + c, pages: 4 + 4 * c, density: 0.04 + 0.04 * (c % 6) }));

  it.each(cases)('uniform teleport, seed $seed, $pages pages: error below the bound and the tolerance', ({ seed, pages, density }) => {
    const list = randomEdgeList(seed, pages, density, 0.3);
    const exact = denseStationary(densePageRankMatrix(list, 0.85));
    for (const tolerance of [1e-4, 1e-8, 1e-12]) {
      const result = pageRankFast(graphOf(list), { tolerance });
      expect(result.converged).toBe(true);
      const error = l1Distance(result.rank, exact);
      expect(error).toBeLessThan(tolerance);
      expect(error).toBeLessThanOrEqual(result.residual + 1e-14);
    }
  });

  it.each(cases)('personalised teleport, α = 0.9, seed $seed', ({ seed, pages, density }) => {
    const list = randomEdgeList(seed, pages, density, 0.3);
    const teleport = randomTeleport(seed, pages);
    const exact = denseStationary(densePageRankMatrix(list, 0.9, normalised(teleport)));
    const result = pageRankFast(graphOf(list), { alpha: 0.9, teleport, tolerance: 1e-11 });
    expect(l1Distance(result.rank, exact)).toBeLessThan(1e-11);
  });

  it('hubs with pages linking back, two-cycles and near-cliques, at several α', () => {
    const graph = hubsAndCycles();
    const list: EdgeList = { pages: graph.nodeCount, edges: [] };
    for (let i = 0; i < graph.nodeCount; i++) {
      for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) list.edges.push([i, graph.outTargets[e]]);
    }
    for (const [alpha, tolerance] of [[0, 1e-12], [0.5, 1e-12], [0.85, 1e-12], [0.99, 1e-10]]) {
      const exact = denseStationary(densePageRankMatrix(list, alpha));
      const result = pageRankFast(graph, { alpha, tolerance, maxIterations: 100_000 });
      expect(result.converged).toBe(true);
      expect(l1Distance(result.rank, exact)).toBeLessThan(tolerance);
    }
    // A guarantee below the rounding floor is not reached: it stops, unconverged, with its bound.
    const unreachable = pageRankFast(graph, { alpha: 0.99, tolerance: 1e-15, maxIterations: 100_000 });
    expect(unreachable.converged).toBe(false);
    expect(unreachable.iterations).toBeLessThan(10_000);
    expect(unreachable.residual).toBeLessThan(1e-11);
  });
});

describe('pageRankFast against the reference pageRank', () => {
  it('agrees within the tolerance on random graphs, uniform and personalised', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const graph = graphOf(randomEdgeList(seed, 200 + 30 * seed, 0.02, 0.3));
      const reference = pageRank(graph, { tolerance: 1e-14, maxIterations: 10_000 });
      const fast = pageRankFast(graph, { tolerance: 1e-8 });
      expect(l1Distance(fast.rank, reference.rank)).toBeLessThan(1e-8);
      const teleport = randomTeleport(seed, graph.nodeCount);
      const personal = pageRank(graph, { teleport, alpha: 0.8, tolerance: 1e-14, maxIterations: 10_000 });
      expect(l1Distance(pageRankFast(graph, { teleport, alpha: 0.8, tolerance: 1e-8 }).rank, personal.rank)).toBeLessThan(1e-8);
    }
  });

  it('warm starts: any start reaches the same vector; a close one in fewer sweeps', () => {
    const graph = graphOf(randomEdgeList(42, 400, 0.015, 0.3));
    const exact = pageRank(graph, { tolerance: 1e-14, maxIterations: 10_000 }).rank;
    const cold = pageRankFast(graph, { tolerance: 1e-10 });
    const random = seededRandom(9);
    const nearby = Float64Array.from(exact, (x) => x * (1 + 0.001 * (random() - 0.5)) * 3);
    const warm = pageRankFast(graph, { tolerance: 1e-10, start: nearby });
    expect(l1Distance(warm.rank, exact)).toBeLessThan(1e-10);
    expect(warm.iterations).toBeLessThan(cold.iterations);
    const far = Float64Array.from({ length: graph.nodeCount }, (_, i) => (i === 7 ? 1 : 0));
    expect(l1Distance(pageRankFast(graph, { tolerance: 1e-10, start: far }).rank, exact)).toBeLessThan(1e-10);
    const atSolution = pageRankFast(graph, { tolerance: 1e-10, start: exact });
    expect(atSolution.iterations).toBe(1);
  });

  it('gives the same answers when one graph is ranked repeatedly with different α (cached preparation)', () => {
    const graph = graphOf(randomEdgeList(77, 300, 0.02, 0.3));
    for (const alpha of [0.85, 0.5, 0.85, 0.95]) {
      const reference = pageRank(graph, { alpha, tolerance: 1e-14, maxIterations: 10_000 }).rank;
      expect(l1Distance(pageRankFast(graph, { alpha, tolerance: 1e-10 }).rank, reference)).toBeLessThan(1e-10);
    }
  });

  it('handles dangling pages only, teleport only on dangling pages, α = 0, one page and no pages', () => {
    const isolated = buildGraph(4, [], []);
    expect(Array.from(pageRankFast(isolated).rank)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(l1Distance(pageRankFast(isolated, { teleport: Float64Array.from([1, 0, 0, 3]) }).rank, [0.25, 0, 0, 0.75])).toBeLessThan(1e-15);
    // Pages 0 → 1 → 2 (dangling); all teleport lands on page 2.
    const chain = buildGraph(3, [0, 1], [1, 2]);
    const onDangling = Float64Array.from([0, 0, 1]);
    expect(l1Distance(pageRankFast(chain, { teleport: onDangling }).rank, pageRank(chain, { teleport: onDangling, tolerance: 1e-15 }).rank)).toBeLessThan(1e-12);
    expect(l1Distance(pageRankFast(chain, { alpha: 0 }).rank, [1 / 3, 1 / 3, 1 / 3])).toBeLessThan(1e-15);
    expect(Array.from(pageRankFast(buildGraph(1, [], [])).rank)).toEqual([1]);
    expect(pageRankFast(buildGraph(0, [], [])).rank.length).toBe(0);
  });

  it('reports converged = false with its error bound when it runs out of sweeps', () => {
    const graph = graphOf(randomEdgeList(11, 300, 0.02));
    const result = pageRankFast(graph, { tolerance: 1e-12, maxIterations: 2 });
    expect(result.iterations).toBe(2);
    expect(result.converged).toBe(false);
    const exact = pageRank(graph, { tolerance: 1e-14, maxIterations: 10_000 }).rank;
    expect(l1Distance(result.rank, exact)).toBeLessThanOrEqual(result.residual);
  });

  it('rejects the same options as pageRank', () => {
    const graph = buildGraph(3, [0, 1, 2], [1, 2, 0]);
    expect(() => pageRankFast(graph, { alpha: 1 })).toThrow(PageRankOptionError);
    expect(() => pageRankFast(graph, { tolerance: -1 })).toThrow(/tolerance must be positive/);
    expect(() => pageRankFast(graph, { teleport: new Float64Array(2) })).toThrow(/teleport vector has 2 entries for 3 pages/);
    expect(() => pageRankFast(graph, { start: Float64Array.from([0, 0, 0]) })).toThrow(/start vector sums to 0/);
  });
});

describe.skipIf(!hasSharedData)(`pageRankFast against the shared reference vectors (${hasSharedData ? 'present' : sharedDataSkipReason})`, () => {
  for (const name of ['hollins', 'california', 'polblogs', 'notredame'] as const) {
    it(`${name}: L1 < 1e-6 at tolerance 1e-10, and below its own bound at 1e-6`, () => {
      const web = loadWebGraph({ edges: sharedGraphFile(name, 'edges'), nodes: name === 'notredame' ? undefined : sharedGraphFile(name, 'nodes') });
      const truth = readPageVector(sharedGraphFile(name, 'pagerank'), web);
      const tight = pageRankFast(web.graph, { tolerance: 1e-10 });
      expect(tight.converged).toBe(true);
      expect(l1Distance(tight.rank, truth)).toBeLessThan(1e-6);
      // The reference vectors hold 1e-14 accuracy; the bound must hold against them.
      const loose = pageRankFast(web.graph, { tolerance: 1e-6 });
      expect(l1Distance(loose.rank, truth)).toBeLessThan(loose.residual);
      expect(loose.residual).toBeLessThan(1e-6);
    });
  }
});
