import { describe, expect, it } from 'vitest';
import { pageRank } from '../indexer/pagerank.ts';
import { farBackLinks, looksDense, looksOpen, OPENNESS, worldCorrectionApplies } from '../indexer/estimation/openness.ts';
import { createSelector } from '../indexer/estimation/selectors.ts';
import { relativeReciprocalFlowSelector } from '../indexer/estimation/reciprocal-flow.ts';
import { combinedSelection } from '../indexer/estimation/selection.ts';
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

/**
 * A sparse random web: 20 local pages, `crawledCount` crawled pages drawn from the other 380. With `linkBack`, every
 * crawled page also links to local page 0: every far page links back (a dense community).
 */
function crawlOf(seed: number, crawledCount: number, linkBack = false) {
  const base = randomEdgeList(seed, 400, 0.01, 0.1);
  const random = seededRandom(seed + 900);
  const local = Array.from({ length: 20 }, (_, i) => i);
  const crawled = Array.from({ length: 380 }, (_, i) => i + 20).sort(() => random() - 0.5).slice(0, crawledCount);
  const list: EdgeList = linkBack ? { pages: base.pages, edges: [...base.edges, ...crawled.map((c): [number, number] => [c, 0])] } : base;
  const supergraph = supergraphOf(list, local, crawled);
  const rank = pageRank(supergraph.graph(), { alpha, tolerance: 1e-12 }).rank;
  return { list, local, crawled, supergraph, rank, input: selectionInput(supergraph, rank, alpha) };
}
const sparseCrawl = (seed: number, crawledCount: number) => crawlOf(seed, crawledCount);
const denseCrawl = (seed: number, crawledCount: number) => crawlOf(seed, crawledCount, true);

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
    expect(looksDense({ far: m / maxShare - 1, back: m })).toBe(true);
    expect(looksDense({ far: m / maxShare, back: m })).toBe(false); // exactly the share: still corrected, not dense
    expect(looksDense({ far: m - 1, back: m - 1 })).toBe(false); // every far page links back, but too few to count
  });
});

describe('gated estimate', () => {
  const crawls = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => sparseCrawl(seed, 20 * seed));

  it('is the consensus estimate where the correction applies and the supergraph PageRank elsewhere', () => {
    const branches = new Set<boolean>();
    for (const { supergraph, rank, list, local, crawled } of crawls) {
      const applies = worldCorrectionApplies(directCounts(list, local, crawled));
      branches.add(applies);
      const gated = estimateOverSupergraph('gated', supergraph, rank);
      const expected = applies ? trajectoryWorldRank(supergraph, rank, { tolerance: 1e-10, ...CONSENSUS_TRAJECTORY }).rank : rank;
      expect(Array.from(gated)).toEqual(Array.from(expected));
    }
    expect([...branches].sort()).toEqual([false, true]);
  });
});

describe('hedged adaptive selector', () => {
  const crawls = [...[1, 2, 3, 4, 5, 6, 7, 8].map((seed) => sparseCrawl(seed, 20 * seed)), ...[1, 2, 3].map((seed) => denseCrawl(seed, 40 * seed))];

  it("picks SC-Select's pages when closed, relative RecipFlow's when open, and half of each when dense", () => {
    const states = new Set<string>();
    let hedgeMattered = 0;
    for (const k of [5, 6]) {
      for (const { input, list, local, crawled } of crawls) {
        const links = directCounts(list, local, crawled);
        const state = !looksOpen(links) ? 'closed' : looksDense(links) ? 'dense' : 'open';
        states.add(state);
        const sc = Array.from(createSelector('sc').select(input, k));
        const relative = Array.from(relativeReciprocalFlowSelector.select(input, k));
        // Dense: SC-Select's best ⌈k/2⌉ (round half up), then RecipFlow's best not among them.
        const half = Math.round(k / 2);
        const expected = state === 'closed' ? sc : state === 'open' ? relative : [...sc.slice(0, half), ...relative.filter((c) => !sc.slice(0, half).includes(c))].slice(0, k);
        const picked = Array.from(createSelector('adaptive-hedged').select(input, k));
        expect(picked).toEqual(expected);
        expect(new Set(picked).size).toBe(picked.length);
        if (state === 'dense' && picked.join() !== relative.join()) hedgeMattered++;
      }
    }
    expect([...states].sort()).toEqual(['closed', 'dense', 'open']);
    expect(hedgeMattered).toBeGreaterThan(0); // the dense branch differs from RecipFlow's own pick somewhere
    expect(createSelector('adaptive-hedged').name).toBe('adaptive-hedged');
  });

  it('combines two rankings without repeats, filling from the first when the second runs short', () => {
    const { input } = sparseCrawl(3, 60);
    const fixed = (name: string, ranking: number[]) => ({ name, select: (_: unknown, k: number) => Int32Array.from(ranking.slice(0, k)) });
    const first = fixed('first', [4, 2, 9, 7, 1]);
    expect(Array.from(combinedSelection(input, 5, first, fixed('second', [2, 3, 8, 5]), 2))).toEqual([4, 2, 3, 8, 5]);
    expect(Array.from(combinedSelection(input, 5, first, fixed('second', [2, 4]), 2))).toEqual([4, 2, 9, 7, 1]);
    expect(Array.from(combinedSelection(input, 3, first, fixed('second', [6]), 0))).toEqual([6, 4, 2]);
  });
});
