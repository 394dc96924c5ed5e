/**
 * An estimation round on the live crawl: FindGlobalPR over the stored local domain,
 * crawling the chosen frontier pages as global pages, recording every iteration in the store,
 * and writing the new estimate (and the local PageRank) as new rank versions at the end.
 */
import type { Settings } from '../../config/schema.ts';
import { CrawlRecorder } from '../../crawler/crawl-recorder.ts';
import { CrawledPageSource, followedLinkUrls, PldBudget } from '../../crawler/crawled-page-source.ts';
import type { Scope } from '../../crawler/scope.ts';
import { extraPageCount, parseExtraPages } from '../../indexer/estimation/experiment.ts';
import { findGlobalPageRank } from '../../indexer/estimation/find-global-pagerank.ts';
import { createSelector } from '../../indexer/estimation/selectors.ts';
import { isEstimatorName, isMethodName, resolveMethod } from '../../indexer/estimation/estimators.ts';
import type { FetchedPage } from '../../indexer/estimation/supergraph.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import type { CrawlStack } from '../cli/crawl-setup.ts';
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
  extraPages: number;
  startedAt: number;
  finishedAt?: number;
  error?: string;
  /** The rank version written at the end. */
  version?: number;
}

export interface LocalDomain {
  /** Store ids and URLs of the local pages with known links, in id order. */
  ids: Int32Array;
  pages: Array<FetchedPage<string>>;
}

/**
 * The local domain as FindGlobalPR's L: stored local pages whose links are known, or exactly the
 * pages `only` (a resumed round keeps the L it started with).
 */
export async function loadLocalDomain(store: CrawlStore, only?: readonly number[]): Promise<LocalDomain> {
  const ids: number[] = [];
  const pages: Array<FetchedPage<string>> = [];
  if (only) {
    for (const id of only) {
      ids.push(id);
      pages.push({ key: store.urlOf(id)!, links: followedLinkUrls(store, await store.getLinks(id)) });
    }
    return { ids: Int32Array.from(ids), pages };
  }
  const linksOf = new Map<number, string[]>();
  for await (const [id, links] of store.allLinks()) linksOf.set(id, followedLinkUrls(store, links));
  for await (const [id, page] of store.pages()) {
    if (page.role !== 'local' || !(page.state === 'fetched' || page.state === 'not-modified')) continue;
    ids.push(id);
    pages.push({ key: page.url, links: linksOf.get(id) ?? [] });
  }
  return { ids: Int32Array.from(ids), pages };
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
}

export interface RoundHooks {
  signal?: AbortSignal;
  onProgress?: (status: RoundStatus) => void;
}

/** L1 distance to the truth on the pages whose truth is known, both renormalised there. */
export function l1ToTruth(estimate: Float64Array, truth: Float64Array): number {
  const known: number[] = [];
  truth.forEach((value, i) => {
    if (!Number.isNaN(value)) known.push(i);
  });
  return l1Distance(restrictAndNormalise(estimate, known), restrictAndNormalise(truth, known));
}

const iterationKey = (id: string, iteration: number) => `${id}/iteration/${String(iteration).padStart(5, '0')}`;
const localKey = (id: string) => `${id}/local`;

/** Is this job key a round's own record (not one of its per-iteration records)? */
export function isRoundKey(key: string): boolean {
  return key.startsWith('round-') && !key.includes('/');
}

/** Starts a new round. */
export async function runEstimationRound(context: RoundContext, id: string, parameters: RoundParameters, hooks: RoundHooks = {}): Promise<RoundStatus> {
  const domain = await loadLocalDomain(context.store);
  await context.store.batch().putJob(localKey(id), { ids: Array.from(domain.ids) }).commit();
  return executeRound(context, id, parameters, domain, [], undefined, hooks);
}

/**
 * Resumes a round that a crash or a kill interrupted: the same L, the recorded iterations
 * replayed from the store (no page is crawled twice), then on to the end.
 */
export async function resumeEstimationRound(context: RoundContext, id: string, hooks: RoundHooks = {}): Promise<RoundStatus> {
  const { store } = context;
  const saved = await store.getJob<RoundStatus & { parameters: RoundParameters }>(id);
  if (!saved?.parameters) throw new RoundNotResumableError(id);
  const local = await store.getJob<{ ids: number[] }>(localKey(id));
  // Queued but never started: start it now.
  if (!local) return runEstimationRound(context, id, saved.parameters, hooks);
  const replay: string[][] = [];
  // Every iteration recorded, even past the saved status (a kill during an earlier resume).
  for (let i = 1; i <= saved.iterations; i++) {
    const record = await store.getJob<{ selected: string[] }>(iterationKey(id, i));
    if (!record) break;
    replay.push(record.selected);
  }
  const domain = await loadLocalDomain(store, local.ids);
  return executeRound(context, id, saved.parameters, domain, replay, saved.startedAt, hooks);
}

async function executeRound(
  context: RoundContext,
  id: string,
  parameters: RoundParameters,
  domain: LocalDomain,
  replay: string[][],
  startedAt: number | undefined,
  hooks: RoundHooks,
): Promise<RoundStatus> {
  const { store, stack, settings, scope } = context;
  const n = domain.pages.length;
  const iterations = parameters.iterations;
  const extraPages =
    parameters.pagesPerIteration !== undefined
      ? parameters.pagesPerIteration * iterations
      : extraPageCount(parseExtraPages(parameters.extra ?? settings.estimation.extra), n);
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
    startedAt: startedAt ?? Date.now(),
  };
  const record = () => ({ kind: 'estimation-round', parameters, ...status });
  const save = async (selected?: string[]) => {
    const batch = store.batch().putJob(id, record());
    if (selected) batch.putJob(iterationKey(id, status.iteration), { selected });
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
    const recorder = new CrawlRecorder(store, { urlRules: stack.rules, roleOf: roundRoleOf(context.domain ?? urlDomain(scope)) });
    const source = new CrawledPageSource(
      { store, pageFetcher: stack.pageFetcher, robots: stack.robots, gate: stack.gate, recorder },
      {
        concurrency: settings.crawler.concurrency,
        budget: new PldBudget(links, { topCount: settings.crawler.pldTopCount, topBudget: settings.crawler.pldBudgetTop, restBudget: settings.crawler.pldBudgetRest }),
      },
    );
    const truth = context.truthOf?.(domain.pages.map((p) => p.key));
    let previous: Float64Array | undefined;
    let local: Float64Array | undefined;
    const result = await findGlobalPageRank({
      localPages: domain.pages,
      source,
      selector: createSelector(method.selector, { seed: settings.estimation.seed }),
      estimator: method.estimator,
      iterations,
      extraPages,
      pageRank: { alpha: settings.estimation.alpha, tolerance: settings.estimation.tolerance },
      signal: hooks.signal,
      replay,
      onIteration: async ({ record: it, estimate }) => {
        local ??= estimate;
        status.iteration = it.iteration;
        status.crawled = it.crawled;
        status.frontier = it.frontier;
        status.change = previous ? l1Distance(estimate, previous) : 0;
        if (truth) status.l1ToTruth = l1ToTruth(estimate, truth);
        status.history.push({ iteration: it.iteration, crawled: it.crawled, change: status.change, l1ToTruth: status.l1ToTruth, ms: Math.round(it.ms) });
        previous = estimate;
        await save(it.iteration > 0 ? it.selected : undefined);
      },
    });
    const version = ((await store.latestRanks('estimate'))?.version ?? 0) + 1;
    status.state = 'done';
    status.finishedAt = Date.now();
    status.version = version;
    // The new estimate, the local PageRank it started from, and the round's end: one commit.
    await store
      .batch()
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
