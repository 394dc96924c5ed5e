/**
 * What the search page says about the site (GET /api/info): its placeholder and example queries
 * from the settings, else examples from the site's own popular queries that found pages, else
 * none; and how many pages outside the site the ranking has seen, so the page never claims an
 * estimate it does not have.
 */
import type { Settings } from '../../config/schema.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { SUPERGRAPH_RANKS } from '../jobs/round-start.ts';
import type { SearchAnalytics } from './analytics.ts';

/** Examples offered: at most this many, from the last this many days of searches. */
const EXAMPLE_COUNT = 4;
const EXAMPLE_DAYS = 30;

export interface SiteWords {
  placeholder?: string;
  examples: string[];
  /** Where the examples come from: the settings, the site's popular queries, or nowhere. */
  examplesFrom: 'settings' | 'popular' | 'none';
  /** Pages outside the site fetched by estimation rounds (0: the ranking uses the site's own links). */
  outsidePages: number;
}

export class SiteWordsSource {
  private outsidePages = 0;

  constructor(
    private readonly server: Settings['server'],
    private readonly store: CrawlStore,
    private readonly analytics: SearchAnalytics | undefined,
  ) {}

  /**
   * The pages outside the site in the newest round's graph (at start and after each job): read
   * from that round's stored supergraph ranks, not from a pass over every stored page.
   */
  async refresh(): Promise<void> {
    const supergraph = await this.store.latestRanks(SUPERGRAPH_RANKS);
    const localCount = supergraph?.info?.localCount;
    this.outsidePages = supergraph && typeof localCount === 'number' ? Math.max(0, supergraph.ids.length - localCount) : 0;
  }

  words(): SiteWords {
    const configured = this.server.exampleQueries;
    const popular = configured === undefined ? (this.analytics?.popularQueries(EXAMPLE_DAYS, EXAMPLE_COUNT) ?? []) : [];
    const examples = configured ?? popular;
    return {
      ...(this.server.searchPlaceholder ? { placeholder: this.server.searchPlaceholder } : {}),
      examples,
      examplesFrom: configured !== undefined ? 'settings' : examples.length > 0 ? 'popular' : 'none',
      outsidePages: this.outsidePages,
    };
  }
}
