/**
 * PageRank of notredame (325,729 pages, 1.47 M links): the reference power iteration against
 * pageRankFast. For each: seconds (median after a warm-up; "prepared" = the graph's transpose /
 * system already cached, as when one graph is ranked repeatedly; "fresh graph" = first solve on a
 * new graph object, as in FindGlobalPR where every iteration builds a new graph), iterations,
 * edge visits per second, the true L1 error against the shared reference vector (1e-14), and the
 * process's peak RSS so far.
 */
import { join } from 'node:path';
import { type LinkGraph } from '../indexer/graph.ts';
import { loadWebGraph, readPageVector } from '../indexer/graph-files.ts';
import { l1Distance } from '../indexer/metrics.ts';
import { pageRank, type PageRankOptions, type PageRankResult } from '../indexer/pagerank.ts';
import { pageRankFast } from '../indexer/pagerank-fast.ts';
import type { BenchContext } from './run.ts';

interface Solver {
  name: string;
  solve: (graph: LinkGraph, options: PageRankOptions) => PageRankResult;
  /** Edges read per iteration, and once at the end. */
  edgeVisits: (iterations: number) => number;
}

function peakRssMegabytes(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** A copy of the graph object that shares the arrays but none of the per-graph caches. */
function freshGraph(graph: LinkGraph): LinkGraph {
  return { ...graph };
}

export async function pageRankBenchmarks(bench: BenchContext): Promise<void> {
  if (!bench.sharedDataDir) return;
  const graphs = join(bench.sharedDataDir, 'graphs');
  const started = performance.now();
  const web = loadWebGraph({ edges: join(graphs, 'notredame.edges.tsv.gz') });
  const graph = web.graph;
  const truth = readPageVector(join(graphs, 'notredame.pagerank.tsv.gz'), web);
  const loadSeconds = (performance.now() - started) / 1000;

  // pageRankFast sweeps only the links into pages that have out-links; the rest once at the end.
  const hasOutLinks = (page: number) => graph.outOffsets[page + 1] > graph.outOffsets[page];
  let linksIntoRows = 0;
  for (let e = 0; e < graph.edgeCount; e++) if (hasOutLinks(graph.outTargets[e])) linksIntoRows++;
  const solvers: Solver[] = [
    { name: 'power iteration (pagerank.ts)', solve: pageRank, edgeVisits: (iterations) => iterations * graph.edgeCount },
    {
      name: 'pageRankFast',
      solve: pageRankFast,
      edgeVisits: (sweeps) => sweeps * linksIntoRows + (graph.edgeCount - linksIntoRows),
    },
  ];

  bench.heading('PageRank of notredame');
  bench.note(`${graph.nodeCount.toLocaleString('en-US')} pages, ${graph.edgeCount.toLocaleString('en-US')} links, ${(graph.edgeCount - linksIntoRows).toLocaleString('en-US')} of them to dangling pages; loaded in ${loadSeconds.toFixed(2)} s; peak RSS ${peakRssMegabytes()} MB`);
  bench.note('tolerance: power iteration stops when the last L1 change < δ; pageRankFast when its guaranteed L1 error bound < δ.');
  for (const tolerance of [1e-6, 1e-10]) {
    if (!bench.wants(`tolerance ${tolerance}`)) continue;
    const rows: Array<Array<string | number>> = [[`δ = ${tolerance.toExponential(0)}`, 'prepared s (median)', 'min s', 'fresh graph s', 'iterations', 'edge visits/s', 'L1 error', 'reported residual', 'peak RSS MB']];
    for (const solver of solvers) {
      const options = { tolerance, maxIterations: 10_000 };
      solver.solve(graph, options); // caches the transpose / system on `graph`
      const prepared = await bench.time(() => solver.solve(graph, options), { runs: 7, warmup: 2 });
      const fresh = await bench.time(() => solver.solve(freshGraph(graph), options), { runs: 5, warmup: 1 });
      const result = prepared.result;
      rows.push([
        solver.name,
        prepared.median,
        prepared.min,
        fresh.median,
        result.iterations,
        Math.round(solver.edgeVisits(result.iterations) / prepared.median),
        l1Distance(result.rank, truth),
        result.residual,
        peakRssMegabytes(),
      ]);
    }
    bench.table(rows);
  }

  if (bench.wants('convergence')) {
    bench.heading('pageRankFast on notredame: error bound vs true error');
    const rows: Array<Array<string | number>> = [['tolerance', 'sweeps', 'bound', 'true L1 error', 'bound / error']];
    for (const tolerance of [1e-4, 1e-6, 1e-8, 1e-10, 1e-12]) {
      const result = pageRankFast(graph, { tolerance });
      const error = l1Distance(result.rank, truth);
      rows.push([tolerance, result.iterations, result.residual, error, result.residual / error]);
    }
    bench.table(rows);
  }
}
