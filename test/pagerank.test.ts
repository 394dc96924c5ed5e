/**
 * The reference PageRank (indexer/pagerank.ts) against values computed independently of it: the
 * shared reference vectors (numpy / networkx, 1e-14) and a dense direct solve of `P·r = r`.
 */
import { describe, expect, it } from 'vitest';
import { buildGraph, type LinkGraph } from '../indexer/graph.ts';
import { loadWebGraph, readPageVector } from '../indexer/graph-files.ts';
import { l1Distance } from '../indexer/metrics.ts';
import { pageRank, PageRankOptionError } from '../indexer/pagerank.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { densePageRankMatrix, randomEdgeList, type EdgeList } from './helpers/random-graphs.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

/** The graphs of ../shared/data with the reference vector; notredame has no nodes file. */
const SHARED_GRAPHS = ['hollins', 'california', 'polblogs', 'notredame'] as const;

function loadSharedGraph(name: (typeof SHARED_GRAPHS)[number]): { graph: LinkGraph; truth: Float64Array } {
  const web = loadWebGraph({ edges: sharedGraphFile(name, 'edges'), nodes: name === 'notredame' ? undefined : sharedGraphFile(name, 'nodes') });
  return { graph: web.graph, truth: readPageVector(sharedGraphFile(name, 'pagerank'), web) };
}

function graphOf(list: EdgeList): LinkGraph {
  return buildGraph(list.pages, list.edges.map(([a]) => a), list.edges.map(([, b]) => b));
}

/**
 * The stationary vector of a dense column-stochastic matrix by Gaussian elimination with
 * partial pivoting on `(P − I)·r = 0` with one row replaced by `Σ r = 1` — a direct solve that
 * shares nothing with the iterative methods under test.
 */
function denseSolveStationary(P: number[][]): Float64Array {
  const n = P.length;
  const a = P.map((row, i) => [...row.map((value, j) => value - (i === j ? 1 : 0)), 0]);
  a[n - 1] = [...new Array(n).fill(1), 1];
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) pivot = row;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let row = 0; row < n; row++) {
      if (row === col || a[row][col] === 0) continue;
      const factor = a[row][col] / a[col][col];
      for (let k = col; k <= n; k++) a[row][k] -= factor * a[col][k];
    }
  }
  return Float64Array.from({ length: n }, (_, i) => a[i][n] / a[i][i]);
}

/** A personalised teleport vector with some zero entries, as a Float64Array and a plain array. */
function randomTeleport(seed: number, n: number): Float64Array {
  const random = seededRandom(seed);
  const v = Float64Array.from({ length: n }, () => (random() < 0.3 ? 0 : random()));
  v[0] += 0.1;
  return v;
}

describe.skipIf(!hasSharedData)(`pageRank against the shared reference vectors (${hasSharedData ? 'present' : sharedDataSkipReason})`, () => {
  for (const name of SHARED_GRAPHS) {
    it(`${name}: L1 < 1e-6 at tolerance 1e-10`, () => {
      const { graph, truth } = loadSharedGraph(name);
      const result = pageRank(graph, { tolerance: 1e-10, maxIterations: 10_000 });
      expect(result.converged).toBe(true);
      expect(l1Distance(result.rank, truth)).toBeLessThan(1e-6);
    });
  }
});

describe('pageRank against a dense direct solve', () => {
  const cases = Array.from({ length: 12 }, (_, c) => ({ seed: 100 + c, pages: 5 + 3 * c, density: 0.05 + 0.03 * (c % 5) }));

  it.each(cases)('uniform teleport, seed $seed, $pages pages', ({ seed, pages, density }) => {
    const list = randomEdgeList(seed, pages, density, 0.25);
    const exact = denseSolveStationary(densePageRankMatrix(list, 0.85));
    const result = pageRank(graphOf(list), { tolerance: 1e-13, maxIterations: 10_000 });
    expect(result.converged).toBe(true);
    expect(l1Distance(result.rank, exact)).toBeLessThan(1e-11);
  });

  it.each(cases)('personalised teleport and α = 0.7, seed $seed', ({ seed, pages, density }) => {
    const list = randomEdgeList(seed, pages, density, 0.25);
    const teleport = randomTeleport(seed, pages);
    const exact = denseSolveStationary(densePageRankMatrix(list, 0.7, Array.from(teleport, (x) => x / teleport.reduce((a, b) => a + b, 0))));
    const result = pageRank(graphOf(list), { alpha: 0.7, teleport, tolerance: 1e-13, maxIterations: 10_000 });
    expect(l1Distance(result.rank, exact)).toBeLessThan(1e-11);
  });

  it('a warm start reaches the same vector, in fewer iterations when it is close', () => {
    const list = randomEdgeList(7, 40, 0.08, 0.25);
    const graph = graphOf(list);
    const exact = denseSolveStationary(densePageRankMatrix(list, 0.85));
    const cold = pageRank(graph, { tolerance: 1e-12 });
    const random = seededRandom(3);
    const nearby = Float64Array.from(exact, (x) => x * (1 + 0.01 * (random() - 0.5)) * 7);
    const warm = pageRank(graph, { tolerance: 1e-12, start: nearby });
    expect(l1Distance(warm.rank, exact)).toBeLessThan(1e-10);
    expect(warm.iterations).toBeLessThan(cold.iterations);
    const far = Float64Array.from({ length: 40 }, (_, i) => (i === 0 ? 1 : 0));
    expect(l1Distance(pageRank(graph, { tolerance: 1e-12, start: far }).rank, exact)).toBeLessThan(1e-10);
  });

  it('handles a graph of dangling pages only, a single page, and no pages', () => {
    const isolated = buildGraph(4, [], []);
    expect(Array.from(pageRank(isolated).rank)).toEqual([0.25, 0.25, 0.25, 0.25]);
    const teleport = Float64Array.from([1, 0, 0, 3]);
    const personal = pageRank(isolated, { teleport }).rank;
    expect(l1Distance(personal, [0.25, 0, 0, 0.75])).toBeLessThan(1e-15);
    expect(Array.from(pageRank(buildGraph(1, [], [])).rank)).toEqual([1]);
    expect(pageRank(buildGraph(0, [], [])).rank.length).toBe(0);
  });

  it('reports the last change and converged = false when it runs out of iterations', () => {
    const graph = graphOf(randomEdgeList(11, 30, 0.1));
    const result = pageRank(graph, { tolerance: 1e-12, maxIterations: 3 });
    expect(result.iterations).toBe(3);
    expect(result.converged).toBe(false);
    expect(result.residual).toBeGreaterThan(1e-12);
    expect(result.rank.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
  });
});

describe('pageRank options', () => {
  const graph = buildGraph(3, [0, 1, 2], [1, 2, 0]);
  it.each([
    [{ alpha: 1 }, /alpha must be in \[0, 1\)/],
    [{ alpha: -0.1 }, /alpha/],
    [{ alpha: Number.NaN }, /alpha/],
    [{ tolerance: 0 }, /tolerance must be positive/],
    [{ maxIterations: 0 }, /maxIterations must be a positive integer/],
    [{ maxIterations: 2.5 }, /maxIterations/],
    [{ teleport: new Float64Array(2) }, /teleport vector has 2 entries for 3 pages/],
    [{ teleport: Float64Array.from([1, -1, 1]) }, /teleport vector has an invalid entry -1 at 1/],
    [{ teleport: Float64Array.from([0, 0, 0]) }, /teleport vector sums to 0/],
    [{ start: Float64Array.from([1, Number.POSITIVE_INFINITY, 0]) }, /start vector has an invalid entry/],
    [{ start: new Float64Array(4) }, /start vector has 4 entries/],
  ])('rejects %o', (options, message) => {
    expect(() => pageRank(graph, options)).toThrow(PageRankOptionError);
    expect(() => pageRank(graph, options)).toThrow(message);
  });

  it('does not modify the caller’s teleport or start vectors', () => {
    const teleport = Float64Array.from([2, 1, 1]);
    const start = Float64Array.from([5, 0, 5]);
    pageRank(graph, { teleport, start });
    expect(Array.from(teleport)).toEqual([2, 1, 1]);
    expect(Array.from(start)).toEqual([5, 0, 5]);
  });
});
