/**
 * `lse demo` (what `npm start` runs): the whole job on the built-in demo web. It serves the
 * synthetic web on loopback, crawls its university site, runs one estimation round over HTTP,
 * builds the index and serves the search page. A second run reuses the stored data.
 */
import { DEMO_LOCAL_HOST, DEMO_SEED_URL, generateDemoWeb } from '../../crawler/demo-web/generate.ts';
import { demoWebGraph, demoWebGlobalPageRank } from '../../crawler/demo-web/graph.ts';
import { demoWebResolvePins, startDemoWebServer } from '../../crawler/demo-web/server.ts';
import { parseScope } from '../../crawler/scope.ts';
import { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { loadSettings } from '../../config/load-settings.ts';
import { CliError } from './cli-error.ts';
import { createCrawlStack, rememberCrawlerSettings } from './crawl-setup.ts';
import { formatCrawlSummary } from './crawl-command.ts';
import { numberFlag, parseFlags } from './flags.ts';
import { createProgress } from './progress.ts';
import { buildIndex, serveStore, untilSignalled } from './serve-command.ts';
import { runEstimationRound } from '../jobs/estimation-round.ts';
import { newJobId } from '../jobs/job-id.ts';
import type { DemoWeb } from '../../crawler/demo-web/generate.ts';

/** The demo university's own words on its search page (a real site sets its own in lse.json). */
export const DEMO_SITE_WORDS = {
  siteName: 'Northfield University',
  searchPlaceholder: 'telescope, admissions, library hours…',
  exampleQueries: ['telescope', 'admissions', 'library hours', 'scholarship'],
};

export const demoUsage = `lse demo [--data data/demo] [--host 127.0.0.1] [--port 8080] [--fresh]

  The whole job on the built-in demo web (what npm start runs): serve the synthetic web on
  loopback, crawl its university site, run one estimation round against it over HTTP, build the
  index, and serve the search page. A second run reuses the stored data; --fresh starts over.`;

/** The demo web's true global PageRank of URLs (NaN for URLs that are not pages of its graph). */
export function demoTruth(web: DemoWeb): (urls: readonly string[]) => Float64Array {
  const whole = demoWebGraph(web);
  const rank = demoWebGlobalPageRank(web);
  return (urls) => Float64Array.from(urls, (url) => {
    const node = whole.nodeOf.get(url);
    return node === undefined ? Number.NaN : rank[node];
  });
}

export async function demoCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { data: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' }, fresh: { type: 'boolean' }, config: { type: 'string' } }, 'demo');
  const web = generateDemoWeb();
  const demoServer = await startDemoWebServer(web, { logRequests: false });
  const dataDir = flags.data ?? process.env.LSE_DATA ?? 'data/demo';
  if (flags.fresh) {
    const { rm } = await import('node:fs/promises');
    await rm(dataDir, { recursive: true, force: true });
  }
  const settings = loadSettings({
    file: flags.config,
    overrides: {
      dataDir,
      server: DEMO_SITE_WORDS,
      crawler: {
        seeds: [DEMO_SEED_URL],
        scope: [`host:${DEMO_LOCAL_HOST}`],
        // The demo web is served by this process on loopback: allow it, and map every host to it.
        resolve: demoWebResolvePins(demoServer.port),
        allowPrivateNetworks: true,
        // Our own server: a short politeness delay keeps the demo quick.
        delaySeconds: 0.005,
        maxPages: 3000,
      },
    },
  });
  let store: CrawlStore;
  try {
    store = await CrawlStore.open(dataDir);
  } catch (error) {
    await demoServer.close();
    throw new CliError((error as Error).message, 1);
  }
  const stack = createCrawlStack(store, settings.crawler);
  try {
    const scope = parseScope(settings.crawler.scope);
    await rememberCrawlerSettings(store, settings.crawler);
    const hasRound = (await store.latestRanks('estimate')) !== undefined;
    let index;
    if (!hasRound) {
      process.stderr.write(`demo web: ${web.hosts.length} hosts, ${web.resources.length} URLs on ${demoServer.url}; crawling ${DEMO_SEED_URL}\n`);
      const crawlProgress = createProgress(settings.crawler.maxPages, 'crawl');
      const summary = await stack.crawler.crawl({
        seeds: settings.crawler.seeds,
        scope,
        ordering: settings.crawler.ordering,
        maxPages: settings.crawler.maxPages,
        maxDepth: settings.crawler.maxDepth,
        hostPageBudget: settings.crawler.hostPageBudget,
        concurrency: settings.crawler.concurrency,
        nearDuplicateThreshold: settings.crawler.nearDuplicateThreshold,
        onProgress: (p) => crawlProgress.update(p.stored, `${p.pagesPerSecond.toFixed(0)} pages/s | frontier ${p.frontier}`),
      });
      crawlProgress.stop();
      process.stderr.write(`${formatCrawlSummary(summary)}\n`);
      const iterations = 10;
      const roundProgress = createProgress(iterations, 'estimate');
      const round = await runEstimationRound(
        { store, stack, settings, scope, truthOf: demoTruth(web) },
        newJobId('round'),
        { selector: settings.estimation.selector, iterations, extra: '1n' },
        { onProgress: (s) => roundProgress.update(s.iteration, `crawled ${s.crawled} | L1 to truth ${s.l1ToTruth?.toFixed(4) ?? '?'}`) },
      );
      roundProgress.stop();
      if (round.state !== 'done') throw new CliError(`the estimation round ${round.state}: ${round.error ?? ''}`, 1);
      const first = round.history[0]?.l1ToTruth;
      process.stderr.write(
        `estimation round: ${round.crawled} global pages crawled; L1 to the true global PageRank ${first?.toFixed(4)} (local PageRank) → ${round.l1ToTruth?.toFixed(4)} (estimate)\n`,
      );
      const built = await buildIndex(store, settings);
      index = built.index;
      process.stderr.write(`indexed ${built.documents} pages\n`);
    } else {
      process.stderr.write(`reusing the data in ${dataDir} (npm start -- --fresh starts over)\n`);
    }
    const serving = await serveStore(store, settings, {
      listen: { host: flags.host ?? settings.server.host, port: numberFlag(flags.port, 'port') ?? settings.server.port },
      index,
      stack,
      truthOf: demoTruth(web),
    });
    process.stdout.write(`\nsearch page: ${serving.url}/   (try: "telescope", "admissions", "library hours")\n`);
    await untilSignalled();
    await serving.close();
    return 0;
  } finally {
    await stack.close();
    await store.close();
    await demoServer.close();
  }
}
