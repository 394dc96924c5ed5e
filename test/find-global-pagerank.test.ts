import { describe, expect, it } from 'vitest';
import { buildGraph, inducedSubgraph, outLinkBall, type LinkGraph } from '../indexer/graph.ts';
import { loadWebGraph, type WebGraph } from '../indexer/graph-files.ts';
import { compareRankings, l1Distance, restrictAndNormalise } from '../indexer/metrics.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { resolveDomain } from '../indexer/estimation/domain.ts';
import { knownGraphSource, pageOfGraph, parseExtraPages, runExperiment } from '../indexer/estimation/experiment.ts';
import { extendStartVector, findGlobalPageRank, pagesPerIteration, type PageSource } from '../indexer/estimation/find-global-pagerank.ts';
import { createSelector, SELECTOR_NAMES } from '../indexer/estimation/selectors.ts';
import { Supergraph } from '../indexer/estimation/supergraph.ts';
import { randomEdgeList } from './helpers/random-graphs.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

function graphOf(list: ReturnType<typeof randomEdgeList>): LinkGraph {
  return buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
}

/** Pages reachable from a set by out-links. */
function reachable(graph: LinkGraph, start: number[]): number[] {
  const seen = new Set(start);
  const queue = [...start];
  while (queue.length) {
    const i = queue.shift()!;
    for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) {
      const t = graph.outTargets[e];
      if (!seen.has(t)) {
        seen.add(t);
        queue.push(t);
      }
    }
  }
  return [...seen];
}

describe('FindGlobalPR', () => {
  it('iteration 0 is the PageRank of the domain alone', async () => {
    const graph = graphOf(randomEdgeList(11, 60, 0.06));
    const local = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    let first: Float64Array | undefined;
    await findGlobalPageRank({
      localPages: local.map((p) => pageOfGraph(graph, p)),
      source: knownGraphSource(graph),
      selector: createSelector('sc'),
      iterations: 2,
      extraPages: 4,
      pageRank: { tolerance: 1e-13 },
      onIteration: ({ record, estimate }) => {
        if (record.iteration === 0) first = estimate;
      },
    });
    const own = pageRank(inducedSubgraph(graph, local), { tolerance: 1e-13 }).rank;
    expect(l1Distance(first!, own)).toBeLessThan(1e-11);
  });

  it.each(SELECTOR_NAMES)('with %s, a budget covering every reachable page gives the PageRank of the reachable graph', async (name) => {
    for (let seed = 1; seed <= 5; seed++) {
      const graph = graphOf(randomEdgeList(seed, 80, 0.03, 0.3));
      const local = [0, 1, 2, 3, 4, 5, 6, 7];
      const reach = reachable(graph, local);
      const result = await findGlobalPageRank({
        localPages: local.map((p) => pageOfGraph(graph, p)),
        source: knownGraphSource(graph),
        selector: createSelector(name, { seed }),
        // Enough iterations to walk the deepest chain, enough pages per iteration to take every candidate.
        iterations: graph.nodeCount,
        extraPages: graph.nodeCount * graph.nodeCount,
        pageRank: { tolerance: 1e-13 },
      });
      expect(result.supergraph.size).toBe(reach.length);
      expect(result.supergraph.frontierSize).toBe(0);
      const expected = restrictAndNormalise(pageRank(inducedSubgraph(graph, reach), { tolerance: 1e-13 }).rank, local.map((p) => reach.indexOf(p)));
      expect(l1Distance(result.estimate, expected)).toBeLessThan(1e-10);
    }
  });

  it('a warm start reaches the same estimate as a cold start with fewer PageRank iterations', async () => {
    const graph = graphOf(randomEdgeList(5, 400, 0.01, 0.1));
    const local = Array.from(outLinkBall(graph, 0, 1)).slice(0, 40);
    const run = (warmStart: boolean) =>
      findGlobalPageRank({
        localPages: local.map((p) => pageOfGraph(graph, p)),
        source: knownGraphSource(graph),
        selector: createSelector('sc'),
        iterations: 20,
        extraPages: 80,
        pageRank: { tolerance: 1e-10 },
        warmStart,
      });
    const [warm, cold] = [await run(true), await run(false)];
    expect(l1Distance(warm.estimate, cold.estimate)).toBeLessThan(1e-8);
    const total = (r: typeof warm) => r.records.reduce((s, it) => s + it.pageRankIterations, 0);
    expect(total(warm)).toBeLessThan(total(cold));
  });

  it('drops pages the source cannot fetch and never chooses them again', async () => {
    const graph = graphOf(randomEdgeList(2, 50, 0.08));
    const refused = new Set<number>();
    const base = knownGraphSource(graph);
    const source: PageSource<number> = {
      async fetchPages(keys) {
        const ok = keys.filter((k) => k % 3 !== 0);
        keys.filter((k) => k % 3 === 0).forEach((k) => {
          expect(refused.has(k)).toBe(false);
          refused.add(k);
        });
        return base.fetchPages(ok);
      },
    };
    const result = await findGlobalPageRank({
      localPages: [0, 1, 2, 4].map((p) => pageOfGraph(graph, p)),
      source,
      selector: createSelector('pf'),
      iterations: 10,
      extraPages: 30,
    });
    expect(refused.size).toBeGreaterThan(0);
    for (const k of refused) expect(result.supergraph.has(k)).toBe(false);
    expect(result.records.slice(1).every((r) => r.fetched <= r.selected.length)).toBe(true);
  });

  it('replaces pages the source cannot fetch within the iteration, so each iteration spends its budget', async () => {
    const graph = graphOf(randomEdgeList(4, 300, 0.03));
    const base = knownGraphSource(graph);
    // Every other page cannot be fetched (robots, errors, a pay-level domain out of budget).
    const source: PageSource<number> = { fetchPages: async (keys) => base.fetchPages(keys.filter((k) => k % 2 === 1)) };
    const calls: number[] = [];
    const counting: PageSource<number> = {
      async fetchPages(keys) {
        calls.push(keys.length);
        return source.fetchPages(keys);
      },
    };
    const result = await findGlobalPageRank({
      localPages: Array.from({ length: 20 }, (_, p) => pageOfGraph(graph, p)),
      source: counting,
      selector: createSelector('pf'),
      iterations: 5,
      extraPages: 50,
    });
    for (const record of result.records.slice(1)) {
      // Refused pages are replaced (up to MAX_REFILLS times): with half of them refused, 10 · (1 − 2^-4)
      // pages on average instead of the 5 one choice would give; what was refused was chosen too.
      if (record.frontier > 20) expect(record.fetched).toBeGreaterThanOrEqual(8);
      expect(record.selected.length).toBeGreaterThan(record.fetched);
      expect(record.selected.filter((k) => k % 2 === 1)).toHaveLength(record.fetched);
    }
    expect(calls.length).toBeGreaterThan(5);
    // A known graph gives every page: one choice per iteration, as before.
    const plain = await findGlobalPageRank({ localPages: Array.from({ length: 20 }, (_, p) => pageOfGraph(graph, p)), source: base, selector: createSelector('pf'), iterations: 5, extraPages: 50 });
    for (const record of plain.records.slice(1)) expect(record.selected).toHaveLength(record.fetched);
  });

  it('stops when cancelled', async () => {
    const graph = graphOf(randomEdgeList(2, 50, 0.08));
    const controller = new AbortController();
    await expect(
      findGlobalPageRank({
        localPages: [0, 1].map((p) => pageOfGraph(graph, p)),
        source: knownGraphSource(graph),
        selector: createSelector('sc'),
        iterations: 10,
        extraPages: 30,
        signal: controller.signal,
        onIteration: ({ record }) => {
          if (record.iteration === 2) controller.abort();
        },
      }),
    ).rejects.toThrow();
  });

  it('rejects a bad budget and an empty domain', async () => {
    const graph = graphOf(randomEdgeList(2, 10, 0.2));
    const base = { source: knownGraphSource(graph), selector: createSelector('sc'), localPages: [pageOfGraph(graph, 0)] };
    await expect(findGlobalPageRank({ ...base, iterations: -1, extraPages: 1 })).rejects.toThrow(/iterations/);
    await expect(findGlobalPageRank({ ...base, iterations: 1, extraPages: 1.5 })).rejects.toThrow(/extra/);
    await expect(findGlobalPageRank({ ...base, localPages: [], iterations: 1, extraPages: 1 })).rejects.toThrow(/empty/);
  });
});

describe('Supergraph', () => {
  it('turns frontier links into edges when pages join, including links inside one batch', () => {
    const f = new Supergraph<string>([
      { key: 'a', links: ['b', 'x', 'x', 'a'] },
      { key: 'b', links: ['y'] },
    ]);
    expect(f.localCount).toBe(2);
    expect(f.frontierView().keys).toEqual(['x', 'y']);
    f.addPages([
      { key: 'y', links: ['x', 'a'] },
      { key: 'x', links: ['y', 'z'] },
    ]);
    const g = f.graph();
    const edges: string[] = [];
    for (let i = 0; i < g.nodeCount; i++) for (let e = g.outOffsets[i]; e < g.outOffsets[i + 1]; e++) edges.push(`${f.keyOf(i)}>${f.keyOf(g.outTargets[e])}`);
    expect(edges.sort()).toEqual(['a>b', 'a>x', 'b>y', 'x>y', 'y>a', 'y>x']);
    expect(f.frontierView().keys).toEqual(['z']);
    f.markUnreachable(['z']);
    expect(f.frontierSize).toBe(0);
    f.addPages([{ key: 'w', links: ['z'] }]);
    expect(f.frontierSize).toBe(0);
  });

  it('extendStartVector keeps old ranks, gives new pages the teleport share, sums to 1', () => {
    const v = extendStartVector(Float64Array.from([0.6, 0.4]), 4, 0.85);
    expect(v.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 15);
    expect(v[0] / v[1]).toBeCloseTo(1.5, 12);
    expect(v[2]).toBeCloseTo(v[3], 15);
    expect(pagesPerIteration(50, 1848)).toBe(37);
  });
});

describe.skipIf(!hasSharedData)(`on the shared web graphs${hasSharedData ? '' : ` (${sharedDataSkipReason})`}`, () => {
  const webs = new Map<string, WebGraph>();
  const web = (name: string) => {
    if (!webs.has(name)) webs.set(name, loadWebGraph({ nodes: sharedGraphFile(name, 'nodes'), edges: sharedGraphFile(name, 'edges') }));
    return webs.get(name)!;
  };

  // The naive local PageRank against the truth (iteration 0).
  it.each([
    ['hollins', 'host:www.hollins.edu', 924, 0.1689, 0.026474],
    ['hollins', 'prefix:http://www1.hollins.edu/docs', 2054, 0.1571, 0.005808],
    ['hollins', 'prefix:http://www1.hollins.edu/registrar', 881, 0.1374, 0.015243],
    ['california', 'host:edu', 2422, 0.1771, 0.015557],
    ['california', 'host:gov', 770, 0.5109, 0.010408],
    ['california', 'host:com', 3720, 0.2301, 0.009065],
    ['polblogs', 'label:liberal', 758, 0.0866, 0.004433],
    ['polblogs', 'label:conservative', 732, 0.0821, 0.004029],
  ] as const)('%s %s: n and the baseline L1 / L∞ agree with the data README', async (graph, spec, n, l1, linf) => {
    const w = web(graph);
    const pages = resolveDomain(spec, w);
    expect(pages.length).toBe(n);
    const result = await runExperiment(w, [{ spec, pages }], { selectors: [], iterations: 0, extra: { pages: 0 }, alpha: 0.85, tolerance: 1e-10, seed: 1 });
    expect(result.domains[0].baseline.l1).toBeCloseTo(l1, 4);
    expect(Math.abs(result.domains[0].baseline.linf - linf)).toBeLessThan(1.5e-6);
  });

  // An independent numpy implementation of the same algorithm : 2n pages in 50 iterations
  // for sites, n in 25 for topics. OutlinkCount is not pinned to it: its integer scores tie massively and
  // its final L1 on hollins www moves from 0.068 (ties to low ids) to 0.135 (ties to high ids) with the
  // tie order alone; the numpy 0.1008 lies between, as an unstable sort would give.
  it.each([
    ['hollins', 'host:www.hollins.edu', '2n', 50, { sc: 0.1068, pf: 0.1014 }, undefined],
    ['hollins', 'prefix:http://www1.hollins.edu/registrar', '2n', 50, { sc: 0.0591, pf: 0.0731 }, 0.9931],
    ['polblogs', 'label:conservative', '1n', 25, { sc: 0.0292 }, undefined],
  ] as const)('%s %s reproduces the independent implementation within 3%%', async (graph, spec, extra, iterations, expected, scTau) => {
    const w = web(graph);
    const selectors = Object.keys(expected);
    const result = await runExperiment(w, [{ spec, pages: resolveDomain(spec, w) }], { selectors, iterations, extra: parseExtraPages(extra), alpha: 0.85, tolerance: 1e-6, seed: 1 });
    const outcome = result.domains[0];
    for (const [name, l1] of Object.entries(expected)) expect(Math.abs(outcome.selectors[name].final.l1 - l1) / l1).toBeLessThan(0.03);
    if (scTau !== undefined) expect(outcome.selectors.sc.final.tau).toBeCloseTo(scTau, 3);
    expect(outcome.selectors.sc.perIteration).toHaveLength(iterations + 1);
    expect(outcome.selectors.sc.final.l1).toBeLessThan(outcome.baseline.l1);
  });

  it('every selector improves on the local PageRank for hollins www (2n, 50 iterations)', async () => {
    const w = web('hollins');
    const spec = 'host:www.hollins.edu';
    const result = await runExperiment(w, [{ spec, pages: resolveDomain(spec, w) }], { selectors: SELECTOR_NAMES, iterations: 50, extra: { timesDomain: 2 }, alpha: 0.85, tolerance: 1e-6, seed: 1 });
    const outcome = result.domains[0];
    for (const name of SELECTOR_NAMES) {
      const final = outcome.selectors[name].final;
      expect(final.l1).toBeLessThan(outcome.baseline.l1);
      expect(final.crawled).toBe(1850);
      const last = outcome.selectors[name].perIteration.at(-1)!;
      expect(compareRankings([last.l1], [final.l1]).l1).toBe(0);
    }
  });
});

describe('FindGlobalPR resumed from recorded selections', () => {
  it('replaying the first iterations and continuing gives the uninterrupted result', async () => {
    const graph = graphOf(randomEdgeList(9, 200, 0.03, 0.1));
    const local = Array.from(outLinkBall(graph, 0, 1)).slice(0, 20);
    const base = {
      localPages: local.map((p) => pageOfGraph(graph, p)),
      source: knownGraphSource(graph),
      iterations: 12,
      extraPages: 60,
      pageRank: { tolerance: 1e-12 },
    };
    const full = await findGlobalPageRank({ ...base, selector: createSelector('sc') });
    const replay = full.records.slice(1, 6).map((r) => r.selected);
    const fetched: number[][] = [];
    const counting: PageSource<number> = {
      async fetchPages(keys) {
        fetched.push([...keys]);
        return base.source.fetchPages(keys);
      },
    };
    const resumed = await findGlobalPageRank({ ...base, source: counting, selector: createSelector('sc'), replay });
    expect(resumed.records.map((r) => r.selected)).toEqual(full.records.map((r) => r.selected));
    expect(l1Distance(resumed.estimate, full.estimate)).toBeLessThan(1e-10);
    expect(fetched.slice(0, 5)).toEqual(replay);
  });
});
