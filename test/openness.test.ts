import { describe, expect, it } from 'vitest';
import { pageRank } from '../indexer/pagerank.ts';
import { farBackLinks, looksOpen, OPENNESS, worldCorrectionApplies } from '../indexer/estimation/openness.ts';
import { createSelector } from '../indexer/estimation/selectors.ts';
import { estimateOverSupergraph } from '../indexer/estimation/estimators.ts';
import { CONSENSUS_TRAJECTORY, trajectoryWorldRank } from '../indexer/estimation/frontier-world.ts';
import { selectionInput } from '../indexer/estimation/find-global-pagerank.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { randomEdgeList, type EdgeList } from './helpers/random-graphs.ts';
import { supergraphOf } from './helpers/dense-world.ts';

const alpha = 0.85;

/** far / back counted straight from the edge list: crawled pages no local page links to, and those linking into L. */
function directCounts(list: EdgeList, local: number[], crawled: number[]) {
  const isLocal = new Set(local);
  const inF = new Set([...local, ...crawled]);
  const linkedFromLocal = new Set(list.edges.filter(([a, b]) => isLocal.has(a) && inF.has(b)).map(([, b]) => b));
  const far = crawled.filter((c) => !linkedFromLocal.has(c));
  const back = far.filter((c) => list.edges.some(([a, b]) => a === c && isLocal.has(b)));
  return { far: far.length, back: back.length };
}

/** A sparse random web: 20 local pages, `crawledCount` crawled pages drawn from the other 380. */
function sparseCrawl(seed: number, crawledCount: number) {
  const list = randomEdgeList(seed, 400, 0.01, 0.1);
  const random = seededRandom(seed + 900);
  const local = Array.from({ length: 20 }, (_, i) => i);
  const others = Array.from({ length: 380 }, (_, i) => i + 20).sort(() => random() - 0.5);
  const crawled = others.slice(0, crawledCount);
  const supergraph = supergraphOf(list, local, crawled);
  const rank = pageRank(supergraph.graph(), { alpha, tolerance: 1e-12 }).rank;
  return { list, local, crawled, supergraph, rank, input: selectionInput(supergraph, rank, alpha) };
}

describe('openness of the local domain', () => {
  it.each([1, 2, 3, 4, 5, 6])('counts far pages and their links back as a direct count from the edge list (crawl %i)', (seed) => {
    const { list, local, crawled, supergraph } = sparseCrawl(seed, 40 + 30 * seed);
    const counts = farBackLinks(supergraph.graph(), supergraph.localMask());
    expect(counts).toEqual(directCounts(list, local, crawled));
    expect(counts.far).toBeGreaterThan(0);
  });

  it('ignores local pages and pages linked from L, and counts a far page once however many links it has back', () => {
    // L = {0, 1}; 2 is linked from L and links back (not far); 3 and 4 are reached from 2; 3 links back twice, 4 never.
    const list: EdgeList = { pages: 6, edges: [[0, 2], [1, 0], [2, 0], [2, 3], [2, 4], [3, 0], [3, 1], [4, 5]] };
    const supergraph = supergraphOf(list, [0, 1], [2, 3, 4]);
    expect(farBackLinks(supergraph.graph(), supergraph.localMask())).toEqual({ far: 2, back: 1 });
  });

  it('calls a domain open from enough links back, and applies the correction below the dense-community share', () => {
    const { minBackLinks: m, minShare, maxShare } = OPENNESS;
    expect(looksOpen({ far: m / minShare, back: m })).toBe(true);
    expect(looksOpen({ far: m / minShare + 1, back: m })).toBe(false); // share just under the minimum
    expect(looksOpen({ far: 3 * m, back: m - 1 })).toBe(false); // too few links back to count as evidence
    expect(looksOpen({ far: 0, back: 0 })).toBe(false);
    expect(worldCorrectionApplies({ far: m / maxShare, back: m })).toBe(true);
    expect(worldCorrectionApplies({ far: m / maxShare - 1, back: m })).toBe(false); // nearly every far page links back
    expect(looksOpen({ far: m / maxShare - 1, back: m })).toBe(true);
    expect(worldCorrectionApplies({ far: m / minShare + 1, back: m })).toBe(false);
  });
});

describe('adaptive selector and gated estimate', () => {
  const crawls = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => sparseCrawl(seed, 20 * seed));

  it('picks SC-Select\'s pages while the domain looks closed and RecipFlow\'s once it looks open', () => {
    const branches = new Set<boolean>();
    for (const { input, list, local, crawled } of crawls) {
      const open = looksOpen(directCounts(list, local, crawled));
      branches.add(open);
      const expected = createSelector(open ? 'recipflow' : 'sc').select(input, 6);
      expect(Array.from(createSelector('adaptive').select(input, 6))).toEqual(Array.from(expected));
    }
    expect([...branches].sort()).toEqual([false, true]);
    expect(createSelector('adaptive').name).toBe('adaptive');
  });

  it('is the consensus estimate where the correction applies and the supergraph PageRank elsewhere', () => {
    const branches = new Set<boolean>();
    for (const { supergraph, rank, list, local, crawled } of crawls) {
      const applies = worldCorrectionApplies(directCounts(list, local, crawled));
      branches.add(applies);
      const gated = estimateOverSupergraph('gated', supergraph, rank);
      const expected = applies ? trajectoryWorldRank(supergraph, rank, { tolerance: 1e-10, ...CONSENSUS_TRAJECTORY }).rank : rank;
      expect(Array.from(gated)).toEqual(Array.from(expected));
      if (applies) expect(Array.from(gated)).toEqual(Array.from(estimateOverSupergraph('consensus', supergraph, rank)));
    }
    expect([...branches].sort()).toEqual([false, true]);
  });
});
