/**
 * A live round equals the offline algorithm: a shared graph with URLs served over HTTP on
 * loopback, one host crawled with `lse crawl`, a round run with `lse estimate --no-budgets`,
 * and the same local pages run offline (FindGlobalPR on the known graph, and `lse experiment`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findGlobalPageRank } from '../indexer/estimation/find-global-pagerank.ts';
import { knownGraphSource, pageOfGraph } from '../indexer/estimation/experiment.ts';
import { createSelector } from '../indexer/estimation/selectors.ts';
import { loadWebGraph } from '../indexer/graph-files.ts';
import { l1Distance, restrictAndNormalise } from '../indexer/metrics.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { isRoundKey } from '../server/jobs/estimation-round.ts';
import { main } from '../server/cli/main.ts';
import { crawlableGraph, serveGraphWeb, writeGraphFiles, type CrawlableGraph, type GraphWebServer } from './helpers/graph-web.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

const ITERATIONS = 10;
const PER_ITERATION = 40;

async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return await run();
  } finally {
    err.mockRestore();
    out.mockRestore();
  }
}

if (!hasSharedData) console.warn(`live = offline: ${sharedDataSkipReason}`);

describe.skipIf(!hasSharedData)('a live round with the budgets off equals the offline run on the same pages (hollins)', () => {
  let view: CrawlableGraph;
  let server: GraphWebServer;
  let dir: string;
  let dataDir: string;
  let files: { nodes: string; edges: string };
  let resolve: string[];

  beforeAll(async () => {
    view = crawlableGraph(loadWebGraph({ edges: sharedGraphFile('hollins', 'edges'), nodes: sharedGraphFile('hollins', 'nodes') }));
    server = await serveGraphWeb(view);
    dir = mkdtempSync(join(tmpdir(), 'lse-live-offline-'));
    dataDir = join(dir, 'data');
    files = writeGraphFiles(view, dir);
    resolve = ['--resolve', `*:80:127.0.0.1:${server.port}`, '--allow-private-networks'];
    const crawl = ['crawl', '--data', dataDir, '--seed', 'http://www.hollins.edu/', ...resolve, '--delay', '0', '--max-pages', '5000'];
    expect(await quietly(() => main(crawl))).toBe(0);
  }, 300_000);
  afterAll(async () => server?.close());

  it('picks the same pages in every iteration and ends with the same estimate (1e-9)', async () => {
    const estimate = ['estimate', '--data', dataDir, '--selector', 'sc', '--estimator', 'supergraph', '--iterations', String(ITERATIONS), '--per-iteration', String(PER_ITERATION), '--no-budgets', ...resolve, '--delay', '0'];
    expect(await quietly(() => main(estimate))).toBe(0);

    const store = await CrawlStore.open(dataDir);
    const localUrls: string[] = [];
    let roundId = '';
    const picks: string[][] = [];
    let live: Map<string, number>;
    try {
      for await (const [, page] of store.pages()) if (page.role === 'local' && page.state === 'fetched') localUrls.push(page.url);
      for await (const [key] of store.jobs()) if (isRoundKey(key)) roundId = key;
      for (let i = 1; i <= ITERATIONS; i++) picks.push((await store.getJob<{ selected: string[] }>(`${roundId}/iteration/${String(i).padStart(5, '0')}`))!.selected);
      const stored = (await store.latestRanks('estimate'))!;
      live = new Map(Array.from(stored.ids, (id, i) => [store.urlOf(id)!, stored.values[i]]));
    } finally {
      await store.close();
    }
    // Every crawled page is a page of the graph, and the crawl reached a real site.
    const domain = Int32Array.from(localUrls.map((url) => view.pageOf.get(url)!)).sort();
    expect(domain.includes(undefined as unknown as number)).toBe(false);
    expect(domain.length).toBeGreaterThan(500);

    const offlinePicks: string[][] = [];
    const offline = await findGlobalPageRank({
      localPages: Array.from(domain, (page) => pageOfGraph(view.graph, page)),
      source: knownGraphSource(view.graph),
      selector: createSelector('sc', { seed: 1 }),
      estimator: 'supergraph',
      iterations: ITERATIONS,
      extraPages: ITERATIONS * PER_ITERATION,
      pageRank: { alpha: 0.85, tolerance: 1e-6 },
      onIteration: ({ record }) => {
        if (record.iteration > 0) offlinePicks.push(record.selected.map((page) => view.urls[page]));
      },
    });
    expect(picks).toEqual(offlinePicks);
    const liveEstimate = Float64Array.from(domain, (page) => live.get(view.urls[page])!);
    for (let i = 0; i < domain.length; i++) expect(Math.abs(liveEstimate[i] - offline.estimate[i])).toBeLessThan(1e-9);

    // `lse experiment` on the same pages reports the same error as the live estimate has.
    const idsFile = join(dir, 'local.ids');
    writeFileSync(idsFile, Array.from(domain).join('\n') + '\n');
    const out = join(dir, 'experiment');
    const experiment = ['experiment', '--nodes', files.nodes, '--edges', files.edges, '--domain', `ids:${idsFile}`, '--selectors', 'sc', '--iterations', String(ITERATIONS), '--extra', String(ITERATIONS * PER_ITERATION), '--out', out];
    expect(await quietly(() => main(experiment))).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8'));
    const truth = pageRank(view.graph, { alpha: 0.85, tolerance: 1e-10, maxIterations: 10_000 }).rank;
    const liveL1 = l1Distance(restrictAndNormalise(liveEstimate, Int32Array.from(liveEstimate.keys())), restrictAndNormalise(truth, domain));
    expect(Math.abs(result.domains[0].selectors.sc.final.l1 - liveL1)).toBeLessThan(1e-9);
    expect(result.domains[0].selectors.sc.final.crawled).toBe(ITERATIONS * PER_ITERATION);
  }, 300_000);
});
