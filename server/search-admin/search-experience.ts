/**
 * Opens what the search experience keeps in the data directory (analytics, best bets and
 * synonyms, removed URLs) and gives the app its parts: the analytics for /api/search and
 * /api/click, the admin routes.
 */
import type { FastifyInstance } from 'fastify';
import type { Settings } from '../../config/schema.ts';
import type { SearchEngine } from '../../indexer/ranking/search-engine.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import type { TextIndex } from '../../indexer/text-index/text-index.ts';
import { searchAdminRoutes } from '../routes/search-admin-routes.ts';
import { SearchAnalytics } from './analytics.ts';
import { SearchControl } from './search-control.ts';

export interface SearchExperience {
  analytics: SearchAnalytics;
  control: SearchControl;
  /** For buildApp's `analytics` option. */
  appAnalytics: { store: SearchAnalytics; engine: SearchEngine };
  /** For buildApp's `plugins`. */
  adminPlugin: (app: FastifyInstance) => Promise<void>;
}

export interface SearchExperienceOptions {
  dataDir: string;
  store: CrawlStore;
  index: TextIndex;
  engine: SearchEngine;
  token: string;
  search: Settings['search'];
  adminRateLimitPerMinute: number;
  /** The clock of the analytics (tests). */
  now?: () => number;
}

export async function openSearchExperience(options: SearchExperienceOptions): Promise<SearchExperience> {
  const { dataDir, store, index, engine, token, search } = options;
  const analytics = await SearchAnalytics.open(dataDir, { retentionDays: search.analyticsRetentionDays, maxRecordsPerDay: search.analyticsMaxRecordsPerDay, now: options.now });
  const control = await SearchControl.open(dataDir, { synonyms: search.synonyms, bestBets: search.bestBets }, engine);
  return {
    analytics,
    control,
    appAnalytics: { store: analytics, engine },
    adminPlugin: searchAdminRoutes({ token, store, index, engine, control, analytics, rateLimitPerMinute: options.adminRateLimitPerMinute }),
  };
}
