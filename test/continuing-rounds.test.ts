/**
 * FindGlobalPR continued from the supergraph an earlier run left: r runs of E pages in T
 * iterations select exactly what one run of r·E pages in r·T iterations selects.
 */
import { describe, expect, it } from 'vitest';
import { buildGraph, type LinkGraph } from '../indexer/graph.ts';
import { loadWebGraph } from '../indexer/graph-files.ts';
import { resolveDomain } from '../indexer/estimation/domain.ts';
import { knownGraphSource, pageOfGraph, runExperiment, type ExperimentResult } from '../indexer/estimation/experiment.ts';
import { continuationOf, findGlobalPageRank, graphFingerprint, type NamedSelectorState, type SupergraphStart } from '../indexer/estimation/find-global-pagerank.ts';
import type { WebGraph } from '../indexer/graph-files.ts';
import { createSelector } from '../indexer/estimation/selectors.ts';
import { SelectorStateError } from '../indexer/estimation/selection.ts';
import { METHOD_NAMES, PRODUCT_METHODS, type DomainKind, type MethodName } from '../indexer/estimation/estimators.ts';
import { randomEdgeList } from './helpers/random-graphs.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

interface Run {
  picks: number[][];
  estimate: Float64Array;
}

/** `rounds` runs, each starting where the last ended (its F, its PageRank). */
async function chainedRuns(graph: LinkGraph, local: Int32Array, name: MethodName, rounds: number, iterations: number, perIteration: number, kind: DomainKind = 'site'): Promise<Run & { exactStarts: number }> {
  const picks: number[][] = [];
  let start: SupergraphStart<number> | undefined;
  let estimate: Float64Array = new Float64Array(0);
  let exactStarts = 0;
  const method = PRODUCT_METHODS.resolve(name, 'supergraph', kind);
  for (let r = 0; r < rounds; r++) {
    const run = await findGlobalPageRank({
      localPages: Array.from(local, (p) => pageOfGraph(graph, p)),
      source: knownGraphSource(graph),
      selector: method.createSelector({ seed: 1 }),
      estimator: method.estimator,
      iterations,
      extraPages: iterations * perIteration,
      start,
      onIteration: ({ record }) => {
        if (record.iteration > 0) picks.push(record.selected);
        else if (start && record.pageRankIterations === 0) exactStarts++;
      },
    });
    start = continuationOf(run, (page) => pageOfGraph(graph, page));
    estimate = run.estimate;
  }
  return { picks, estimate, exactStarts };
}

/** One run of `iterations` × `perIteration` pages. */
const oneRun = (graph: LinkGraph, local: Int32Array, selector: MethodName, iterations: number, perIteration: number, kind: DomainKind = 'site'): Promise<Run> =>
  chainedRuns(graph, local, selector, 1, iterations, perIteration, kind);

describe('continuing FindGlobalPR from an earlier supergraph', () => {
  it('three runs of T iterations select what one run of 3T iterations selects (random graph, every method)', async () => {
    const list = randomEdgeList(7, 400, 0.012);
    const graph = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
    const local = Int32Array.from({ length: 40 }, (_, i) => i);
    for (const selector of METHOD_NAMES) {
      const long = await oneRun(graph, local, selector, 12, 5);
      const chained = await chainedRuns(graph, local, selector, 3, 4, 5);
      expect(chained.exactStarts).toBe(2);
      expect(chained.picks, selector).toEqual(long.picks);
      expect(Array.from(chained.estimate), selector).toEqual(Array.from(long.estimate));
    }
  });

  it('a resumed run replays its recorded iterations and restores Random where it was after them', async () => {
    const list = randomEdgeList(7, 400, 0.012);
    const graph = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
    const localPages = Array.from({ length: 40 }, (_, i) => pageOfGraph(graph, i));
    const run = async (replay?: number[][], replayState?: NamedSelectorState) => {
      const picks: number[][] = [];
      const states: Array<NamedSelectorState | undefined> = [];
      await findGlobalPageRank({
        localPages,
        source: knownGraphSource(graph),
        selector: createSelector('random', { seed: 3 }),
        iterations: 6,
        extraPages: 30,
        replay,
        replayState,
        onIteration: ({ record, selectorState }) => {
          if (record.iteration === 0) return;
          picks.push(record.selected);
          states.push(selectorState);
        },
      });
      return { picks, states };
    };
    const whole = await run();
    expect(whole.states[2]).toEqual({ selector: 'random', state: { generator: expect.any(Number) } });
    const resumed = await run(whole.picks.slice(0, 3), whole.states[2]);
    expect(resumed.picks).toEqual(whole.picks);
    // Without the state the generator starts again from the seed after the replay.
    const restarted = await run(whole.picks.slice(0, 3));
    expect(restarted.picks.slice(3)).not.toEqual(whole.picks.slice(3));
  });

  it('a stored state that is not a generator state is refused with a clear error', () => {
    const random = createSelector('random');
    expect(() => random.restoreState!({ generator: -1 })).toThrow(/cannot continue from the stored state/);
    expect(() => random.restoreState!({})).toThrow(SelectorStateError);
  });

  it('a start whose graph changed is only a warm start: PageRank is computed again', async () => {
    const list = randomEdgeList(3, 200, 0.02);
    const graph = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
    const local = Int32Array.from({ length: 30 }, (_, i) => i);
    const first = await findGlobalPageRank({ localPages: Array.from(local, (p) => pageOfGraph(graph, p)), source: knownGraphSource(graph), selector: createSelector('sc'), iterations: 2, extraPages: 10 });
    const globalPages = [];
    for (let id = first.supergraph.localCount; id < first.supergraph.size - 1; id++) globalPages.push(pageOfGraph(graph, first.supergraph.keyOf(id)));
    const counts: number[] = [];
    await findGlobalPageRank({
      localPages: Array.from(local, (p) => pageOfGraph(graph, p)),
      source: knownGraphSource(graph),
      selector: createSelector('sc'),
      iterations: 1,
      extraPages: 5,
      // The last global page is gone: the stored PageRank is not this graph's.
      start: { globalPages, rank: first.rank, fingerprint: first.fingerprint },
      onIteration: ({ record }) => void counts.push(record.pageRankIterations),
    });
    expect(counts[0]).toBeGreaterThan(0);
    expect(graphFingerprint(first.supergraph.graph())).toBe(first.fingerprint);
  });

  it('lse experiment: three rounds of E pages in T iterations report what one run of 3E pages in 3T reports (random graph)', async () => {
    const list = randomEdgeList(7, 400, 0.012);
    const web: WebGraph = { graph: buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1])), ids: Int32Array.from({ length: list.pages }, (_, i) => i), skippedLines: 0 };
    await expectRoundsEqualOneRun(web, 'ball:9:2', [...METHOD_NAMES], 4, 0.5);
  });

  it.skipIf(!hasSharedData)('hollins www.hollins.edu: three SC runs of 10 iterations equal one run of 30', async () => {
    const web = loadWebGraph({ edges: sharedGraphFile('hollins', 'edges'), nodes: sharedGraphFile('hollins', 'nodes') });
    const local = resolveDomain('host:www.hollins.edu', web);
    const long = await oneRun(web.graph, local, 'sc', 30, 20);
    const chained = await chainedRuns(web.graph, local, 'sc', 3, 10, 20);
    expect(chained.picks).toEqual(long.picks);
    for (let i = 0; i < local.length; i++) expect(Math.abs(chained.estimate[i] - long.estimate[i])).toBeLessThan(1e-12);
  });
  it.skipIf(!hasSharedData)('polblogs conservative (a topic, where best crawls open): three runs of best, default and random equal one long run', async () => {
    const web = loadWebGraph({ edges: sharedGraphFile('polblogs', 'edges'), nodes: sharedGraphFile('polblogs', 'nodes') });
    const local = resolveDomain('label:conservative', web);
    const picks: Record<string, number[][]> = {};
    for (const name of ['best', 'default', 'random'] as const) {
      const long = await oneRun(web.graph, local, name, 24, 15, 'topic');
      const chained = await chainedRuns(web.graph, local, name, 3, 8, 15, 'topic');
      expect(chained.picks, name).toEqual(long.picks);
      for (let i = 0; i < local.length; i++) expect(Math.abs(chained.estimate[i] - long.estimate[i]), name).toBeLessThan(1e-12);
      picks[name] = long.picks;
    }
    // best leaves SC-Select's choice once the crawl shows the domain open: the equality covers that branch.
    const sc = await oneRun(web.graph, local, 'sc', 24, 15, 'topic');
    expect(picks.best).not.toEqual(sc.picks);
    expect(picks.default).toEqual(picks.best);
  });

  it.skipIf(!hasSharedData)('lse experiment on hollins www.hollins.edu: three rounds of 2n in 10 iterations report what one run of 6n in 30 reports', async () => {
    const web = loadWebGraph({ edges: sharedGraphFile('hollins', 'edges'), nodes: sharedGraphFile('hollins', 'nodes') });
    const rounds = await expectRoundsEqualOneRun(web, 'host:www.hollins.edu', ['sc'], 10, 2);
    const l1 = rounds.domains[0].selectors.sc.rounds.map((r) => r.l1);
    expect(l1[2]).toBeLessThan(l1[0]);
  });
  if (!hasSharedData) it.skip(`hollins: ${sharedDataSkipReason}`, () => {});
});

/**
 * `runExperiment` with three rounds of `extra`·n pages in `iterations` iterations against one run of
 * three times both: every iteration's metrics equal, bit for bit. Returns the three-round result.
 */
async function expectRoundsEqualOneRun(web: WebGraph, spec: string, selectors: string[], iterations: number, extra: number): Promise<ExperimentResult> {
  const domains = [{ spec, pages: resolveDomain(spec, web) }];
  const settings = { selectors, alpha: 0.85, tolerance: 1e-8, seed: 1 };
  const rounds = await runExperiment(web, domains, { ...settings, iterations, extra: { timesDomain: extra }, rounds: 3 });
  const long = await runExperiment(web, domains, { ...settings, iterations: 3 * iterations, extra: { timesDomain: 3 * extra } });
  for (const name of selectors) {
    const chained = rounds.domains[0].selectors[name];
    const one = long.domains[0].selectors[name];
    expect(chained.rounds.map((r) => r.round)).toEqual([1, 2, 3]);
    expect(chained.rounds[0].crawled).toBeGreaterThan(0);
    expect(chained.rounds[2].crawled).toBeGreaterThan(chained.rounds[1].crawled);
    expect(chained.perIteration.map((it) => it.iteration)).toEqual(one.perIteration.map((it) => it.iteration));
    const metrics = (its: typeof one.perIteration) => its.map(({ crawled, l1, linf, tau }) => ({ crawled, l1, linf, tau }));
    expect(metrics(chained.perIteration), name).toEqual(metrics(one.perIteration));
    expect(chained.rounds[2].l1).toBe(one.final.l1);
    expect(chained.rounds[0].l1).toBe(one.perIteration[iterations].l1);
  }
  return rounds;
}
