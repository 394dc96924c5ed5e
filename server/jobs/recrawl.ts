/**
 * A re-crawl cycle: revisit local pages chosen by estimated change rate (visits
 * ∝ √λ̂), with conditional GETs; record what changed; queue newly linked in-scope pages for the
 * next crawl. Returns which pages the text index must update or drop.
 *
 * On a URL-scoped data directory the scope decides roles, as in the crawl. On a topic-crawled
 * one (see local-domain.ts) a revisited page keeps its stored role (local; a page that moved
 * takes it along to where it redirects), and the pages it links to for the first time are
 * queued the way the topic crawl queues links of a page in the topic (hot, within the remembered
 * URL scope if any): the next crawl fetches them and judges them by the topic. Without a
 * remembered scope or topic, new pages cannot be classified: they are not queued (they count as
 * global) and the result says why.
 */
import { fetchAndRecord } from '../../crawler/batch-fetch.ts';
import { CrawlDiagnosis, type HostDiagnosis } from '../../crawler/crawl-diagnosis.ts';
import { CrawlRecorder } from '../../crawler/crawl-recorder.ts';
import { planRevisits, type RevisitPolicy } from '../../crawler/revisit-policy.ts';
import type { Scope } from '../../crawler/scope.ts';
import { discoverFromSitemaps, type SitemapBudget, type SitemapDiscovery, type SitemapReport } from '../../crawler/sitemap-discovery.ts';
import type { CrawlStore, PageRecord, WriteBatch } from '../../indexer/store/crawl-store.ts';
import { recrawlSettingsSchema, type RecrawlSettings } from '../../config/schema.ts';
import { normalizeUrl } from '../../crawler/url.ts';
import type { CrawlStack } from '../cli/crawl-setup.ts';
import { urlDomain, type DataDirDomain } from './local-domain.ts';
import { failedVisitPolicy, isFailedPage, isIndexedState, retryDueAt } from './page-failures.ts';

export interface RecrawlParameters {
  /** Visits this cycle. */
  budget: number;
  policy?: RevisitPolicy;
}

export interface RecrawlResult {
  visited: number;
  changed: number;
  unchanged: number;
  gone: number;
  errors: number;
  /** In-scope URLs seen for the first time, now in the frontier. */
  newPages: number;
  /** URLs seen for the first time that could not be classified (no scope or topic remembered): not queued. */
  unclassified?: number;
  /** Why something was left out, for the log and the admin API. */
  notes?: string[];
  /** Pages visited first because their sitemap `<lastmod>` is newer than their last visit. */
  sitemapNewer?: number;
  /** What the sitemaps gave, when they were read. */
  sitemaps?: SitemapReport;
  /** Why visits stored nothing, per host and cause, with what to do. */
  diagnosis?: HostDiagnosis[];
  /** Indexed pages whose visit failed, kept in the index until a later failure confirms it (page-failures.ts). */
  failing?: number;
  /** Pages out of the index (gone or failed) checked again, and those of them that came back. */
  rechecked?: number;
  restored?: number;
  /** Pages whose indexed content must be refreshed, and pages that must leave the index. */
  updatedIds: number[];
  removedIds: number[];
}

const CREDIT_KEY = 'revisit-credit';

export async function runRecrawl(
  context: {
    store: CrawlStore;
    stack: CrawlStack;
    scope: Scope;
    /** How the data directory decides local pages (default: by `scope`). */
    domain?: DataDirDomain;
    concurrency: number;
    now?: () => number;
    /** Where notes go (what was left out and why). */
    log?: (message: string) => void;
    /** Read the sitemaps of the local pages' origins (and `named` ones) first. */
    sitemaps?: { named?: readonly string[]; budget?: Partial<SitemapBudget> };
    /** Seeds: a failed one is checked again at once. */
    seeds?: readonly string[];
    /** When failed pages leave the index and are checked again (default: the schema's). */
    recrawl?: RecrawlSettings;
  },
  parameters: RecrawlParameters,
  signal?: AbortSignal,
): Promise<RecrawlResult> {
  const { store, stack } = context;
  const domain = context.domain ?? urlDomain(context.scope);
  // URL-scoped: the scope decides. Topic or stored roles: where the crawler may go.
  const scope = domain.scope;
  const byScope = domain.kind === 'url';
  const credit = (await store.getMeta<Record<string, number>>(CREDIT_KEY)) ?? {};
  const candidates = [];
  const inFrontier = new Set<number>();
  for await (const [id] of store.frontier()) inFrontier.add(id);
  const revisitable = new Map<number, PageRecord>();
  const settings = context.recrawl ?? recrawlSettingsSchema.parse({});
  const now = (context.now ?? Date.now)();
  // Pages whose failures call for a visit, with when; failed pages a seed names go first.
  const due: Array<{ id: number; at: number }> = [];
  const failed = new Set<number>();
  const seedIds = new Set((context.seeds ?? []).flatMap((seed) => {
    const check = normalizeUrl(seed, stack.rules);
    const id = check.ok ? store.idOf(check.url) : undefined;
    return id === undefined ? [] : [id];
  }));
  for await (const [id, page] of store.pages()) {
    if (isFailedPage(page)) failed.add(id);
    const dueAt = page.role === 'local' ? retryDueAt(page, settings) : undefined;
    if (dueAt !== undefined && (dueAt <= now || (failed.has(id) && seedIds.has(id)))) due.push({ id, at: seedIds.has(id) ? -Infinity : dueAt });
    // Imported pages are the site's to push again, not the crawler's to fetch.
    if (page.role === 'local' && isIndexedState(page) && page.imported !== true) {
      const intervalDays = page.visits > 1 && page.firstFetchedAt !== undefined ? (page.fetchedAt - page.firstFetchedAt) / (page.visits - 1) / 86_400_000 : undefined;
      candidates.push({ id, visits: page.visits, changes: page.changes, intervalDays, credit: credit[id] ?? 0 });
      revisitable.set(id, page);
    }
  }
  const frontier = store.batch();
  const fromSitemaps = context.sitemaps && byScope ? await readSitemaps(context, revisitable, inFrontier, frontier, now, signal, failed) : undefined;
  const plan = planRevisits(candidates, parameters.budget, parameters.policy ?? 'sqrt-rate');
  // First the pages a sitemap says changed since their last visit (newest first) and the failed
  // pages a sitemap lists or a seed names; then failed pages due for a check (at most half the
  // budget, longest due first); then the plan.
  due.sort((a, b) => a.at - b.at || a.id - b.id);
  const relisted = new Set(fromSitemaps?.relisted ?? []);
  for (const { id, at } of due) if (at === -Infinity) relisted.add(id);
  const first = fromSitemaps?.newer ?? [];
  const backoff = due.filter(({ id }) => !relisted.has(id)).slice(0, Math.ceil(parameters.budget / 2)).map(({ id }) => id);
  const visit = [...new Set([...first, ...relisted, ...backoff, ...plan.visit])].slice(0, parameters.budget);
  const urls = visit.map((id) => store.urlOf(id)!);
  // Only local pages are revisited: without a URL scope, what they record (the page, the hops of
  // a redirect, where it moved) keeps their local role.
  const recorder = new CrawlRecorder(store, {
    urlRules: stack.rules,
    roleOf: byScope ? (url) => (scope.isLocal(url) ? 'local' : 'global') : () => 'local',
    sendsCredentialsTo: (url) => stack.fetcher.sendsCredentialsTo(url),
    failedVisit: failedVisitPolicy(settings),
  });
  const diagnosis = new CrawlDiagnosis(context.log);
  const recorded = await fetchAndRecord({ store, pageFetcher: stack.pageFetcher, robots: stack.robots, gate: stack.gate, recorder }, urls, {
    diagnosis,
    concurrency: context.concurrency,
    signal,
    role: 'local',
    conditional: true,
    mayFollow: (url) => (scope.isLocal(url) ? true : 'out-of-scope'),
    now: context.now,
    sitemapAlternatesOf: (url) => fromSitemaps?.alternates.get(url),
  });
  const result: RecrawlResult = { visited: 0, changed: 0, unchanged: 0, gone: 0, errors: 0, newPages: fromSitemaps?.queued ?? 0, updatedIds: [], removedIds: [] };
  const causes = diagnosis.report();
  if (causes.length > 0) result.diagnosis = causes;
  if (fromSitemaps) {
    result.sitemapNewer = first.length;
    result.sitemaps = fromSitemaps.report;
  }
  const linked: Array<{ id: number; referrer: number }> = [];
  // Topic crawls queue every followed link of a page in the topic as hot (Cho's hot queue).
  const hot = domain.kind === 'topic' ? true : undefined;
  for (const [index, url] of urls.entries()) {
    const outcome = recorded.get(url);
    if (!outcome) continue;
    const id = visit[index];
    result.visited++;
    if (failed.has(id)) {
      result.rechecked = (result.rechecked ?? 0) + 1;
      if (outcome.state === 'fetched' || outcome.state === 'not-modified') result.restored = (result.restored ?? 0) + 1;
    }
    if (outcome.kept) {
      // Failed, but not yet on enough visits far enough apart: the page stays in the index.
      result.failing = (result.failing ?? 0) + 1;
      if (outcome.state === 'gone') result.gone++;
      else result.errors++;
    } else if (outcome.state === 'not-modified') {
      result.unchanged++;
      if (failed.has(id)) result.updatedIds.push(id);
    } else if (outcome.state === 'fetched') {
      if (outcome.changed) result.changed++;
      else result.unchanged++;
      result.updatedIds.push(outcome.contentId);
      if (outcome.contentId !== id) result.removedIds.push(id);
    } else if (outcome.state === 'gone') {
      result.gone++;
      result.removedIds.push(id);
    } else {
      result.errors++;
      if (outcome.state === 'redirect' || outcome.state === 'disallowed') result.removedIds.push(id);
    }
    for (const link of outcome.links) {
      if (link.follow && scope.isLocal(link.url) && !inFrontier.has(link.id)) linked.push({ id: link.id, referrer: id });
    }
  }
  // New pages: linked in scope, neither stored nor queued (one read for all of them).
  const stored = await store.getPages(linked.map((l) => l.id));
  let unclassified = 0;
  linked.forEach(({ id, referrer }, i) => {
    if (stored[i] !== undefined || inFrontier.has(id)) return;
    inFrontier.add(id);
    if (domain.kind === 'stored') {
      unclassified++;
      return;
    }
    frontier.addToFrontier(id, { depth: 1, discoveredAt: now, role: 'local', referrer, hot });
    result.newPages++;
  });
  if (unclassified > 0) {
    const note =
      `${unclassified} newly linked page${unclassified === 1 ? ' was' : 's were'} not queued and count as global: ` +
      'the data directory remembers neither a URL scope nor a topic to classify new pages (crawl it with lse crawl --scope … or --topic …)';
    result.unclassified = unclassified;
    result.notes = [note];
    context.log?.(note);
  }
  // A page visited ahead of the plan pays its visit like the planned ones.
  for (const id of first) if (plan.credit.has(id) && !plan.visit.includes(id)) plan.credit.set(id, plan.credit.get(id)! - 1);
  frontier.putMeta(CREDIT_KEY, Object.fromEntries([...plan.credit].map(([id, c]) => [id, Math.round(c * 1e6) / 1e6])));
  await frontier.commit();
  return result;
}

/**
 * Reads the sitemaps of the revisitable pages' origins: stores each listed page's `<lastmod>`,
 * names the pages it says changed since their last visit (newest first), and queues listed
 * in-scope pages neither stored nor queued.
 */
async function readSitemaps(
  context: { store: CrawlStore; stack: CrawlStack; scope: Scope; sitemaps?: { named?: readonly string[]; budget?: Partial<SitemapBudget> }; log?: (message: string) => void },
  revisitable: ReadonlyMap<number, PageRecord>,
  inFrontier: Set<number>,
  frontier: WriteBatch,
  now: number,
  signal: AbortSignal | undefined,
  failed: ReadonlySet<number>,
): Promise<{ newer: number[]; queued: number; relisted: number[]; report: SitemapReport; alternates: SitemapDiscovery['alternates'] }> {
  const { store, stack } = context;
  const origins = new Set<string>();
  for (const page of revisitable.values()) origins.add(new URL(page.url).origin);
  const found = await discoverFromSitemaps(
    { fetcher: stack.fetcher, robots: stack.robots, gate: stack.gate, urlRules: stack.rules },
    { origins: [...origins], named: context.sitemaps?.named, budget: context.sitemaps?.budget, inScope: (url) => context.scope.isLocal(url), signal, log: context.log },
  );
  const newer: Array<{ id: number; lastmod: number }> = [];
  const unknown: number[] = [];
  // Failed pages the sitemap still lists: checked again at once.
  const relisted: number[] = [];
  for (const [url, lastmod] of found.pages) {
    const id = store.idOf(url) ?? frontier.idFor(url);
    const page = revisitable.get(id);
    if (!page) {
      if (failed.has(id)) relisted.push(id);
      else if (!inFrontier.has(id)) unknown.push(id);
      continue;
    }
    if (lastmod === undefined) continue;
    if (page.sitemapLastmod !== lastmod) frontier.putPage(id, { ...page, sitemapLastmod: lastmod });
    if (lastmod > page.fetchedAt && lastmod <= now) newer.push({ id, lastmod });
  }
  // Queued only when not stored at all (a page stored as global or failed stays as it is).
  const stored = await store.getPages(unknown);
  let queued = 0;
  unknown.forEach((id, i) => {
    if (stored[i] !== undefined) return;
    inFrontier.add(id);
    frontier.addToFrontier(id, { depth: 1, discoveredAt: now, role: 'local' });
    queued++;
  });
  // The visits read the stored lastmod (the change-rate estimate counts it): commit before them.
  await frontier.commit();
  newer.sort((a, b) => b.lastmod - a.lastmod || a.id - b.id);
  return { newer: newer.map((n) => n.id), queued, relisted, report: found.report, alternates: found.alternates };
}
