/**
 * An estimation round on the live crawl: FindGlobalPR over the stored local domain,
 * crawling the chosen frontier pages as global pages, recording every iteration in the store,
 * and writing the new estimate (and the local PageRank) as new rank versions at the end.
 */
import type { Settings } from '../../config/schema.ts';
import { CrawlRecorder } from '../../crawler/crawl-recorder.ts';
import { CrawledPageSource, PldBudget } from '../../crawler/crawled-page-source.ts';
import type { Scope } from '../../crawler/scope.ts';
import { extraPageCount, parseExtraPages } from '../../indexer/estimation/experiment.ts';
import { findGlobalPageRank, type NamedSelectorState } from '../../indexer/estimation/find-global-pagerank.ts';
import { createSelector } from '../../indexer/estimation/selectors.ts';
import { isEstimatorName, isMethodName, resolveMethod } from '../../indexer/estimation/estimators.ts';
import { Supergraph, type FetchedPage } from '../../indexer/estimation/supergraph.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import type { CrawlStack } from '../cli/crawl-setup.ts';
import type { BatchFetchDeps } from '../../crawler/batch-fetch.ts';
import { CrawlDiagnosis, type HostDiagnosis } from '../../crawler/crawl-diagnosis.ts';
import { revisitStaleGlobals, type RevisitOutcome } from './global-revisits.ts';
import { loadRoundStart, SUPERGRAPH_RANKS, type LocalDomain, type RoundStart } from './round-start.ts';
import { noLocalPagesMessage, roundRoleOf, urlDomain, type DataDirDomain } from './local-domain.ts';
import { NoLocalPagesError, RoundNotResumableError, UnknownRoundMethodError } from '../errors.ts';

export type RoundState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface RoundParameters {
  /** A selector, `best`, or `default` (by the kind of domain). */
  selector: string;
  /** The final estimate (default: the settings'); ignored by `best`. */
  estimator?: string;
  iterations: number;
  /** Total extra pages (`2n`, `500`), or pages per iteration. */
  extra?: string;
  pagesPerIteration?: number;
  /** Start from the local pages alone instead of the supergraph earlier rounds built. */
  fresh?: boolean;
  /** Per-pay-level-domain budgets on the pages fetched (default: the settings' `pldBudgets`). */
  budgets?: boolean;
}

export interface RoundStatus {
  id: string;
  state: RoundState;
  selector: string;
  iteration: number;
  iterations: number;
  /** Global pages added to F so far. */
  crawled: number;
  frontier: number;
  /** ‖f_i − f_{i−1}‖₁ on the local pages. */
  change: number;
  /** On the demo web, the L1 distance to the true global PageRank of the local pages. */
  l1ToTruth?: number;
  /** Per iteration, for charts. */
  history: Array<{ iteration: number; crawled: number; change: number; l1ToTruth?: number; ms: number }>;
  localPages: number;
  /** New pages this round may fetch (its budget). */
  extraPages: number;
  /** Global pages the round started with (from earlier rounds); 0 on a fresh round. */
  startPages?: number;
  /** The supergraph version (an earlier round's) it continued from. */
  continuedFrom?: number;
  /** Stale global pages revisited before the iterations, and how many of them left F (gone, failing). */
  revisited?: number;
  gone?: number;
  /** Started from the local pages alone. */
  fresh?: boolean;
  /** ‖f_r − f_{r−1}‖₁ on the local pages both rounds cover (renormalised there): the change since the last round's estimate. */
  roundChange?: number;
  startedAt: number;
  finishedAt?: number;
  error?: string;
  /** The rank version written at the end (none when the round fetched nothing: the previous ranks stay). */
  version?: number;
  /** Why pages outside the site were not stored, per host and cause (DNS, refused, robots…), with what to do. */
  diagnosis?: HostDiagnosis[];
  /** Pages the round asked for and could not store. */
  failedPages?: number;
  /** Why the round changed nothing, when it did not (no page fetched: the previous ranks are kept). */
  note?: string;
}

export type { LocalDomain } from './round-start.ts';

/** The local domain as FindGlobalPR's L: stored local pages whose links are known, in URL order. */
export async function loadLocalDomain(store: CrawlStore): Promise<LocalDomain> {
  return (await loadRoundStart(store, { fresh: true })).domain;
}

export interface RoundContext {
  store: CrawlStore;
  stack: CrawlStack;
  settings: Settings;
  scope: Scope;
  /**
   * How the data directory decides local pages (default: by `scope`). On a topic-crawled
   * directory L is the stored local pages and every page the round fetches is stored as global.
   */
  domain?: DataDirDomain;
  /** The true global PageRank of these URLs when known (the demo web); NaN where a URL is unknown. */
  truthOf?: (urls: readonly string[]) => Float64Array;
  /** The clock that ages global pages (default Date.now). */
  now?: () => number;
}

export interface RoundHooks {
  signal?: AbortSignal;
  onProgress?: (status: RoundStatus) => void;
}

function localPageRank(pages: ReadonlyArray<FetchedPage<string>>, settings: Settings): Float64Array {
  const graph = new Supergraph(pages).graph();
  return pageRank(graph, { alpha: settings.estimation.alpha, tolerance: settings.estimation.tolerance }).rank;
}

/** ‖f_r − f_{r−1}‖₁ over the pages both estimates cover, each renormalised there. */
export function estimateChange(previous: { ids: Int32Array; values: Float64Array }, ids: Int32Array, values: Float64Array): number {
  const before = new Map<number, number>();
  previous.ids.forEach((id, i) => before.set(id, previous.values[i]));
  const common: number[] = [];
  const old: number[] = [];
  ids.forEach((id, i) => {
    const value = before.get(id);
    if (value === undefined) return;
    common.push(i);
    old.push(value);
  });
  if (common.length === 0) return 0;
  const now = restrictAndNormalise(values, common);
  return l1Distance(now, restrictAndNormalise(Float64Array.from(old), Int32Array.from(old.keys())));
}

/** L1 distance to the truth on the pages whose truth is known, both renormalised there. */
export function l1ToTruth(estimate: Float64Array, truth: Float64Array): number {
  const known: number[] = [];
  truth.forEach((value, i) => {
    if (!Number.isNaN(value)) known.push(i);
  });
  return l1Distance(restrictAndNormalise(estimate, known), restrictAndNormalise(truth, known));
}

/** What a round records per iteration: the pages chosen, and the selector's state after it (Random's generator). */
type IterationJob = {
  selected: string[];
  selectorState?: NamedSelectorState;
};

const iterationKey = (id: string, iteration: number) => `${id}/iteration/${String(iteration).padStart(5, '0')}`;
const localKey = (id: string) => `${id}/local`;

/** Is this job key a round's own record (not one of its per-iteration records)? */
export function isRoundKey(key: string): boolean {
  return key.startsWith('round-') && !key.includes('/');
}

const DAY_MS = 86_400_000;
const NO_REVISITS: RevisitOutcome = { revisited: 0, gone: 0, staleLeft: 0 };

/** The pages a round may fetch: `pagesPerIteration × T`, or the `extra` count or multiple of n. */
function roundBudget(parameters: RoundParameters, settings: Settings, localPages: number): number {
  return parameters.pagesPerIteration !== undefined
    ? parameters.pagesPerIteration * parameters.iterations
    : extraPageCount(parseExtraPages(parameters.extra ?? settings.estimation.extra), localPages);
}

/** The crawler parts a round fetches through, storing what it fetches. */
function fetchDeps(context: RoundContext): BatchFetchDeps {
  const { store, stack, scope } = context;
  const recorder = new CrawlRecorder(store, { urlRules: stack.rules, roleOf: roundRoleOf(context.domain ?? urlDomain(scope)), sendsCredentialsTo: (url) => stack.fetcher.sendsCredentialsTo(url) });
  return { store, pageFetcher: stack.pageFetcher, robots: stack.robots, gate: stack.gate, recorder };
}

/**
 * Starts a new round: from the supergraph earlier rounds built (its stale global pages revisited
 * first, within `revisitShare` of the budget), or from L alone when `fresh`.
 */
export async function runEstimationRound(context: RoundContext, id: string, parameters: RoundParameters, hooks: RoundHooks = {}): Promise<RoundStatus> {
  const { store, settings } = context;
  const fresh = parameters.fresh ?? false;
  let start = await loadRoundStart(store, { fresh });
  let revisits = NO_REVISITS;
  if (start.from !== undefined) {
    const budget = Math.floor(settings.estimation.revisitShare * roundBudget(parameters, settings, start.domain.pages.length));
    const now = context.now?.() ?? Date.now();
    revisits = await revisitStaleGlobals(store, fetchDeps(context), { now, staleAfterMs: settings.estimation.revisitAfterDays * DAY_MS, budget, concurrency: settings.crawler.concurrency, signal: hooks.signal });
    if (revisits.revisited > 0) start = await loadRoundStart(store, { fresh });
  }
  // What the round needs to restart after a crash: its L, the supergraph version it began from, what it revisited.
  await store.batch().putJob(localKey(id), { ids: Array.from(start.domain.ids), from: start.from ?? null, revisits: { ...revisits } }).commit();
  return executeRound(context, id, parameters, start, revisits, { pages: [] }, undefined, hooks);
}

/**
 * Resumes a round that a crash or a kill interrupted: the same L and starting supergraph, the
 * recorded iterations replayed from the store (no page is crawled twice), then on to the end.
 */
export async function resumeEstimationRound(context: RoundContext, id: string, hooks: RoundHooks = {}): Promise<RoundStatus> {
  const { store } = context;
  const saved = await store.getJob<RoundStatus & { parameters: RoundParameters }>(id);
  if (!saved?.parameters) throw new RoundNotResumableError(id);
  const local = await store.getJob<{ ids: number[]; from?: number | null; revisits?: RevisitOutcome }>(localKey(id));
  // Queued but never started: start it now.
  if (!local) return runEstimationRound(context, id, saved.parameters, hooks);
  const replay: string[][] = [];
  let replayState: NamedSelectorState | undefined;
  // Every iteration recorded, even past the saved status (a kill during an earlier resume).
  for (let i = 1; i <= saved.iterations; i++) {
    const record = await store.getJob<IterationJob>(iterationKey(id, i));
    if (!record) break;
    replay.push(record.selected);
    replayState = record.selectorState;
  }
  const from = local.from ?? undefined;
  const start = await loadRoundStart(store, { fresh: from === undefined, localIds: local.ids, version: from });
  return executeRound(context, id, saved.parameters, start, local.revisits ?? NO_REVISITS, { pages: replay, state: replayState }, saved.startedAt, hooks);
}

/** Why a round that fetched nothing changed nothing, naming the main causes per host. */
function noFetchNote(status: RoundStatus): string {
  const causes = (status.diagnosis ?? []).slice(0, 3).map((host) => `${host.host}: ${host.causes.map((c) => `${c.what.split(/[,(:]/)[0].trim()} (${c.count})`).join(', ')}`);
  const why = causes.length > 0 ? ` Why: ${causes.join('; ')}${(status.diagnosis?.length ?? 0) > 3 ? `; and ${status.diagnosis!.length - 3} more hosts` : ''}.` : status.frontier === 0 ? ' The site links to no page outside it.' : '';
  if (causes.length === 0) {
    return `The round fetched no page outside the site (a budget of ${status.extraPages} pages over ${status.iterations} iterations, ${status.frontier} candidate pages), so the estimate did not change and the previous ranks are kept (no new rank version).${why}`;
  }
  return `No page outside the site could be fetched, so the estimate did not change and the previous ranks are kept (no new rank version).${why}`;
}

async function executeRound(
  context: RoundContext,
  id: string,
  parameters: RoundParameters,
  roundStart: RoundStart,
  revisits: RevisitOutcome,
  replay: { pages: string[][]; state?: NamedSelectorState },
  startedAt: number | undefined,
  hooks: RoundHooks,
): Promise<RoundStatus> {
  const { store, settings } = context;
  const { domain, start } = roundStart;
  const n = domain.pages.length;
  const iterations = parameters.iterations;
  // Revisits came out of the round's budget; the rest goes to new pages.
  const extraPages = Math.max(0, roundBudget(parameters, settings, n) - revisits.revisited);
  const status: RoundStatus = {
    id,
    state: 'running',
    selector: parameters.selector,
    iteration: 0,
    iterations,
    crawled: 0,
    frontier: 0,
    change: 0,
    history: [],
    localPages: n,
    extraPages,
    startPages: roundStart.globalIds.length,
    revisited: revisits.revisited,
    gone: revisits.gone,
    fresh: parameters.fresh ?? false,
    continuedFrom: roundStart.from,
    startedAt: startedAt ?? Date.now(),
  };
  const record = () => ({ kind: 'estimation-round', parameters, ...status });
  const save = async (iteration?: IterationJob) => {
    const batch = store.batch().putJob(id, record());
    if (iteration) batch.putJob(iterationKey(id, status.iteration), iteration);
    await batch.commit();
    hooks.onProgress?.(status);
  };
  await save();
  try {
    if (n === 0) throw new NoLocalPagesError(noLocalPagesMessage(context.domain));
    const estimatorName = parameters.estimator ?? settings.estimation.estimator;
    if (!isMethodName(parameters.selector)) throw new UnknownRoundMethodError('selector', parameters.selector);
    if (!isEstimatorName(estimatorName)) throw new UnknownRoundMethodError('estimator', estimatorName);
    // `default`: SC-Select on a site scope, `best` on a topic crawl (docs/estimation.md).
    const method = resolveMethod(parameters.selector, estimatorName, context.domain?.kind === 'topic' ? 'topic' : 'site');
    const links: Array<[string, string]> = [];
    for (const page of domain.pages) for (const to of Array.from(page.links)) links.push([page.key, to]);
    const diagnosis = new CrawlDiagnosis();
    const source = new CrawledPageSource(
      fetchDeps(context),
      {
        concurrency: settings.crawler.concurrency,
        diagnosis,
        budget: (parameters.budgets ?? settings.estimation.pldBudgets)
          ? new PldBudget(links, { topCount: settings.crawler.pldTopCount, topBudget: settings.crawler.pldBudgetTop, restBudget: settings.crawler.pldBudgetRest })
          : undefined,
      },
    );
    const truth = context.truthOf?.(domain.pages.map((p) => p.key));
    let previous: Float64Array | undefined;
    // The local PageRank (F = L): a continuing round's first estimate is not it.
    let local: Float64Array | undefined = start ? localPageRank(domain.pages, settings) : undefined;
    const result = await findGlobalPageRank({
      localPages: domain.pages,
      start,
      source,
      selector: createSelector(method.selector, { seed: settings.estimation.seed }),
      estimator: method.estimator,
      iterations,
      extraPages,
      pageRank: { alpha: settings.estimation.alpha, tolerance: settings.estimation.tolerance },
      signal: hooks.signal,
      replay: replay.pages,
      replayState: replay.state,
      onIteration: async ({ record: it, estimate, selectorState }) => {
        local ??= estimate;
        status.iteration = it.iteration;
        status.crawled = it.crawled;
        status.frontier = it.frontier;
        status.change = previous ? l1Distance(estimate, previous) : 0;
        if (truth) status.l1ToTruth = l1ToTruth(estimate, truth);
        status.history.push({ iteration: it.iteration, crawled: it.crawled, change: status.change, l1ToTruth: status.l1ToTruth, ms: Math.round(it.ms) });
        previous = estimate;
        const causes = diagnosis.report();
        if (causes.length > 0) {
          status.diagnosis = causes;
          status.failedPages = causes.reduce((sum, host) => sum + host.causes.reduce((n, c) => n + c.count, 0), 0);
        }
        await save(it.iteration > 0 ? { selected: it.selected, selectorState } : undefined);
      },
    });
    const fetchedNew = status.crawled - (status.startPages ?? 0);
    if (fetchedNew <= 0 && revisits.revisited === 0) {
      // Nothing outside the site was fetched: the estimate is what the ranks are already. No new
      // rank version; the search keeps the previous ranks, and the round says why.
      status.note = noFetchNote(status);
      status.state = 'done';
      status.finishedAt = Date.now();
      await save();
      return status;
    }
    const lastEstimate = await store.latestRanks('estimate');
    const version = (lastEstimate?.version ?? 0) + 1;
    if (lastEstimate) status.roundChange = estimateChange(lastEstimate, domain.ids, result.estimate);
    status.state = 'done';
    status.finishedAt = Date.now();
    status.version = version;
    const supergraphIds = Int32Array.from({ length: result.supergraph.size }, (_, i) => store.idOf(result.supergraph.keyOf(i))!);
    // The new estimate, the local PageRank it started from, the supergraph the next round
    // continues from, and the round's end: one commit.
    await store
      .batch()
      .putRanks({ name: SUPERGRAPH_RANKS, version, ids: supergraphIds, values: result.rank, info: { round: id, localCount: n, fingerprint: result.fingerprint, selectorState: result.selectorState } })
      .putRanks({ name: 'estimate', version, ids: domain.ids, values: result.estimate, info: { round: id, selector: parameters.selector, estimator: method.estimator, crawled: status.crawled } })
      .putRanks({ name: 'local', version, ids: domain.ids, values: local!, info: { round: id } })
      .putJob(id, record())
      .commit();
    hooks.onProgress?.(status);
    return status;
  } catch (error) {
    status.state = hooks.signal?.aborted ? 'cancelled' : 'failed';
    status.finishedAt = Date.now();
    if (!hooks.signal?.aborted) status.error = (error as Error).message;
    await save();
    return status;
  }
}
