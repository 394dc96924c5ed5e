/**
 * FindGlobalPR (Davis & Dhillon 2006, Algorithm 2; docs/estimation.md): grow a supergraph of the
 * local domain by crawling `k` well-chosen frontier pages per iteration, re-rank, and report the
 * PageRank of the local pages renormalised.
 *
 * Crawling is behind {@link PageSource}, so the same loop runs offline (pages revealed from a
 * known global graph) and live (the crawler fetches them).
 */
import type { LinkGraph } from '../graph.ts';
import { pageRank, type PageRankOptions, type PageRankResult } from '../pagerank.ts';
import { restrictAndNormalise } from '../metrics.ts';
import { Supergraph, type FetchedPage, type PageBatch } from './supergraph.ts';
import type { PageSelector, SelectionInput, SelectorState } from './selection.ts';
import { estimateOverSupergraph, type EstimatorName, type SupergraphEstimate } from './estimators.ts';

/** "Fetch these pages, give me their out-links." Pages that cannot be fetched are left out. */
export interface PageSource<K> {
  fetchPages(keys: readonly K[], signal?: AbortSignal): Promise<ReadonlyArray<FetchedPage<K>>>;
}

export interface IterationRecord<K> {
  /** 0 for the local domain alone, then 1 … T. */
  iteration: number;
  /** Pages chosen by the selector in this iteration. */
  selected: K[];
  /** Pages crawled in this iteration (chosen pages that could be fetched). */
  fetched: number;
  /** Extra pages in F so far. */
  crawled: number;
  frontier: number;
  pageRankIterations: number;
  /** Wall time of the iteration: selection, crawl and PageRank. */
  ms: number;
}

export interface IterationState<K> {
  readonly record: IterationRecord<K>;
  readonly supergraph: Supergraph<K>;
  /** PageRank of the current F (what the selectors read). */
  readonly rank: Float64Array;
  /** The estimate restricted to L and renormalised, in the order of the local pages. */
  readonly estimate: Float64Array;
  /** The selector's state after this iteration (selectors with state only): a resumed run restores it. */
  readonly selectorState?: NamedSelectorState;
}

/** A selector's state with the selector's name: only a selector of that name continues from it. */
export interface NamedSelectorState {
  selector: string;
  state: SelectorState;
}

export interface FindGlobalPageRankOptions<K> {
  /** The local domain L with its out-links. */
  localPages: ReadonlyArray<FetchedPage<K>>;
  source: PageSource<K>;
  selector: PageSelector;
  /** T */
  iterations: number;
  /** Total extra pages, spread evenly over the iterations. */
  extraPages: number;
  pageRank?: Pick<PageRankOptions, 'alpha' | 'tolerance' | 'maxIterations'>;
  /** The final estimate (default `supergraph`: `E_L f / ‖E_L f‖₁`; see estimators.ts). */
  estimator?: EstimatorName | SupergraphEstimate;
  /** Start each PageRank from the previous one (default true). */
  warmStart?: boolean;
  onIteration?: (state: IterationState<K>) => void | Promise<void>;
  signal?: AbortSignal;
  /**
   * Resuming an interrupted run: the pages chosen in iterations 1, 2, … are taken from here
   * instead of from the selector (the source gives stored pages back without crawling them).
   */
  replay?: ReadonlyArray<readonly K[]>;
  /** The selector's state after the last replayed iteration ({@link IterationState.selectorState}). */
  replayState?: NamedSelectorState;
  /** Continuing from the supergraph earlier runs built (see {@link SupergraphStart}). */
  start?: SupergraphStart<K>;
}

/**
 * Where an earlier run left F: its global pages in the order they joined, pages known not to
 * be fetchable, and its PageRank. When the rebuilt F is the graph that PageRank was computed
 * on (same {@link graphFingerprint}), the run goes on from it exactly, and r runs of E pages in
 * T iterations select what one run of r·E pages in r·T iterations selects; otherwise it is the
 * warm start of the first PageRank.
 */
export interface SupergraphStart<K> {
  /** As a {@link PageBatch} on a large F: no object per page. */
  globalPages: ReadonlyArray<FetchedPage<K>> | PageBatch<K>;
  unreachable?: Iterable<K>;
  /** PageRank over L then the global pages, in that order (entries for pages no longer there are ignored). */
  rank?: Float64Array;
  /** The fingerprint of the graph `rank` was computed on. */
  fingerprint?: string;
  /** Where the earlier run left its selector (Random's generator); ignored by a selector of another name. */
  selectorState?: NamedSelectorState;
}

export interface FindGlobalPageRankResult<K> {
  estimate: Float64Array;
  records: IterationRecord<K>[];
  supergraph: Supergraph<K>;
  rank: Float64Array;
  /** {@link graphFingerprint} of the final F, for the next run's {@link SupergraphStart}. */
  fingerprint: string;
  /** The selector's final state, for the next run's {@link SupergraphStart}. */
  selectorState?: NamedSelectorState;
}

/**
 * A digest of a link graph (FNV-1a over its CSR arrays): equal digests mean the same pages,
 * numbered alike, with the same links. O(pages + links).
 */
export function graphFingerprint(graph: LinkGraph): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ graph.nodeCount;
  const mix = (words: Int32Array) => {
    for (let i = 0; i < words.length; i++) {
      a = Math.imul(a ^ words[i], 0x01000193);
      b = Math.imul(b ^ (words[i] + i), 0x5bd1e995);
    }
  };
  mix(graph.outOffsets);
  mix(graph.outTargets);
  return `${graph.nodeCount}:${graph.edgeCount}:${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}`;
}

/**
 * Where the next run starts when it continues from `result`: F's global pages in the order they
 * joined (their links read again by `pageOf`), its PageRank and fingerprint. Offline this is the
 * whole continuation; a live round rebuilds the same start from the store (server/jobs/round-start.ts).
 */
export function continuationOf<K>(result: FindGlobalPageRankResult<K>, pageOf: (key: K) => FetchedPage<K>): SupergraphStart<K> {
  const { supergraph } = result;
  const globalPages: FetchedPage<K>[] = [];
  for (let id = supergraph.localCount; id < supergraph.size; id++) globalPages.push(pageOf(supergraph.keyOf(id)));
  return { globalPages, rank: result.rank, fingerprint: result.fingerprint, selectorState: result.selectorState };
}

function savedState(selector: PageSelector): NamedSelectorState | undefined {
  return selector.saveState ? { selector: selector.name, state: selector.saveState() } : undefined;
}

function restoreState(selector: PageSelector, saved: NamedSelectorState | undefined): void {
  if (saved && saved.selector === selector.name) selector.restoreState?.(saved.state);
}

export class EstimationOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EstimationOptionError';
  }
}

/** How many times an iteration chooses again for pages a live crawl could not fetch. */
export const MAX_REFILLS = 3;

/**
 * `k`, the pages crawled per iteration: `extra / T` rounded (the paper's Algorithm 2 takes a
 * fixed k). T·k can differ from `extra` by under T/2 pages.
 */
export function pagesPerIteration(iterations: number, extra: number): number {
  return iterations > 0 ? Math.round(extra / iterations) : 0;
}

/**
 * The warm start for a grown F: the previous vector for the old pages, the teleport value
 * `(1−α)/ℓ` for the new ones, renormalised (docs/estimation.md).
 */
export function extendStartVector(previous: Float64Array, size: number, alpha: number): Float64Array {
  const start = new Float64Array(size);
  start.set(previous.subarray(0, Math.min(previous.length, size)));
  start.fill((1 - alpha) / size, previous.length);
  let sum = 0;
  for (let i = 0; i < size; i++) sum += start[i];
  for (let i = 0; i < size; i++) start[i] /= sum;
  return start;
}

export function selectionInput<K>(supergraph: Supergraph<K>, rank: Float64Array, alpha: number): SelectionInput {
  const frontier = supergraph.frontierView();
  return {
    graph: supergraph.graph(),
    rank,
    isLocal: supergraph.localMask(),
    linkerOffsets: frontier.linkerOffsets,
    linkers: frontier.linkers,
    alpha,
  };
}

export async function findGlobalPageRank<K>(options: FindGlobalPageRankOptions<K>): Promise<FindGlobalPageRankResult<K>> {
  const { source, selector, iterations, extraPages, signal } = options;
  if (!(Number.isInteger(iterations) && iterations >= 0)) throw new EstimationOptionError(`iterations must be a non-negative integer, got ${iterations}`);
  if (!(Number.isInteger(extraPages) && extraPages >= 0)) throw new EstimationOptionError(`extra pages must be a non-negative integer, got ${extraPages}`);
  if (options.localPages.length === 0) throw new EstimationOptionError('the local domain is empty');
  const alpha = options.pageRank?.alpha ?? 0.85;
  const rankOptions = { ...options.pageRank, alpha };
  const warmStart = options.warmStart ?? true;
  const estimator = options.estimator ?? 'supergraph';
  const estimateNow = () => restrictAndNormalise(estimateOverSupergraph(estimator, supergraph, rank, rankOptions), localPages);

  let started = performance.now();
  const supergraph = new Supergraph(options.localPages);
  const localPages = supergraph.localIds();
  const records: IterationRecord<K>[] = [];
  let result: PageRankResult;
  const start = options.start;
  if (start) {
    restoreState(selector, start.selectorState);
    supergraph.markUnreachable(start.unreachable ?? []);
    supergraph.addPages(start.globalPages);
    const exact = start.rank !== undefined && start.rank.length === supergraph.size && start.fingerprint === graphFingerprint(supergraph.graph());
    result = exact
      ? { rank: start.rank!, iterations: 0, residual: 0, converged: true }
      : pageRank(supergraph.graph(), { ...rankOptions, start: start.rank && warmStart ? extendStartVector(start.rank.subarray(0, supergraph.size), supergraph.size, alpha) : undefined });
  } else {
    result = pageRank(supergraph.graph(), rankOptions);
  }
  let rank = result.rank;

  let estimate: Float64Array = new Float64Array(0);
  const report = async (record: IterationRecord<K>) => {
    records.push(record);
    estimate = estimateNow();
    if (options.onIteration) await options.onIteration({ record, supergraph, rank, estimate, selectorState: savedState(selector) });
  };
  await report({
    iteration: 0,
    selected: [],
    fetched: 0,
    crawled: 0,
    frontier: supergraph.frontierSize,
    pageRankIterations: result.iterations,
    ms: performance.now() - started,
  });

  for (let i = 1; i <= iterations; i++) {
    signal?.throwIfAborted();
    started = performance.now();
    const want = pagesPerIteration(iterations, extraPages);
    const selected: K[] = [];
    const added: number[] = [];
    /** Fetches and adds the pages; how many of them could not be fetched. */
    const crawl = async (keys: K[]): Promise<number> => {
      selected.push(...keys);
      const pages = keys.length > 0 ? await source.fetchPages(keys, signal) : [];
      // Stopped mid-fetch: the pages it did not reach are not failures, and the iteration is not recorded.
      signal?.throwIfAborted();
      added.push(...supergraph.addPages(pages));
      const fetchedKeys = new Set(pages.map((p) => p.key));
      const failed = keys.filter((key) => !fetchedKeys.has(key));
      supergraph.markUnreachable(failed);
      return failed.length;
    };
    if (options.replay && i <= options.replay.length) {
      await crawl([...options.replay[i - 1]]);
      // The selector did not run for the replayed iterations: it goes on from where it was then.
      if (i === options.replay.length) restoreState(selector, options.replayState);
    } else {
      // Pages a live crawl cannot fetch (robots, errors, a pay-level domain out of budget) are
      // replaced from the rest of the frontier, a few times at most, so an iteration spends its
      // budget; a known graph gives every page and this never repeats (the paper's k pages per
      // iteration). Replacements are chosen with the warm-start vector of the grown F
      // (docs/estimation.md) instead of a new PageRank.
      let request = want;
      let selectionRank = rank;
      for (let attempt = 0; attempt <= MAX_REFILLS && request > 0; attempt++) {
        const frontier = supergraph.frontierView();
        if (frontier.count === 0) break;
        if (selectionRank.length !== supergraph.size) selectionRank = extendStartVector(rank, supergraph.size, alpha);
        const chosen = selector.select(selectionInput(supergraph, selectionRank, alpha), request);
        if (chosen.length === 0) break;
        request = await crawl(Array.from(chosen, (c) => frontier.keyAt(c)));
      }
    }
    if (added.length > 0) {
      result = pageRank(supergraph.graph(), {
        ...rankOptions,
        start: warmStart ? extendStartVector(rank, supergraph.size, alpha) : undefined,
      });
      rank = result.rank;
    }
    await report({
      iteration: i,
      selected,
      fetched: added.length,
      crawled: supergraph.size - supergraph.localCount,
      frontier: supergraph.frontierSize,
      pageRankIterations: added.length > 0 ? result.iterations : 0,
      ms: performance.now() - started,
    });
  }
  return { estimate, records, supergraph, rank, fingerprint: graphFingerprint(supergraph.graph()), selectorState: savedState(selector) };
}
