/**
 * FindGlobalPR and its parts on the shared graphs:
 * - warm-start: total PageRank iterations over a 50-iteration run, warm start vs uniform start,
 *   and how far each start is from the answer (which decides the iterations saved);
 * - fast-solver: the same run's PageRank calls replayed with pageRankFast;
 * - profile: where a run's time goes (a replica of the loop of find-global-pagerank.ts, timed
 *   phase by phase);
 * - sc-select: SC-Select alone on a ~100k-page supergraph;
 * - estimators: one call of each final estimate (supergraph, gated) on the
 *   supergraph of a finished run, against one PageRank of it (FindGlobalPR calls the estimate every iteration),
 *   and the openness count best's selection makes every iteration;
 * - experiment: the four-selector experiment on a ~4.5k-page notredame domain.
 */
import { join } from 'node:path';
import type { LinkGraph } from '../indexer/graph.ts';
import { loadWebGraph, type WebGraph } from '../indexer/graph-files.ts';
import { l1Distance, restrictAndNormalise } from '../indexer/metrics.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { pageRankFast } from '../indexer/pagerank-fast.ts';
import { resolveDomain } from '../indexer/estimation/domain.ts';
import { runExperiment, knownGraphSource, pageOfGraph } from '../indexer/estimation/experiment.ts';
import { extendStartVector, findGlobalPageRank, pagesPerIteration, selectionInput } from '../indexer/estimation/find-global-pagerank.ts';
import { topK } from '../indexer/estimation/selection.ts';
import { createSelector } from '../indexer/estimation/selectors.ts';
import { BEST_METHOD, ESTIMATOR_NAMES, estimateOverSupergraph } from '../indexer/estimation/estimators.ts';
import { farBackLinks } from '../indexer/estimation/openness.ts';
import { stochasticComplementScores } from '../indexer/estimation/stochastic-complement.ts';
import { Supergraph } from '../indexer/estimation/supergraph.ts';
import type { BenchContext } from './run.ts';

const ALPHA = 0.85;
const ITERATIONS = 50;

/** Local domains: a site of hollins and out-link balls of notredame (`ball:ID:R`, ids of the file). */
const WARM_START_DOMAINS = [
  { graph: 'hollins', spec: 'host:www.hollins.edu' },
  { graph: 'notredame', spec: 'ball:1:4' },
] as const;
/** ~4.5k pages: the four-selector experiment and the profile. */
const SMALL_BALL = 'ball:1:4';
/** ~18k pages: the profile at a larger scale. */
const MEDIUM_BALL = 'ball:7920:5';
/** ~100k pages: SC-Select alone. */
const LARGE_BALL = 'ball:7920:7';

type GraphName = 'hollins' | 'notredame';

export async function estimationBenchmarks(bench: BenchContext): Promise<void> {
  const dataDir = bench.sharedDataDir;
  if (!dataDir) return;
  const loaded = new Map<GraphName, { web: WebGraph; truth: Float64Array }>();
  const load = (name: GraphName) => {
    let entry = loaded.get(name);
    if (!entry) {
      const file = (kind: string) => join(dataDir, 'graphs', `${name}.${kind}.tsv.gz`);
      const web = loadWebGraph({ edges: file('edges'), nodes: name === 'notredame' ? undefined : file('nodes') });
      entry = { web, truth: pageRankFast(web.graph, { tolerance: 1e-12 }).rank };
      loaded.set(name, entry);
    }
    return entry;
  };

  if (bench.wants('warm-start') || bench.wants('fast-solver')) {
    bench.heading(`FindGlobalPR (SC-Select, ${ITERATIONS} iterations, 2n extra pages): PageRank iterations with and without warm start`);
    const rows: Array<Array<string | number>> = [
      ['graph / domain', 'n', 'δ', 'iterations cold', 'warm', 'cold / warm', 'mean ‖start − f‖₁ uniform', 'warm', 'final L1 cold', 'warm', 'seconds cold', 'warm'],
    ];
    const replays: Array<{ label: string; calls: ReplayedCall[] }> = [];
    for (const { graph: name, spec } of WARM_START_DOMAINS) {
      const { web, truth } = load(name);
      const domain = resolveDomain(spec, web);
      const target = restrictAndNormalise(truth, domain);
      for (const tolerance of [1e-6, 1e-10]) {
        const cold = await estimationRun(web, domain, tolerance, false);
        const warm = await estimationRun(web, domain, tolerance, true);
        rows.push([
          `${name} ${spec}`,
          domain.length,
          tolerance,
          cold.pageRankIterations,
          warm.pageRankIterations,
          cold.pageRankIterations / warm.pageRankIterations,
          warm.meanUniformDistance,
          warm.meanWarmDistance,
          l1Distance(cold.estimate, target),
          l1Distance(warm.estimate, target),
          cold.seconds,
          warm.seconds,
        ]);
        if (tolerance === 1e-6) replays.push({ label: `${name} ${spec}`, calls: warm.calls });
      }
    }
    bench.table(rows);
    bench.note('Iterations 1…T (iteration 0 ranks L alone and is the same for both). A start at L1 distance d from the answer');
    bench.note('needs about log(δ/d)/log(α) power iterations, so the saving per call is log(d_uniform/d_warm)/log(1/α) iterations,');
    bench.note('whatever δ: crawling 2n/T pages per iteration moves f by the warm distance shown.');

    if (bench.wants('fast-solver')) {
      bench.heading('The same runs’ PageRank calls (warm starts, δ = 1e-6) replayed with pageRankFast');
      const table: Array<Array<string | number>> = [['graph / domain', 'calls', 'pageRank iterations', 'seconds', 'pageRankFast sweeps', 'seconds', 'speed-up']];
      for (const { label, calls } of replays) {
        const plain = await bench.time(() => replay(calls, 'plain'), { runs: 3, warmup: 1 });
        const fast = await bench.time(() => replay(calls, 'fast'), { runs: 3, warmup: 1 });
        table.push([label, calls.length, plain.result, plain.median, fast.result, fast.median, plain.median / fast.median]);
      }
      bench.table(table);
      bench.note('Each call on a fresh graph object, so both include their per-graph preparation (transpose / system).');
    }
  }

  if (bench.wants('profile')) {
    const { web } = load('notredame');
    // An untimed run first, so that compilation does not land on the first phases measured.
    await profiledRun(web.graph, resolveDomain(SMALL_BALL, web));
    for (const spec of [SMALL_BALL, MEDIUM_BALL]) {
      const domain = resolveDomain(spec, web);
      bench.heading(`Where FindGlobalPR's time goes: notredame ${spec} (n = ${domain.length}), SC-Select, ${ITERATIONS} iterations, 2n, warm starts`);
      const profile = await profiledRun(web.graph, domain);
      const total = [...profile.phases.values()].reduce((a, b) => a + b, 0);
      const rows: Array<Array<string | number>> = [['phase', 'seconds', 'share']];
      for (const [phase, seconds] of profile.phases) rows.push([phase, seconds, `${((100 * seconds) / total).toFixed(1)} %`]);
      rows.push(['total', total, '100 %']);
      bench.table(rows);
      bench.note(`final |F| = ${profile.size.toLocaleString('en-US')}, frontier ${profile.frontier.toLocaleString('en-US')} candidates; pageRankFast on the same graphs and starts: ${profile.fastSeconds.toFixed(3)} s`);
    }
  }

  if (bench.wants('sc-select')) {
    const { web } = load('notredame');
    const domain = resolveDomain(LARGE_BALL, web);
    bench.heading(`SC-Select alone: notredame ${LARGE_BALL} (n = ${domain.length.toLocaleString('en-US')})`);
    let started = performance.now();
    const supergraph = new Supergraph(Array.from(domain, (page) => pageOfGraph(web.graph, page)));
    const buildSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const graph = supergraph.graph();
    const graphSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const rank = pageRankFast(graph).rank;
    const rankSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const input = selectionInput(supergraph, rank, ALPHA);
    const inputSeconds = (performance.now() - started) / 1000;
    const scores = await bench.time(() => stochasticComplementScores(input), { runs: 7, warmup: 2 });
    const k = pagesPerIteration(ITERATIONS, 2 * domain.length);
    const top = await bench.time(() => topK(scores.result, k), { runs: 7, warmup: 2 });
    bench.table([
      ['step', 'ms'],
      [`Supergraph of L (${graph.nodeCount.toLocaleString('en-US')} pages, ${graph.edgeCount.toLocaleString('en-US')} links)`, buildSeconds * 1000],
      ['Supergraph.graph() (CSR rebuild)', graphSeconds * 1000],
      ['PageRank of F (pageRankFast, δ = 1e-6)', rankSeconds * 1000],
      [`selectionInput: frontierView sort (${supergraph.frontierSize.toLocaleString('en-US')} candidates, ${input.linkers.length.toLocaleString('en-US')} linkers)`, inputSeconds * 1000],
      ['stochasticComplementScores, per selection (median)', scores.median * 1000],
      [`topK (k = ${k})`, top.median * 1000],
    ]);
  }

  if (bench.wants('estimators')) {
    const { web } = load('notredame');
    for (const spec of [SMALL_BALL, MEDIUM_BALL]) {
      const domain = resolveDomain(spec, web);
      // The supergraph of a finished run: best's selection, 2n extra pages in 25 iterations.
      const run = await findGlobalPageRank({
        localPages: Array.from(domain, (page) => pageOfGraph(web.graph, page)),
        source: knownGraphSource(web.graph),
        selector: createSelector(BEST_METHOD.selector),
        iterations: 25,
        extraPages: 2 * domain.length,
        pageRank: { alpha: ALPHA, tolerance: 1e-6 },
      });
      const graph = run.supergraph.graph();
      bench.heading(`One final estimate on the supergraph of a finished run: notredame ${spec} (n = ${domain.length.toLocaleString('en-US')}, |F| = ${graph.nodeCount.toLocaleString('en-US')}, ${graph.edgeCount.toLocaleString('en-US')} links, frontier ${run.supergraph.frontierSize.toLocaleString('en-US')})`);
      const plain = await bench.time(() => pageRank(graph, { alpha: ALPHA, tolerance: 1e-6 }), { runs: 3, warmup: 1 });
      const rows: Array<Array<string | number>> = [['estimate', 'ms (median of 3)', '× one PageRank of F (δ = 1e-6, uniform start)']];
      rows.push(['PageRank of F', plain.median * 1000, 1]);
      for (const name of ESTIMATOR_NAMES) {
        const timing = await bench.time(() => estimateOverSupergraph(name, run.supergraph, run.rank, { alpha: ALPHA, tolerance: 1e-6 }), { runs: 3, warmup: 1 });
        rows.push([name, timing.median * 1000, timing.median / plain.median]);
      }
      const count = await bench.time(() => farBackLinks(graph, run.supergraph.localMask()), { runs: 3, warmup: 1 });
      const { far, back } = count.result;
      rows.push([`openness count (far ${far}, back ${back})`, count.median * 1000, count.median / plain.median]);
      bench.table(rows);
    }
  }

  if (bench.wants('experiment')) {
    const { web } = load('notredame');
    const domain = resolveDomain(SMALL_BALL, web);
    bench.heading(`The four-selector experiment: notredame ${SMALL_BALL} (n = ${domain.length}), ${ITERATIONS} iterations, 2n, δ = 1e-6`);
    const started = performance.now();
    const result = await runExperiment(web, [{ spec: SMALL_BALL, pages: domain }], {
      selectors: ['sc', 'pf', 'outlink', 'random'],
      iterations: ITERATIONS,
      extra: { timesDomain: 2 },
      alpha: ALPHA,
      tolerance: 1e-6,
      seed: 1,
    });
    const seconds = (performance.now() - started) / 1000;
    const outcome = result.domains[0];
    const rows: Array<Array<string | number>> = [['selector', 'seconds', 'final L1', 'Kendall τ']];
    rows.push(['(baseline: L alone)', '', outcome.baseline.l1, outcome.baseline.tau]);
    for (const [name, selector] of Object.entries(outcome.selectors)) rows.push([name, selector.final.seconds, selector.final.l1, selector.final.tau]);
    rows.push(['true PageRank of notredame (δ = 1e-10)', result.truth.seconds, '', '']);
    rows.push(['total runExperiment', seconds, '', '']);
    bench.table(rows);
  }
}

interface ReplayedCall {
  graph: LinkGraph;
  start: Float64Array;
}

interface EstimationRun {
  estimate: Float64Array;
  pageRankIterations: number;
  seconds: number;
  /** Mean over iterations 1…T of ‖start − f‖₁ for a uniform and for the warm start. */
  meanUniformDistance: number;
  meanWarmDistance: number;
  /** The PageRank calls of iterations 1…T (graph and warm start), for replays. */
  calls: ReplayedCall[];
}

async function estimationRun(web: WebGraph, domain: Int32Array, tolerance: number, warmStart: boolean): Promise<EstimationRun> {
  let previous: Float64Array | undefined;
  let uniformDistance = 0;
  let warmDistance = 0;
  const calls: ReplayedCall[] = [];
  const started = performance.now();
  const run = await findGlobalPageRank({
    localPages: Array.from(domain, (page) => pageOfGraph(web.graph, page)),
    source: knownGraphSource(web.graph),
    selector: createSelector('sc'),
    iterations: ITERATIONS,
    extraPages: 2 * domain.length,
    pageRank: { alpha: ALPHA, tolerance },
    warmStart,
    onIteration: ({ record, supergraph, rank }) => {
      if (record.iteration > 0 && previous) {
        const start = extendStartVector(previous, rank.length, ALPHA);
        warmDistance += l1Distance(start, rank);
        uniformDistance += l1Distance(new Float64Array(rank.length).fill(1 / rank.length), rank);
        calls.push({ graph: supergraph.graph(), start });
      }
      previous = rank;
    },
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    estimate: run.estimate,
    pageRankIterations: run.records.slice(1).reduce((sum, record) => sum + record.pageRankIterations, 0),
    seconds,
    meanUniformDistance: uniformDistance / ITERATIONS,
    meanWarmDistance: warmDistance / ITERATIONS,
    calls,
  };
}

function replay(calls: readonly ReplayedCall[], solver: 'plain' | 'fast'): number {
  let iterations = 0;
  for (const { graph, start } of calls) {
    const options = { alpha: ALPHA, tolerance: 1e-6, start };
    iterations += (solver === 'plain' ? pageRank : pageRankFast)({ ...graph }, options).iterations;
  }
  return iterations;
}

/**
 * The loop of findGlobalPageRank (warm starts), with each phase timed separately. Kept in step
 * with find-global-pagerank.ts by using the same exported pieces.
 */
async function profiledRun(graph: LinkGraph, domain: Int32Array) {
  const phases = new Map<string, number>();
  const timed = <T>(phase: string, work: () => T): T => {
    const started = performance.now();
    const result = work();
    phases.set(phase, (phases.get(phase) ?? 0) + (performance.now() - started) / 1000);
    return result;
  };
  const source = knownGraphSource(graph);
  const supergraph = timed('Supergraph of L', () => new Supergraph(Array.from(domain, (page) => pageOfGraph(graph, page))));
  let rank = timed('pageRank (incl. transpose of each new graph)', () => pageRank(timed('Supergraph.graph() rebuild', () => supergraph.graph()), { alpha: ALPHA }).rank);
  const selector = createSelector('sc');
  const want = pagesPerIteration(ITERATIONS, 2 * domain.length);
  let fastSeconds = 0;
  for (let i = 1; i <= ITERATIONS; i++) {
    const frontier = timed('Supergraph.frontierView (sort of the candidates)', () => supergraph.frontierView());
    const input = timed('selectionInput (rest)', () => selectionInput(supergraph, rank, ALPHA));
    const chosen = timed('SC-Select scores + topK', () => selector.select(input, want));
    const pages = await source.fetchPages(Array.from(chosen, (c) => frontier.keys[c]));
    timed('Supergraph.addPages', () => supergraph.addPages(pages));
    const grown = timed('Supergraph.graph() rebuild', () => supergraph.graph());
    const start = timed('extendStartVector', () => extendStartVector(rank, supergraph.size, ALPHA));
    rank = timed('pageRank (incl. transpose of each new graph)', () => pageRank(grown, { alpha: ALPHA, start }).rank);
    const started = performance.now();
    pageRankFast({ ...grown }, { alpha: ALPHA, start });
    fastSeconds += (performance.now() - started) / 1000;
  }
  return { phases, size: supergraph.size, frontier: supergraph.frontierSize, fastSeconds };
}
