/**
 * Offline experiments (paper §6): FindGlobalPR against a known global graph, where the true
 * global PageRank is known and every iteration's error can be measured.
 */
import { inducedSubgraph, type LinkGraph } from '../graph.ts';
import type { WebGraph } from '../graph-files.ts';
import { compareRankings, restrictAndNormalise, type RankComparison } from '../metrics.ts';
import { pageRank } from '../pagerank.ts';
import { continuationOf, EstimationOptionError, findGlobalPageRank, type PageSource, type SupergraphStart } from './find-global-pagerank.ts';
import { domainKindOfSpec } from './domain.ts';
import { PRODUCT_METHODS, UnknownMethodError, type MethodCatalogue } from './estimators.ts';
import type { FetchedPage } from './supergraph.ts';

/** Extra pages as a count or as a multiple of the domain size (`2n`). */
export type ExtraPages = { readonly pages: number } | { readonly timesDomain: number };

/** Parses `1500`, `2n`, `0.5n`. */
export function parseExtraPages(text: string): ExtraPages {
  const multiple = /^(\d+(?:\.\d+)?|\.\d+)n$/.exec(text.trim());
  if (multiple) return { timesDomain: Number(multiple[1]) };
  if (/^\d+$/.test(text.trim())) return { pages: Number(text.trim()) };
  throw new EstimationOptionError(`extra pages "${text}" is neither a page count (1500) nor a multiple of the domain size (2n, 0.5n)`);
}

export function extraPageCount(extra: ExtraPages, domainSize: number): number {
  return 'pages' in extra ? extra.pages : Math.round(extra.timesDomain * domainSize);
}

/** Crawling in an offline experiment: a page's out-links are revealed from the known graph. */
export function knownGraphSource(graph: LinkGraph): PageSource<number> {
  return {
    async fetchPages(keys) {
      return keys.map((key) => pageOfGraph(graph, key));
    },
  };
}

export function pageOfGraph(graph: LinkGraph, page: number): FetchedPage<number> {
  return { key: page, links: graph.outTargets.subarray(graph.outOffsets[page], graph.outOffsets[page + 1]) };
}

export interface ExperimentSettings {
  /** Methods: selectors (`sc`, `pf`, `outlink`, `random`), `best` and `default` (estimators.ts). */
  selectors: readonly string[];
  /** The final estimate of the named selectors (default `supergraph`); `best` brings its own. */
  estimator?: string;
  iterations: number;
  extra: ExtraPages;
  alpha: number;
  /** PageRank tolerance inside FindGlobalPR (the truth is always computed to 1e-10 or tighter). */
  tolerance: number;
  seed: number;
  buckets?: number;
  warmStart?: boolean;
  /**
   * Rounds (default 1): each spends `extra` pages in `iterations` iterations, and round r+1
   * continues from the supergraph round r left, as the live rounds do.
   */
  rounds?: number;
}

export interface IterationMetrics extends RankComparison {
  iteration: number;
  crawled: number;
  pagerankIterations: number;
  ms: number;
}

/** The estimate at the end of one round. */
export interface RoundMetrics extends RankComparison {
  round: number;
  crawled: number;
}

export interface SelectorOutcome {
  /** Iterations of all rounds, numbered on: round r's iteration i is (r−1)·T + i. */
  perIteration: IterationMetrics[];
  /** After each round (one entry per round). */
  rounds: RoundMetrics[];
  final: RankComparison & { crawled: number; seconds: number };
}

export interface DomainOutcome {
  spec: string;
  pages: number;
  extraPages: number;
  baseline: RankComparison;
  selectors: Record<string, SelectorOutcome>;
}

export interface ExperimentResult {
  graph: { pages: number; links: number };
  settings: Omit<ExperimentSettings, 'extra'> & { extra: ExtraPages };
  truth: { pagerankIterations: number; seconds: number };
  domains: DomainOutcome[];
}

export interface ExperimentDomain {
  spec: string;
  pages: Int32Array;
}

export interface ExperimentProgress {
  domain: string;
  selector: string;
  round: number;
  iteration: number;
  iterations: number;
  l1: number;
}

export async function runExperiment(
  web: WebGraph,
  domains: readonly ExperimentDomain[],
  settings: ExperimentSettings,
  onProgress?: (progress: ExperimentProgress) => void,
  catalogue: MethodCatalogue = PRODUCT_METHODS,
): Promise<ExperimentResult> {
  const graph = web.graph;
  const started = performance.now();
  // The truth by the reference power iteration: it updates all pages alike, so pages of equal
  // PageRank stay exactly equal (ties for Kendall's τ-b); Gauss–Seidel's order splits them by noise.
  const truth = pageRank(graph, { alpha: settings.alpha, tolerance: Math.min(settings.tolerance, 1e-10), maxIterations: 10_000 });
  const truthSeconds = (performance.now() - started) / 1000;
  const source = knownGraphSource(graph);
  const outcomes: DomainOutcome[] = [];
  const roundCount = settings.rounds ?? 1;
  if (!(Number.isInteger(roundCount) && roundCount >= 1)) throw new EstimationOptionError(`rounds must be a positive integer, got ${roundCount}`);
  const round3 = (value: number) => round(value, 3);

  for (const domain of domains) {
    const target = restrictAndNormalise(truth.rank, domain.pages);
    const localPages = Array.from(domain.pages, (page) => pageOfGraph(graph, page));
    const extraPages = extraPageCount(settings.extra, domain.pages.length);
    const localIds = Int32Array.from({ length: domain.pages.length }, (_, i) => i);
    const outcome: DomainOutcome = { spec: domain.spec, pages: domain.pages.length, extraPages, baseline: { l1: 0, linf: 0, tau: 0 }, selectors: {} };
    for (const name of settings.selectors) {
      let method;
      try {
        method = catalogue.resolve(name, settings.estimator ?? 'supergraph', domainKindOfSpec(domain.spec));
      } catch (error) {
        if (error instanceof UnknownMethodError) throw new EstimationOptionError(error.message);
        throw error;
      }
      const perIteration: IterationMetrics[] = [];
      const rounds: RoundMetrics[] = [];
      let baseline: RankComparison | undefined;
      let start: SupergraphStart<number> | undefined;
      for (let round = 1; round <= roundCount; round++) {
        const offset = (round - 1) * settings.iterations;
        const run = await findGlobalPageRank({
          localPages,
          source,
          selector: method.createSelector({ seed: settings.seed, buckets: settings.buckets }),
          estimator: method.estimator,
          iterations: settings.iterations,
          extraPages,
          pageRank: { alpha: settings.alpha, tolerance: settings.tolerance },
          warmStart: settings.warmStart,
          start,
          onIteration: ({ record, estimate, rank }) => {
            // A continuing round's iteration 0 is where the last round ended: already recorded.
            if (record.iteration === 0 && round > 1) return;
            // The baseline is local PageRank whatever the estimate: F = L at iteration 0.
            if (record.iteration === 0) baseline = compareRankings(restrictAndNormalise(rank, localIds), target);
            const metrics = compareRankings(estimate, target);
            perIteration.push({ iteration: offset + record.iteration, crawled: record.crawled, ...metrics, pagerankIterations: record.pageRankIterations, ms: round3(record.ms) });
            onProgress?.({ domain: domain.spec, selector: name, round, iteration: record.iteration, iterations: settings.iterations, l1: metrics.l1 });
          },
        });
        const last = perIteration[perIteration.length - 1];
        rounds.push({ round, l1: last.l1, linf: last.linf, tau: last.tau, crawled: run.supergraph.size - run.supergraph.localCount });
        if (round < roundCount) start = continuationOf(run, (page) => pageOfGraph(graph, page));
      }
      const last = perIteration[perIteration.length - 1];
      if (baseline) outcome.baseline = baseline;
      const seconds = perIteration.reduce((sum, it) => sum + it.ms, 0) / 1000;
      outcome.selectors[name] = {
        perIteration,
        rounds,
        final: { l1: last.l1, linf: last.linf, tau: last.tau, crawled: rounds[rounds.length - 1].crawled, seconds: round(seconds, 3) },
      };
    }
    if (settings.selectors.length === 0) {
      const local = pageRank(inducedSubgraph(graph, domain.pages), { alpha: settings.alpha, tolerance: settings.tolerance });
      outcome.baseline = compareRankings(local.rank, target);
    }
    outcomes.push(outcome);
  }
  return {
    graph: { pages: graph.nodeCount, links: graph.edgeCount },
    settings: { ...settings },
    truth: { pagerankIterations: truth.iterations, seconds: round(truthSeconds, 3) },
    domains: outcomes,
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
