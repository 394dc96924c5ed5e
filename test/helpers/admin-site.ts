/**
 * A real served data directory for admin-page tests: the demo web on loopback without latency,
 * a few hundred pages of its university site crawled and indexed, served with the admin API, a
 * token, the demo web's true global PageRank (so rounds report their error) and two schedules.
 * No estimation round has run yet: the page under test starts one.
 */
import { demoTruth } from '../../server/cli/demo-command.ts';
import { serveStore, type Serving } from '../../server/cli/serve-command.ts';
import { buildDemoDataDir } from './demo-data-dir.ts';
import { farOffSchedules } from './far-off-schedules.ts';

export interface AdminSite {
  /** `http://127.0.0.1:PORT`: the search page at /, the admin page at /admin. */
  url: string;
  /** The admin API's bearer token. */
  token: string;
  close(): Promise<void>;
}

export interface AdminSiteOptions {
  /** Local pages to crawl (default 350). */
  pages?: number;
  /** Admin API requests per minute per client and route (default: the settings' default). */
  adminRateLimitPerMinute?: number;
}

export const ADMIN_SITE_TOKEN = 'admin-page-test-token-0123456789';
/** The site's two schedules: the page shows them and runs them on demand; they never fire during a test. */
export const ADMIN_SITE_SCHEDULES = farOffSchedules();

export async function buildAdminSite(options: AdminSiteOptions = {}): Promise<AdminSite> {
  const data = await buildDemoDataDir({
    pages: options.pages ?? 350,
    settings: {
      server: { siteName: 'Northfield University', ...(options.adminRateLimitPerMinute ? { adminRateLimitPerMinute: options.adminRateLimitPerMinute } : {}) },
      schedules: { ...ADMIN_SITE_SCHEDULES, recrawlBudget: 60 },
    },
  });
  let serving: Serving | undefined;
  const close = async () => {
    // Serving closes the index it was given.
    if (serving) await serving.close();
    await data.close({ keepIndex: serving !== undefined });
  };
  try {
    serving = await serveStore(data.store, data.settings, {
      listen: { host: '127.0.0.1', port: 0 },
      adminToken: ADMIN_SITE_TOKEN,
      truthOf: demoTruth(data.web),
      index: data.index,
      stack: data.stack,
    });
    return { url: serving.url, token: ADMIN_SITE_TOKEN, close };
  } catch (error) {
    await close();
    throw error;
  }
}
