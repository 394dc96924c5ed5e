/**
 * FindGlobalPR continued from the supergraph an earlier run left: r runs of E pages in T
 * iterations select exactly what one run of r·E pages in r·T iterations selects.
 */
import { describe, expect, it } from 'vitest';
import { buildGraph, type LinkGraph } from '../indexer/graph.ts';
import { loadWebGraph } from '../indexer/graph-files.ts';
import { resolveDomain } from '../indexer/estimation/domain.ts';
import { knownGraphSource, pageOfGraph } from '../indexer/estimation/experiment.ts';
import { findGlobalPageRank, graphFingerprint, type SupergraphStart } from '../indexer/estimation/find-global-pagerank.ts';
import { createSelector } from '../indexer/estimation/selectors.ts';
import type { SelectorName } from '../indexer/estimation/selectors.ts';
import { randomEdgeList } from './helpers/random-graphs.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

interface Run {
  picks: number[][];
  estimate: Float64Array;
}

/** `rounds` runs, each starting where the last ended (its F, its PageRank). */
async function chainedRuns(graph: LinkGraph, local: Int32Array, selector: SelectorName, rounds: number, iterations: number, perIteration: number): Promise<Run & { exactStarts: number }> {
  const picks: number[][] = [];
  let start: SupergraphStart<number> | undefined;
  let estimate: Float64Array = new Float64Array(0);
  let exactStarts = 0;
  for (let r = 0; r < rounds; r++) {
    const run = await findGlobalPageRank({
      localPages: Array.from(local, (p) => pageOfGraph(graph, p)),
      source: knownGraphSource(graph),
      selector: createSelector(selector, { seed: 1 }),
      iterations,
      extraPages: iterations * perIteration,
      start,
      onIteration: ({ record }) => {
        if (record.iteration > 0) picks.push(record.selected);
        else if (start && record.pageRankIterations === 0) exactStarts++;
      },
    });
    const sg = run.supergraph;
    const globalPages = [];
    for (let id = sg.localCount; id < sg.size; id++) globalPages.push(pageOfGraph(graph, sg.keyOf(id)));
    start = { globalPages, rank: run.rank, fingerprint: run.fingerprint };
    estimate = run.estimate;
  }
  return { picks, estimate, exactStarts };
}

/** One run of `iterations` × `perIteration` pages. */
const oneRun = (graph: LinkGraph, local: Int32Array, selector: SelectorName, iterations: number, perIteration: number): Promise<Run> =>
  chainedRuns(graph, local, selector, 1, iterations, perIteration);

describe('continuing FindGlobalPR from an earlier supergraph', () => {
  it('three runs of T iterations select what one run of 3T iterations selects (random graph, SC, PF, OutlinkCount)', async () => {
    const list = randomEdgeList(7, 400, 0.012);
    const graph = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
    const local = Int32Array.from({ length: 40 }, (_, i) => i);
    for (const selector of ['sc', 'pf', 'outlink'] as const) {
      const long = await oneRun(graph, local, selector, 12, 5);
      const chained = await chainedRuns(graph, local, selector, 3, 4, 5);
      expect(chained.exactStarts).toBe(2);
      expect(chained.picks).toEqual(long.picks);
      expect(Array.from(chained.estimate)).toEqual(Array.from(long.estimate));
    }
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

  it.skipIf(!hasSharedData)('hollins www.hollins.edu: three SC runs of 10 iterations equal one run of 30', async () => {
    const web = loadWebGraph({ edges: sharedGraphFile('hollins', 'edges'), nodes: sharedGraphFile('hollins', 'nodes') });
    const local = resolveDomain('host:www.hollins.edu', web);
    const long = await oneRun(web.graph, local, 'sc', 30, 20);
    const chained = await chainedRuns(web.graph, local, 'sc', 3, 10, 20);
    expect(chained.picks).toEqual(long.picks);
    for (let i = 0; i < local.length; i++) expect(Math.abs(chained.estimate[i] - long.estimate[i])).toBeLessThan(1e-12);
  });
  if (!hasSharedData) it.skip(`hollins: ${sharedDataSkipReason}`, () => {});
});
