/**
 * FindGlobalPR's page source on the live web: frontier pages (keyed by URL) are taken from the
 * store when already crawled, otherwise fetched politely and stored as global pages (their links
 * only). Per-pay-level-domain budgets keep a link farm from taking the crawl: a page whose PLD
 * has used its budget is not fetched, and FindGlobalPR drops it from the frontier.
 */
import type { FetchedPage } from '../indexer/estimation/supergraph.ts';
import type { PageSource } from '../indexer/estimation/find-global-pagerank.ts';
import type { CrawlStore, PageRecord, StoredLink } from '../indexer/store/crawl-store.ts';
import { fetchAndRecord, type BatchFetchDeps } from './batch-fetch.ts';
import type { CrawlDiagnosis } from './crawl-diagnosis.ts';
import { allocatePldBudgets, inDegreeRanking, payLevelDomain, pldGraphFromLinks } from './pay-level-domain.ts';

/** A page's links as FindGlobalPR sees them: followed links to http(s) URLs. */
export function followedLinkUrls(store: CrawlStore, links: readonly StoredLink[]): string[] {
  const out: string[] = [];
  for (const link of links) {
    if (link.nofollow) continue;
    const url = store.urlOf(link.to);
    if (url && /^https?:/.test(url)) out.push(url);
  }
  return out;
}

/** States whose links are known. */
export function hasLinks(page: PageRecord | undefined): boolean {
  return page !== undefined && (page.state === 'fetched' || page.state === 'not-modified' || page.state === 'redirect');
}

export interface PldBudgetSettings {
  topCount: number;
  topBudget: number;
  restBudget: number;
}

/**
 * Budgets per PLD from the PLD graph of everything stored so far, ranked by in-degree (distinct
 * linking PLDs, IRLbot's IN): the top `topCount` get `topBudget` pages, the rest `restBudget`.
 */
export class PldBudget {
  private readonly budgets = new Map<string, number>();
  private readonly used = new Map<string, number>();

  constructor(
    links: Iterable<readonly [string, string]>,
    private readonly settings: PldBudgetSettings,
  ) {
    const { plds, graph } = pldGraphFromLinks(links);
    const budgets = allocatePldBudgets(inDegreeRanking(graph), { topR: settings.topCount, topBudget: settings.topBudget, restBudget: settings.restBudget });
    plds.forEach((pld, i) => this.budgets.set(pld, budgets[i]));
  }

  /** Takes one page of the URL's PLD from its budget; false when the budget is used up. */
  take(url: string): boolean {
    const pld = payLevelDomain(new URL(url).hostname);
    const budget = this.budgets.get(pld) ?? this.settings.restBudget;
    const used = this.used.get(pld) ?? 0;
    if (used >= budget) return false;
    this.used.set(pld, used + 1);
    return true;
  }
}

export interface CrawledPageSourceOptions {
  concurrency: number;
  /** Per-PLD budgets; without one every chosen page is fetched. */
  budget?: PldBudget;
  /** Collects why pages were not stored, per host (DNS, refused, robots…). */
  diagnosis?: CrawlDiagnosis;
}

export class CrawledPageSource implements PageSource<string> {
  /** URLs not fetched because their PLD used its budget. */
  overBudget = 0;

  constructor(
    private readonly deps: BatchFetchDeps,
    private readonly options: CrawledPageSourceOptions,
  ) {}

  /**
   * The pages in the order of `keys` (stored ones and fetched ones alike), so F numbers them
   * as the selector ranked them whatever the store already held.
   */
  async fetchPages(keys: readonly string[], signal?: AbortSignal): Promise<ReadonlyArray<FetchedPage<string>>> {
    const { store } = this.deps;
    const found = new Map<string, FetchedPage<string>>();
    const toFetch: string[] = [];
    // One read for the known pages of the batch, not one per URL.
    const ids = keys.map((url) => store.idOf(url));
    const known = ids.filter((id): id is number => id !== undefined);
    const pages = await store.getPages(known);
    const records = new Map(known.map((id, i) => [id, pages[i]]));
    for (const [k, url] of keys.entries()) {
      const id = ids[k];
      const page = id === undefined ? undefined : records.get(id);
      if (id !== undefined && hasLinks(page)) {
        found.set(url, { key: url, links: followedLinkUrls(store, await store.getLinks(id)) });
      } else if (page === undefined) {
        if (!this.options.budget || this.options.budget.take(url)) toFetch.push(url);
        else this.overBudget++;
      }
      // A stored page without links (error, disallowed, not HTML) cannot join F.
    }
    const recorded = await fetchAndRecord(this.deps, toFetch, { concurrency: this.options.concurrency, signal, diagnosis: this.options.diagnosis });
    for (const url of toFetch) {
      const result = recorded.get(url);
      if (!result || !(result.state === 'fetched' || result.state === 'not-modified' || result.state === 'redirect')) continue;
      found.set(url, { key: url, links: result.links.filter((l) => l.follow).map((l) => l.url) });
    }
    return keys.flatMap((url) => found.get(url) ?? []);
  }
}
