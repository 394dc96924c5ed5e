/**
 * Freshness of the index under re-crawl policies, on the demo web, whose pages
 * change at known Poisson rates: after a full crawl, one re-crawl cycle per simulated day with
 * the same visit budget, revisiting ∝ √λ̂ (the project's policy) or uniformly. Freshness is the
 * share of crawled local pages whose stored copy is the page's current version, measured just
 * before each cycle, averaged over the days.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../config/load-settings.ts';
import { contentVersion, DAY_MS, DEFAULT_DEMO_EPOCH_MS, findDemoResource, generateDemoWeb, type DemoPage } from '../crawler/demo-web/generate.ts';
import { demoWebResolvePins, startDemoWebServer } from '../crawler/demo-web/server.ts';
import type { RevisitPolicy } from '../crawler/revisit-policy.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { runRecrawl } from '../server/jobs/recrawl.ts';
import type { BenchContext } from './run.ts';

interface FreshnessRun {
  policy: RevisitPolicy;
  pages: number;
  meanFreshness: number;
  finalFreshness: number;
  visits: number;
  changesSeen: number;
}

async function simulate(policy: RevisitPolicy, days: number, budget: number): Promise<FreshnessRun> {
  const web = generateDemoWeb();
  let now = DEFAULT_DEMO_EPOCH_MS + 30 * DAY_MS;
  const server = await startDemoWebServer(web, { latencyScale: 0, clock: () => now, logRequests: false });
  const dir = mkdtempSync(join(tmpdir(), 'lse-freshness-'));
  const store = await CrawlStore.open(dir);
  const settings = loadSettings({ env: {}, overrides: { crawler: { resolve: demoWebResolvePins(server.port), allowPrivateNetworks: true, delaySeconds: 0 } } });
  const stack = createCrawlStack(store, settings.crawler);
  const scope = parseScope(`host:${web.localHost}`);
  try {
    await stack.crawler.crawl({ seeds: [`http://${web.localHost}/`], scope, ordering: 'bfs', maxPages: 5000, maxDepth: 50, hostPageBudget: 5000, concurrency: 8, now: () => now });
    // The pages whose freshness we follow, and the simulated time of their last visit.
    const visitedAt = new Map<number, number>();
    const pageOf = new Map<number, DemoPage>();
    for await (const [id, page] of store.pages()) {
      const resource = findDemoResource(web, page.url);
      if (page.role === 'local' && page.state === 'fetched' && resource && 'change' in resource) {
        visitedAt.set(id, now);
        pageOf.set(id, resource);
      }
    }
    const freshness = () => {
      let fresh = 0;
      for (const [id, at] of visitedAt) if (contentVersion(pageOf.get(id)!, at).version === contentVersion(pageOf.get(id)!, now).version) fresh++;
      return fresh / visitedAt.size;
    };
    let sum = 0;
    let visits = 0;
    let changesSeen = 0;
    let last = 0;
    for (let day = 0; day < days; day++) {
      now += DAY_MS;
      last = freshness();
      sum += last;
      const result = await runRecrawl({ store, stack, scope, concurrency: 8, now: () => now }, { budget, policy });
      visits += result.visited;
      changesSeen += result.changed;
      for await (const [id, page] of store.pages()) if (page.fetchedAt === now && visitedAt.has(id)) visitedAt.set(id, now);
    }
    return { policy, pages: visitedAt.size, meanFreshness: sum / days, finalFreshness: last, visits, changesSeen };
  } finally {
    await stack.close();
    await store.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function freshnessBenchmarks(bench: BenchContext): Promise<void> {
  const days = 30;
  for (const budget of [40, 120]) {
    if (!bench.wants(`budget-${budget}`)) continue;
    bench.heading(`re-crawl freshness on the demo web: ${days} daily cycles of ${budget} visits`);
    const rows: Array<Array<string | number>> = [['policy', 'pages', 'mean freshness', 'freshness on the last day', 'visits', 'changes found']];
    for (const policy of ['sqrt-rate', 'uniform'] as const) {
      const run = await simulate(policy, days, budget);
      rows.push([policy, run.pages, run.meanFreshness, run.finalFreshness, run.visits, run.changesSeen]);
    }
    bench.table(rows);
  }
}
