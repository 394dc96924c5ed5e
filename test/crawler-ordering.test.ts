import { describe, expect, it } from 'vitest';
import { buildGraph, type LinkGraph } from '../indexer/graph.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { createOrdering, ORDERING_NAMES, OrderingError, rankMassLowerBound, type CrawlOrdering } from '../crawler/ordering.ts';
import { LazyMaxHeap } from '../crawler/priority-heap.ts';
import { randomEdgeList } from './helpers/random-graphs.ts';

const row = (g: LinkGraph, i: number) => Array.from(g.outTargets.subarray(g.outOffsets[i], g.outOffsets[i + 1]));

/** Crawls a known graph with an ordering: what the crawl loop does, without I/O. */
function simulate(g: LinkGraph, ordering: CrawlOrdering, seeds: number[], maxPages = Infinity, hot: (id: number) => boolean = () => false) {
  const order: number[] = [];
  for (const s of seeds) ordering.discover({ id: s, depth: 0, seed: true, hot: hot(s) });
  const depth = new Map(seeds.map((s) => [s, 0]));
  while (order.length < maxPages) {
    const id = ordering.next();
    if (id === undefined) break;
    order.push(id);
    const links = row(g, id);
    for (const t of links) {
      if (!depth.has(t)) depth.set(t, depth.get(id)! + 1);
      ordering.discover({ id: t, depth: depth.get(t)!, hot: hot(t) });
    }
    ordering.fetched(id, links, links.length);
  }
  return order;
}

/** Personalised PageRank with trust on the seeds (dangling mass returns to the seeds). */
function trustRank(g: LinkGraph, seeds: number[]) {
  const teleport = new Float64Array(g.nodeCount);
  for (const s of seeds) teleport[s] = 1;
  return pageRank(g, { teleport, tolerance: 1e-13, alpha: 0.85 }).rank;
}

function randomGraph(seed: number, n = 120, density = 0.04, dangling = 0.1) {
  const list = randomEdgeList(seed, n, density, dangling);
  return buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
}

describe('crawl orderings', () => {
  it.each(ORDERING_NAMES)('%s hands out every reachable page exactly once', (name) => {
    for (let seed = 1; seed <= 5; seed++) {
      const g = randomGraph(seed);
      const order = simulate(g, createOrdering(name), [0, 1]);
      expect(new Set(order).size).toBe(order.length);
      const reachable = new Set([0, 1]);
      const queue = [0, 1];
      while (queue.length) for (const t of row(g, queue.shift()!)) if (!reachable.has(t)) (reachable.add(t), queue.push(t));
      expect(new Set(order)).toEqual(reachable);
    }
  });

  it('bfs visits by depth; focused serves hot pages first', () => {
    const g = buildGraph(6, [0, 0, 1, 2, 3], [1, 2, 3, 4, 5]);
    expect(simulate(g, createOrdering('bfs'), [0])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(simulate(g, createOrdering('focused'), [0], Infinity, (id) => id === 2 || id === 4)).toEqual([0, 2, 4, 1, 3, 5]);
  });

  it('backlinks takes the page with the most links from fetched pages', () => {
    // 0 links to 1, 2, 3; 1 and 2 both link to 5; 3 links to 4.
    const g = buildGraph(6, [0, 0, 0, 1, 2, 3], [1, 2, 3, 5, 5, 4]);
    const order = simulate(g, createOrdering('backlinks'), [0]);
    // After 1 and 2 are fetched, 5 has two in-links and overtakes 3 (one in-link, found earlier).
    expect(order).toEqual([0, 1, 2, 5, 3, 4]);
  });

  it('RankMass: CRM is a lower bound on the trust-PageRank mass downloaded, and the post-hoc bound lies between', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const g = randomGraph(seed, 150, 0.03, 0.15);
      const seeds = [0, 5, 9];
      const truth = trustRank(g, seeds);
      for (const name of ['rankmass', 'windowed-rankmass'] as const) {
        for (const budget of [10, 40, 150]) {
          const ordering = createOrdering(name);
          const order = simulate(g, ordering, seeds, budget);
          const mass = order.reduce((sum, id) => sum + truth[id], 0);
          const fetched = new Set(order);
          const posthoc = rankMassLowerBound(seeds, (id) => fetched.has(id), (id) => row(g, id), (id) => row(g, id).length, 0.85, 1e-15);
          expect(ordering.coverage()).toBeLessThanOrEqual(posthoc + 1e-9);
          expect(posthoc).toBeLessThanOrEqual(mass + 1e-9);
          expect(ordering.coverage()).toBeGreaterThan(0);
        }
      }
    }
  });

  it('RankMass downloads more trust mass early than breadth first on a graph with a heavy branch', () => {
    // Seed 0 links to 1..20; page 1 links to 21..40, which all link to each other's first page 21 and back to 1.
    const src: number[] = [];
    const dst: number[] = [];
    for (let j = 1; j <= 20; j++) (src.push(0), dst.push(j));
    for (let j = 21; j <= 40; j++) (src.push(1), dst.push(j), src.push(j), dst.push(1));
    for (let j = 2; j <= 20; j++) (src.push(j), dst.push(41 + j), src.push(41 + j), dst.push(0));
    const g = buildGraph(62, src, dst);
    const truth = trustRank(g, [0]);
    const massOf = (order: number[]) => order.reduce((s, id) => s + truth[id], 0);
    expect(massOf(simulate(g, createOrdering('rankmass'), [0], 25))).toBeGreaterThan(massOf(simulate(g, createOrdering('bfs'), [0], 25)));
  });

  it('L-Neighbor: the level bound holds once levels complete (no link left out)', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const g = randomGraph(seed, 100, 0.05, 0);
      const truth = trustRank(g, [0]);
      const ordering = createOrdering('lneighbor');
      for (const budget of [1, 5, 30, 100]) {
        const o = createOrdering('lneighbor');
        const order = simulate(g, o, [0], budget);
        const mass = order.reduce((s, id) => s + truth[id], 0);
        expect(o.coverage()!).toBeLessThanOrEqual(mass + 1e-12);
      }
      simulate(g, ordering, [0]);
      expect(ordering.coverage()).toBe(1);
    }
  });

  it('rejects unknown orderings and bad options, and seeds after the first fetch', () => {
    expect(() => createOrdering('dfs')).toThrow(OrderingError);
    expect(() => createOrdering('windowed-rankmass', { window: 0 })).toThrow(/window/);
    const o = createOrdering('rankmass');
    o.discover({ id: 0, depth: 0, seed: true });
    o.fetched(o.next()!, []);
    expect(() => o.discover({ id: 1, depth: 0, seed: true })).toThrow(/seeds/);
  });

  it('partial PageRank fetches a page many fetched pages link to long before breadth first does', () => {
    // Page 0 links to 2…299, every one of which links to hub 1: breadth first reaches 1 only
    // after the whole first level; once the partial PageRank is recomputed, 1 leads.
    const src: number[] = [];
    const dst: number[] = [];
    for (let j = 2; j < 300; j++) (src.push(0), dst.push(j), src.push(j), dst.push(1));
    const g = buildGraph(300, src, dst);
    expect(simulate(g, createOrdering('bfs'), [0]).indexOf(1)).toBe(299);
    expect(simulate(g, createOrdering('pagerank'), [0]).indexOf(1)).toBeLessThan(60);
  });
});

describe('LazyMaxHeap', () => {
  it('pops by priority, first pushed first among equals, skipping stale entries', () => {
    const heap = new LazyMaxHeap();
    const current = new Map<number, number>();
    const push = (item: number, p: number) => (current.set(item, p), heap.push(item, p));
    push(1, 5);
    push(2, 7);
    push(3, 5);
    push(1, 9);
    const popped: number[] = [];
    for (;;) {
      const top = heap.pop((item, p) => current.get(item) === p);
      if (!top) break;
      popped.push(top.item);
      current.delete(top.item);
    }
    expect(popped).toEqual([1, 2, 3]);
  });
});
