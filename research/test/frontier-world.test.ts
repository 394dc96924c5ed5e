import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../indexer/graph.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { CONSENSUS_TRAJECTORY, frontierWorldModel, frontierWorldModelAt, frontierWorldRank, trajectoryWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { checkedWorldRank } from '../estimation/checked-world.ts';
import { estimateOf, RESEARCH_METHODS } from '../estimation/methods.ts';
import { BEST_METHOD, estimateOverSupergraph } from '../../indexer/estimation/estimators.ts';
import { knownGraphSource, pageOfGraph, runExperiment } from '../../indexer/estimation/experiment.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { createSelector } from '../../indexer/estimation/selectors.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';
import { densePageRankMatrix, denseStationary, randomEdgeList, type EdgeList } from '../../test/helpers/random-graphs.ts';
import { denseWorld, supergraphOf } from '../../test/helpers/dense-world.ts';
import type { Supergraph } from '../../indexer/estimation/supergraph.ts';

const alpha = 0.85;

/** The dense reference model's stationary vector over F (test/helpers/dense-world.ts). */
function bruteForceWorld(list: EdgeList, local: number[], crawled: number[], scale = 1): number[] {
  return denseWorld(list, local, crawled, scale, alpha).rank;
}

function graphOf(list: EdgeList) {
  return buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
}

/**
 * A random 70-page graph, pages 0–14 local, and about half the rest crawled in an order drawn with `orderSeed`: the edge
 * list, the crawl, its supergraph and the supergraph's PageRank (to 1e-14).
 */
function crawlOf(seed: number, orderSeed: number) {
  const list = randomEdgeList(seed, 70, 0.05, 0.15);
  const random = seededRandom(orderSeed);
  const local = Array.from({ length: 15 }, (_, i) => i);
  // Crawl order deliberately not the page order.
  const crawled = Array.from({ length: 55 }, (_, i) => 69 - i).filter(() => random() < 0.5);
  const supergraph = supergraphOf(list, local, crawled);
  return { list, local, crawled, supergraph, rank: pageRank(supergraph.graph(), { alpha, tolerance: 1e-14 }).rank };
}

/**
 * Runs FindGlobalPR with an estimator on the graph of `crawlOf(seed, …)`, pages 0–14 local, and returns, per
 * iteration, the L1 distance of its estimate to `direct` applied to the same supergraph and PageRank (with
 * FindGlobalPR's own tolerance, 1e-12).
 */
async function estimatorAgreement<R extends { rank: Float64Array }>(
  seed: number,
  estimator: 'checked' | 'trajectory' | 'consensus',
  direct: (supergraph: Supergraph<number>, rank: Float64Array, options: { tolerance: number }) => R,
): Promise<{ distances: number[]; results: R[] }> {
  const graph = graphOf(randomEdgeList(seed, 70, 0.05, 0.15));
  const local = Array.from({ length: 15 }, (_, i) => i);
  const distances: number[] = [];
  const results: R[] = [];
  await findGlobalPageRank({
    localPages: local.map((p) => pageOfGraph(graph, p)),
    source: knownGraphSource(graph),
    selector: createSelector('outlink'),
    estimator: estimateOf(estimator),
    iterations: 4,
    extraPages: 20,
    pageRank: { tolerance: 1e-12 },
    onIteration: ({ supergraph, rank, estimate }) => {
      const result = direct(supergraph, rank, { tolerance: 1e-12 });
      results.push(result);
      distances.push(l1Distance(estimate, restrictAndNormalise(result.rank, supergraph.localIds())));
    },
  });
  return { distances, results };
}


describe('frontier-world estimate', () => {
  it.each([1, 2, 3, 4, 5, 6])('equals a dense brute-force model of F ∪ {W} (random graph %i)', (seed) => {
    const list = randomEdgeList(seed, 60, 0.06, 0.15);
    const random = seededRandom(seed + 100);
    const local = Array.from({ length: 15 }, (_, i) => i);
    const crawled = Array.from({ length: 45 }, (_, i) => i + 15).filter(() => random() < 0.4);
    const supergraph = supergraphOf(list, local, crawled);
    const estimate = frontierWorldRank(frontierWorldModel(supergraph), { alpha, tolerance: 1e-14 });
    const reference = bruteForceWorld(list, local, crawled);
    expect(supergraph.frontierSize).toBeGreaterThan(0);
    expect(l1Distance(estimate, reference)).toBeLessThan(1e-10);
  });

  it('with nothing crawled yet W returns its rank by teleport (brute force again)', () => {
    const list = randomEdgeList(9, 50, 0.08, 0.1);
    const local = Array.from({ length: 20 }, (_, i) => i);
    const estimate = frontierWorldRank(frontierWorldModel(supergraphOf(list, local, [])), { alpha, tolerance: 1e-14 });
    expect(l1Distance(estimate, bruteForceWorld(list, local, []))).toBeLessThan(1e-10);
  });

  it('equals the supergraph PageRank when the frontier is empty', () => {
    const list = randomEdgeList(7, 40, 0.1, 0.1);
    const all = Array.from({ length: 40 }, (_, i) => i);
    const supergraph = supergraphOf(list, all.slice(0, 10), all.slice(10));
    expect(supergraph.frontierSize).toBe(0);
    const estimate = frontierWorldRank(frontierWorldModel(supergraph), { alpha, tolerance: 1e-14 });
    const reference = pageRank(supergraph.graph(), { alpha, tolerance: 1e-14 }).rank;
    expect(l1Distance(estimate, reference)).toBeLessThan(1e-10);
    expect(estimateOverSupergraph('supergraph', supergraph, reference)).toBe(reference);
  });

  it('gives a local page that the outside keeps linking to more than the supergraph does', () => {
    // L = 0…9 in a ring; page 0 is linked from every crawled global page (10…29); those link on
    // to 40 uncrawled pages (the frontier), which the model treats like the crawled ones.
    const edges: Array<[number, number]> = [];
    for (let i = 0; i < 10; i++) edges.push([i, (i + 1) % 10]);
    for (let i = 0; i < 10; i++) edges.push([i, 10 + i]);
    for (let g = 10; g < 30; g++) {
      edges.push([g, 0]);
      edges.push([g, 30 + (g % 20)], [g, 50 + (g % 20)]);
    }
    const list = { pages: 70, edges };
    const local = Array.from({ length: 10 }, (_, i) => i);
    const crawled = Array.from({ length: 20 }, (_, i) => i + 10);
    const supergraph = supergraphOf(list, local, crawled);
    const world = restrictAndNormalise(frontierWorldRank(frontierWorldModel(supergraph)), local);
    const plain = restrictAndNormalise(pageRank(supergraph.graph(), { tolerance: 1e-12 }).rank, local);
    expect(world[0]).toBeGreaterThan(plain[0] * 1.05);
  });
});

/** PageRank of the plain supergraph F = local ∪ crawled (links among F only), densely; F's order. */
function bruteForceSupergraph(list: EdgeList, local: number[], crawled: number[]): number[] {
  const F = [...local, ...crawled];
  const id = new Map(F.map((p, i) => [p, i]));
  const edges = list.edges.filter(([a, b]) => id.has(a) && id.has(b)).map(([a, b]): [number, number] => [id.get(a)!, id.get(b)!]);
  return denseStationary(densePageRankMatrix({ pages: F.length, edges }, alpha));
}

function localPart(vector: ArrayLike<number>, count: number): number[] {
  const part = Array.from(vector).slice(0, count);
  const sum = part.reduce((a, b) => a + b, 0);
  return part.map((x) => x / sum);
}

describe('the world model of an earlier supergraph and the checked world estimate', () => {

  it.each([1, 2, 3, 4, 5])('the prefix model equals the model of the supergraph built from the prefix alone, and the brute force (graph %i)', (seed) => {
    const { list, local, crawled, supergraph } = crawlOf(seed, seed + 300);
    for (const keep of [0, 3, Math.floor(crawled.length / 2), crawled.length]) {
      const model = frontierWorldModelAt(supergraph, local.length + keep);
      const direct = frontierWorldModel(supergraphOf(list, local, crawled.slice(0, keep)));
      expect(model.frontierPages).toBe(direct.frontierPages);
      expect(Array.from(model.linksToWorld)).toEqual(Array.from(direct.linksToWorld));
      expect(Array.from(model.worldOut)).toEqual(Array.from(direct.worldOut));
      expect(Array.from(model.graph.outOffsets)).toEqual(Array.from(direct.graph.outOffsets));
      expect(Array.from(model.graph.outTargets)).toEqual(Array.from(direct.graph.outTargets));
      for (const scale of [0, 0.75, 2]) {
        const estimate = frontierWorldRank(model, { alpha, tolerance: 1e-14, scale });
        expect(l1Distance(estimate, bruteForceWorld(list, local, crawled.slice(0, keep), scale))).toBeLessThan(1e-10);
      }
    }
    expect(() => frontierWorldModelAt(supergraph, local.length - 1)).toThrow(RangeError);
    expect(() => frontierWorldModelAt(supergraph, supergraph.size + 1)).toThrow(RangeError);
  });

  it('decides as the dense reference does: the world estimate when the crawl moved the local estimate along the earlier world correction, by enough', () => {
    const decisions: boolean[] = [];
    const reasons = new Set<string>();
    // The defaults, then other settings (so that every branch is reached on these small graphs).
    const settings = [
      { options: {}, share: 0.75, scale: 0.75, threshold: 0.25, minRealised: 0.03 },
      { options: { prefixShare: 0.5, scale: 1.5, threshold: 0.1, minRealised: 0.6 }, share: 0.5, scale: 1.5, threshold: 0.1, minRealised: 0.6 },
    ];
    for (const { options, share, scale, threshold, minRealised } of settings) {
      for (let seed = 1; seed <= 24; seed++) {
        const { list, local, crawled, supergraph, rank } = crawlOf(seed, seed + 300);
        const result = checkedWorldRank(supergraph, rank, { ...options, alpha, tolerance: 1e-14 });
        // The reference: everything dense, from the edge list.
        const earlier = crawled.slice(0, Math.floor(share * crawled.length));
        const before = localPart(bruteForceSupergraph(list, local, earlier), local.length);
        const predicted = localPart(bruteForceWorld(list, local, earlier, scale), local.length);
        const now = localPart(bruteForceSupergraph(list, local, crawled), local.length);
        const move = now.map((x, j) => x - before[j]);
        const correction = predicted.map((x, j) => x - before[j]);
        const dot = (a: number[], b: number[]) => a.reduce((s, x, j) => s + x * b[j], 0);
        const cosine = dot(move, correction) / Math.sqrt(dot(move, move) * dot(correction, correction));
        const realised = dot(move, correction) / dot(correction, correction);
        expect(result.prefix).toBe(local.length + earlier.length);
        expect(result.cosine).toBeCloseTo(cosine, 6);
        expect(result.realised).toBeCloseTo(realised, 6);
        expect(result.useWorld).toBe(cosine >= threshold && realised >= minRealised);
        reasons.add(cosine < threshold ? 'direction' : realised < minRealised ? 'size' : 'world');
        const expected = result.useWorld ? bruteForceWorld(list, local, crawled, scale) : Array.from(rank);
        expect(l1Distance(result.rank, expected)).toBeLessThan(1e-9);
        if (!result.useWorld) expect(result.rank).toBe(rank);
        decisions.push(result.useWorld);
      }
    }
    // The random graphs exercise both branches, and both reasons to keep the supergraph estimate.
    expect(decisions).toContain(true);
    expect(decisions).toContain(false);
    expect([...reasons].sort()).toEqual(['direction', 'size', 'world']);
  });

  it('keeps the supergraph PageRank when nothing was crawled, the frontier is empty or the estimate did not move', () => {
    const list = randomEdgeList(7, 40, 0.1, 0.1);
    const all = Array.from({ length: 40 }, (_, i) => i);
    const exhausted = supergraphOf(list, all.slice(0, 10), all.slice(10));
    const rank = pageRank(exhausted.graph(), { alpha, tolerance: 1e-12 }).rank;
    expect(checkedWorldRank(exhausted, rank)).toMatchObject({ rank, useWorld: false, prefix: 0 });
    const fresh = supergraphOf(list, all.slice(0, 10), []);
    const localRank = pageRank(fresh.graph(), { alpha, tolerance: 1e-12 }).rank;
    expect(checkedWorldRank(fresh, localRank)).toMatchObject({ rank: localRank, useWorld: false, prefix: 0 });
    // One crawled page that nothing local links to and that links nowhere in F: F's estimate of L does not move.
    const edges: Array<[number, number]> = [[0, 1], [1, 0], [0, 2], [3, 4]];
    const island = supergraphOf({ pages: 5, edges }, [0, 1], [3]);
    const islandRank = pageRank(island.graph(), { alpha, tolerance: 1e-14 }).rank;
    const result = checkedWorldRank(island, islandRank, { alpha, tolerance: 1e-14 });
    expect(result.useWorld).toBe(false);
    expect(result.rank).toBe(islandRank);
  });

  it('is the `checked` estimator of FindGlobalPR', async () => {
    // On this graph the check keeps the supergraph estimate in the first iterations and passes in the last ones.
    const { distances, results } = await estimatorAgreement(1, 'checked', checkedWorldRank);
    expect(distances).toHaveLength(5);
    for (const d of distances) expect(d).toBeLessThan(1e-12);
    expect(results.some((r) => r.useWorld)).toBe(true);
    expect(results.some((r) => !r.useWorld)).toBe(true);
  });
});

describe('the estimator inside FindGlobalPR and the experiment', () => {
  const list = randomEdgeList(21, 400, 0.01, 0.1);
  const graph = graphOf(list);
  const local = Array.from({ length: 60 }, (_, i) => i);

  it('reports the world estimate of every iteration while the selectors still read the supergraph PageRank', async () => {
    const seen: Array<{ estimate: Float64Array; world: Float64Array; rank: Float64Array; plain: Float64Array }> = [];
    const run = await findGlobalPageRank({
      localPages: local.map((p) => pageOfGraph(graph, p)),
      source: knownGraphSource(graph),
      selector: createSelector('outlink'),
      estimator: estimateOf('world'),
      iterations: 3,
      extraPages: 60,
      pageRank: { tolerance: 1e-12 },
      onIteration: ({ supergraph, rank, estimate }) => {
        seen.push({ estimate, rank, world: restrictAndNormalise(frontierWorldRank(frontierWorldModel(supergraph)), local.map((_, i) => i)), plain: pageRank(supergraph.graph(), { tolerance: 1e-12 }).rank });
      },
    });
    expect(seen).toHaveLength(4);
    for (const s of seen) {
      expect(l1Distance(s.estimate, s.world)).toBeLessThan(1e-7);
      expect(l1Distance(s.rank, s.plain)).toBeLessThan(1e-9);
    }
    expect(run.estimate).toBe(seen[3].estimate);
  });

  it('runs `best` next to the selectors, with local PageRank as the baseline whatever the estimate', async () => {
    // A graph and budget where best's estimate departs from its selector's supergraph PageRank in some iterations
    // (the crawl goes far enough for its gate to open).
    const web = { graph: graphOf(randomEdgeList(29, 400, 0.01, 0.1)), ids: Int32Array.from({ length: 400 }, (_, i) => i), skippedLines: 0 };
    const settings = { iterations: 4, extra: { timesDomain: 4 }, alpha, tolerance: 1e-10, seed: 1 };
    const selector = BEST_METHOD.selector;
    const plain = await runExperiment(web, [{ spec: 'ids', pages: Int32Array.from(local) }], { ...settings, selectors: [selector, 'best'] }, undefined, RESEARCH_METHODS);
    const world = await runExperiment(web, [{ spec: 'ids', pages: Int32Array.from(local) }], { ...settings, selectors: [selector], estimator: BEST_METHOD.estimator }, undefined, RESEARCH_METHODS);
    const domain = plain.domains[0];
    expect(Object.keys(domain.selectors)).toEqual([selector, 'best']);
    // best = its selector's crawl with its estimate
    expect(domain.selectors.best.final.l1).toBeCloseTo(world.domains[0].selectors[selector].final.l1, 12);
    domain.selectors.best.perIteration.forEach((it, i) => expect(it.l1).toBeCloseTo(world.domains[0].selectors[selector].perIteration[i].l1, 12));
    // … which is not the selector's supergraph estimate in the iterations where the gate opens.
    expect(domain.selectors.best.perIteration.some((it, i) => Math.abs(it.l1 - domain.selectors[selector].perIteration[i].l1) > 1e-6)).toBe(true);
    expect(world.domains[0].baseline.l1).toBeCloseTo(domain.baseline.l1, 12);
    expect(domain.baseline.l1).toBeCloseTo(domain.selectors[selector].perIteration[0].l1, 12);
  });
});

describe('the trajectory estimate', () => {
  const dot = (a: number[], b: number[]) => a.reduce((s, x, j) => s + x * b[j], 0);

  /** Distinct pages linked from F = local ∪ crawled that are not in F, from the edge list. */
  function frontierCount(list: EdgeList, local: number[], crawled: number[]): number {
    const F = new Set([...local, ...crawled]);
    const frontier = new Set<number>();
    for (const [a, b] of list.edges) if (a !== b && F.has(a) && !F.has(b)) frontier.add(b);
    return frontier.size;
  }

  /** The reference's own median: the middle weight, or the mean of the two middle ones. */
  const middle = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };

  it('equals a dense reference: the windows, the weight and the blended estimate', () => {
    const weights: number[] = [];
    let capped = 0;
    let medianDiffers = 0;
    const settings = [
      { options: {}, shares: [0.75, 0.875], scale: 2, cap: 10, combine: (w: number[]) => w.reduce((a, b) => a + b, 0) / w.length },
      { options: { prefixShares: [0.5], scale: 0.75, maxWeight: 0.4 }, shares: [0.5], scale: 0.75, cap: 0.4, combine: (w: number[]) => w[0] },
      // The consensus estimate: six windows, three times their median, at most 1.
      { options: CONSENSUS_TRAJECTORY, shares: [0.25, 0.375, 0.5, 0.625, 0.75, 0.875], scale: 2, cap: 1, combine: (w: number[]) => 3 * middle(w) },
      // An odd number of windows: the median is one of them.
      { options: { prefixShares: [0.3, 0.6, 0.9], aggregate: 'median', gain: 2 } as const, shares: [0.3, 0.6, 0.9], scale: 2, cap: 10, combine: (w: number[]) => 2 * middle(w) },
    ];
    for (const { options, shares, scale, cap, combine } of settings) {
      for (let seed = 1; seed <= 24; seed++) {
        const { list, local, crawled, supergraph, rank } = crawlOf(seed, seed + 500);
        const result = trajectoryWorldRank(supergraph, rank, { ...options, alpha, tolerance: 1e-14 });
        const now = localPart(bruteForceSupergraph(list, local, crawled), local.length);
        expect(result.windows).toHaveLength(shares.length);
        const windowWeights: number[] = [];
        shares.forEach((share, w) => {
          const earlier = crawled.slice(0, Math.floor(share * crawled.length));
          const before = localPart(bruteForceSupergraph(list, local, earlier), local.length);
          const predicted = localPart(bruteForceWorld(list, local, earlier, scale), local.length);
          const move = now.map((x, j) => x - before[j]);
          const correction = predicted.map((x, j) => x - before[j]);
          const cosine = dot(move, correction) / Math.sqrt(dot(move, move) * dot(correction, correction));
          const realised = dot(move, correction) / dot(correction, correction);
          const crawledShare = (crawled.length - earlier.length) / frontierCount(list, local, earlier);
          const window = result.windows[w];
          expect(window.prefix).toBe(local.length + earlier.length);
          expect(window.cosine).toBeCloseTo(cosine, 6);
          expect(window.realised).toBeCloseTo(realised, 6);
          expect(window.crawledShare).toBeCloseTo(crawledShare, 12);
          const weight = cosine > 0 && realised > 0 ? (cosine * realised) / crawledShare : 0;
          expect(window.weight).toBeCloseTo(weight, 6);
          windowWeights.push(weight);
        });
        const lambda = Math.min(cap, combine(windowWeights));
        if (lambda === cap) capped++;
        // With several windows, the median is not the mean: the test tells them apart.
        if (shares.length > 2 && Math.abs(middle(windowWeights) - windowWeights.reduce((a, b) => a + b, 0) / shares.length) > 1e-3) medianDiffers++;
        expect(result.weight).toBeCloseTo(lambda, 6);
        weights.push(lambda);
        const world = localPart(bruteForceWorld(list, local, crawled, scale), local.length);
        const blended = now.map((x, j) => Math.max(0, x + lambda * (world[j] - x)));
        const expected = lambda > 0 ? localPart(blended, local.length) : now;
        expect(l1Distance(restrictAndNormalise(result.rank, local.map((_, i) => i)), expected)).toBeLessThan(1e-9);
        if (lambda > 0) {
          // The crawled global pages keep the supergraph PageRank; the vector still sums to 1.
          for (let i = local.length; i < rank.length; i++) expect(result.rank[i]).toBe(rank[i]);
          expect(result.rank.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
        } else {
          expect(result.rank).toBe(rank);
        }
      }
    }
    // Both outcomes (the supergraph kept, a correction) and the cap are reached.
    expect(weights.some((w) => w === 0)).toBe(true);
    expect(weights.some((w) => w > 0)).toBe(true);
    expect(capped).toBeGreaterThan(0);
    expect(medianDiffers).toBeGreaterThan(0);
  });

  it('keeps the supergraph PageRank when nothing was crawled or the frontier is empty', () => {
    const list = randomEdgeList(7, 40, 0.1, 0.1);
    const all = Array.from({ length: 40 }, (_, i) => i);
    const exhausted = supergraphOf(list, all.slice(0, 10), all.slice(10));
    const rank = pageRank(exhausted.graph(), { alpha, tolerance: 1e-12 }).rank;
    expect(trajectoryWorldRank(exhausted, rank)).toEqual({ rank, weight: 0, windows: [] });
    const fresh = supergraphOf(list, all.slice(0, 10), []);
    const localRank = pageRank(fresh.graph(), { alpha, tolerance: 1e-12 }).rank;
    expect(trajectoryWorldRank(fresh, localRank)).toEqual({ rank: localRank, weight: 0, windows: [] });
  });

  it('is the `trajectory` estimator of FindGlobalPR', async () => {
    const { distances, results } = await estimatorAgreement(3, 'trajectory', trajectoryWorldRank);
    expect(distances).toHaveLength(5);
    for (const d of distances) expect(d).toBeLessThan(1e-12);
    expect(results.some((r) => r.weight > 0)).toBe(true);
  });

  it('is the `consensus` estimator of FindGlobalPR', async () => {
    const consensus = (supergraph: Supergraph<number>, rank: Float64Array, options: { tolerance: number }) => trajectoryWorldRank(supergraph, rank, { ...options, ...CONSENSUS_TRAJECTORY });
    const { distances, results } = await estimatorAgreement(3, 'consensus', consensus);
    expect(distances).toHaveLength(5);
    for (const d of distances) expect(d).toBeLessThan(1e-12);
    expect(results.some((r) => r.weight > 0)).toBe(true);
    // Six windows once anything was crawled, and λ at most 1.
    for (const r of results) expect(r.windows.length === 0 || r.windows.length === 6).toBe(true);
    for (const r of results) expect(r.weight).toBeLessThanOrEqual(1);
  });
});
