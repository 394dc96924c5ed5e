import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGraph } from '../indexer/graph.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { topK, type SelectionInput } from '../indexer/estimation/selection.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { SortedDeviations, stochasticComplementScores } from '../indexer/estimation/stochastic-complement.ts';
import { linkerCountScores, pageRankFlowScores } from '../indexer/estimation/baseline-selectors.ts';
import { bruteForceScScore, randomEdgeList, type EdgeList } from './helpers/random-graphs.ts';
import { sharedDataDir } from './helpers/shared-data.ts';

interface Frontier {
  linkedFrom: number[];
}

function selectionInputOf(list: EdgeList, rank: Float64Array, local: number[], frontier: Frontier[], alpha: number): SelectionInput {
  const graph = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
  const isLocal = new Uint8Array(list.pages);
  for (const p of local) isLocal[p] = 1;
  const offsets = [0];
  const linkers: number[] = [];
  for (const f of frontier) {
    linkers.push(...f.linkedFrom);
    offsets.push(linkers.length);
  }
  return { graph, rank, isLocal, linkerOffsets: Int32Array.from(offsets), linkers: Int32Array.from(linkers), alpha };
}

const relativeError = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

const referencePath = join(sharedDataDir, 'sc-reference.json');

describe.skipIf(!existsSync(referencePath))(`SC-Select against the shared brute-force reference (${referencePath})`, () => {
  it('matches every scScore within 1e-9 relative, with and without the shared hub rows', () => {
    const reference = JSON.parse(readFileSync(referencePath, 'utf8')) as {
      alpha: number;
      cases: Array<{ pages: number; edges: Array<[number, number]>; local: number[]; pagerank: number[]; frontier: Array<Frontier & { scScore: number }> }>;
    };
    expect(reference.cases.length).toBe(12);
    for (const c of reference.cases) {
      const input = selectionInputOf({ pages: c.pages, edges: c.edges }, Float64Array.from(c.pagerank), c.local, c.frontier, reference.alpha);
      for (const hubThreshold of [1, 16, Infinity]) {
        const scores = stochasticComplementScores(input, { hubThreshold });
        c.frontier.forEach((f, i) => expect(relativeError(scores[i], f.scScore)).toBeLessThan(1e-9));
      }
    }
  });
});

describe('SC-Select against a dense brute-force model built here', () => {
  it('matches ‖E_L(S_j f − f)‖₁ on random graphs with dangling linkers, shared linkers and hubs', () => {
    const alpha = 0.85;
    for (let seed = 1; seed <= 25; seed++) {
      const random = seededRandom(1000 + seed);
      const pages = 8 + Math.floor(random() * 30);
      const list = randomEdgeList(seed, pages, 0.05 + random() * 0.25, 0.25);
      const graph = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
      const f = pageRank(graph, { alpha, tolerance: 1e-15, maxIterations: 100_000 }).rank;
      const local = Array.from({ length: pages }, (_, i) => i).filter(() => random() < 0.5);
      if (local.length === 0) local.push(0);
      const frontier: Frontier[] = [];
      for (let j = 0; j < 12; j++) {
        const linkedFrom = Array.from({ length: pages }, (_, i) => i).filter(() => random() < 0.2);
        if (linkedFrom.length === 0) linkedFrom.push(Math.floor(random() * pages));
        frontier.push({ linkedFrom });
      }
      const input = selectionInputOf(list, f, local, frontier, alpha);
      const ref = frontier.map((fr) => bruteForceScScore(list, Array.from(f), local, fr.linkedFrom, alpha));
      for (const hubThreshold of [1, 3, Infinity]) {
        const scores = stochasticComplementScores(input, { hubThreshold });
        ref.forEach((expected, i) => expect(relativeError(scores[i], expected)).toBeLessThan(1e-9));
      }
    }
  });

  it('with the paper’s c-bucket discretisation approaches the exact scores as c grows', () => {
    const list = randomEdgeList(3, 40, 0.1);
    const graph = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
    const f = pageRank(graph, { tolerance: 1e-14 }).rank;
    const local = Array.from({ length: 20 }, (_, i) => i);
    const frontier = Array.from({ length: 30 }, (_, j) => ({ linkedFrom: [j % 40, (j * 7) % 40, (j * 13 + 5) % 40] }));
    const input = selectionInputOf(list, f, local, frontier, 0.85);
    const exact = stochasticComplementScores(input);
    const error = (c: number) => {
      const approx = stochasticComplementScores(input, { buckets: c });
      return Math.max(...Array.from(exact, (e, i) => relativeError(approx[i], e)));
    };
    expect(error(1000)).toBeLessThan(error(4));
    expect(error(1000)).toBeLessThan(1e-2);
    expect(() => stochasticComplementScores(input, { buckets: 1 })).toThrow(RangeError);
  });
});

describe('selection helpers', () => {
  it('SortedDeviations sums |v − τ| exactly', () => {
    const values = Float64Array.from([0.3, -1, 2, 2, 0.5]);
    const sorted = new SortedDeviations(values);
    for (const tau of [-3, -1, 0, 0.4, 2, 5]) {
      expect(sorted.sumAbsDeviation(tau)).toBeCloseTo(Array.from(values).reduce((s, v) => s + Math.abs(v - tau), 0), 12);
    }
  });

  it('topK returns the best first, ties to the lower index, NaN last', () => {
    const scores = Float64Array.from([0.5, 0.9, NaN, 0.9, 0.1, 0.5]);
    expect(Array.from(topK(scores, 4))).toEqual([1, 3, 0, 5]);
    expect(Array.from(topK(scores, 10))).toEqual([1, 3, 0, 5, 4, 2]);
    expect(Array.from(topK(scores, 0))).toEqual([]);
  });

  it('PF-Select is the flow Σ f[k]/(o[k]+1); OutlinkCount the number of linkers', () => {
    const list: EdgeList = { pages: 3, edges: [[0, 1], [0, 2], [1, 2]] };
    const f = Float64Array.from([0.2, 0.3, 0.5]);
    const input = selectionInputOf(list, f, [0, 1, 2], [{ linkedFrom: [0, 2] }, { linkedFrom: [1] }], 0.85);
    const flow = pageRankFlowScores(input);
    expect(flow[0]).toBeCloseTo(0.2 / 3 + 0.5 / 1, 15);
    expect(flow[1]).toBeCloseTo(0.3 / 2, 15);
    expect(Array.from(linkerCountScores(input))).toEqual([2, 1]);
  });
});
