/**
 * A real served data directory for admin-page tests: the demo web on loopback without latency,
 * a few hundred pages of its university site crawled and indexed, served with the admin API, a
 * token, the demo web's true global PageRank (so rounds report their error) and two schedules.
 * No estimation round has run yet: the page under test starts one.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../../config/load-settings.ts';
import { DEMO_LOCAL_HOST, DEMO_SEED_URL, generateDemoWeb } from '../../crawler/demo-web/generate.ts';
import { demoWebResolvePins, startDemoWebServer } from '../../crawler/demo-web/server.ts';
import { parseScope } from '../../crawler/scope.ts';
import { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { createCrawlStack, rememberCrawlerSettings } from '../../server/cli/crawl-setup.ts';
import { demoTruth } from '../../server/cli/demo-command.ts';
import { buildIndex, serveStore, type Serving } from '../../server/cli/serve-command.ts';

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

export async function buildAdminSite(options: AdminSiteOptions = {}): Promise<AdminSite> {
  const web = generateDemoWeb();
  const demoServer = await startDemoWebServer(web, { latencyScale: 0, logRequests: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-admin-site-'));
  const settings = loadSettings({
    env: {},
    overrides: {
      dataDir,
      crawler: {
        seeds: [DEMO_SEED_URL],
        scope: [`host:${DEMO_LOCAL_HOST}`],
        // The demo web is ours, on loopback: allow it and map every host to it.
        resolve: demoWebResolvePins(demoServer.port),
        allowPrivateNetworks: true,
        // Our own server: no politeness delay, several requests at once.
        delaySeconds: 0,
        perHostConcurrency: 4,
        concurrency: 8,
        maxPages: options.pages ?? 350,
      },
      server: { siteName: 'Northfield University', ...(options.adminRateLimitPerMinute ? { adminRateLimitPerMinute: options.adminRateLimitPerMinute } : {}) },
      // Far-off firings: the page shows them and runs them on demand; they never fire during a test.
      schedules: { recrawl: '0 3 * * *', estimate: '30 4 * * 0', recrawlBudget: 60 },
    },
  });
  const store = await CrawlStore.open(dataDir);
  const stack = createCrawlStack(store, settings.crawler);
  let serving: Serving | undefined;
  let index: Awaited<ReturnType<typeof buildIndex>>['index'] | undefined;
  const close = async () => {
    // Serving closes the index it was given; before it exists, the index is closed here.
    if (serving) await serving.close();
    else await index?.close();
    await stack.close();
    await store.close();
    await demoServer.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await rememberCrawlerSettings(store, settings.crawler);
    await stack.crawler.crawl({
      seeds: settings.crawler.seeds,
      scope: parseScope(settings.crawler.scope),
      ordering: 'bfs',
      maxPages: settings.crawler.maxPages,
      maxDepth: 50,
      hostPageBudget: settings.crawler.maxPages,
      concurrency: settings.crawler.concurrency,
    });
    index = (await buildIndex(store, settings)).index;
    serving = await serveStore(store, settings, {
      listen: { host: '127.0.0.1', port: 0 },
      adminToken: ADMIN_SITE_TOKEN,
      truthOf: demoTruth(web),
      index,
      stack,
    });
    return { url: serving.url, token: ADMIN_SITE_TOKEN, close };
  } catch (error) {
    await close();
    throw error;
  }
}
