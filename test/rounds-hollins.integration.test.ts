/**
 * A live round equals the offline algorithm: a shared graph with URLs served over HTTP on
 * loopback, one host crawled with `lse crawl`, a round run with `lse estimate --no-budgets`,
 * and the same local pages run offline (FindGlobalPR on the known graph, and `lse experiment`).
 * Rounds that continue from the supergraph the earlier ones built equal one long round.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
import { isRoundKey, resumeEstimationRound, runEstimationRound, type RoundParameters, type RoundStatus } from '../server/jobs/estimation-round.ts';
import { newJobId } from '../server/jobs/job-id.ts';
import { dataDirDomain } from '../server/jobs/local-domain.ts';
import { fetchFlagOverrides, settingsForDataDir } from '../server/cli/crawl-command.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { main } from '../server/cli/main.ts';
import { crawlableGraph, serveGraphWeb, writeGraphFiles, type CrawlableGraph, type GraphWebServer } from './helpers/graph-web.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

const ITERATIONS = 50;
const PER_ITERATION = 37;

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

/** Every round of a data directory, oldest first, with the pages each iteration picked. */
async function roundsOf(dataDir: string): Promise<Array<RoundStatus & { picks: string[][] }>> {
  const store = await CrawlStore.open(dataDir);
  try {
    const rounds: Array<RoundStatus & { picks: string[][] }> = [];
    for await (const [key, value] of store.jobs<RoundStatus>()) if (isRoundKey(key)) rounds.push({ ...value, picks: [] });
    rounds.sort((a, b) => a.startedAt - b.startedAt);
    for (const round of rounds) {
      for (let i = 1; i <= round.iterations; i++) round.picks.push((await store.getJob<{ selected: string[] }>(`${round.id}/iteration/${String(i).padStart(5, '0')}`))!.selected);
    }
    return rounds;
  } finally {
    await store.close();
  }
}

async function latestEstimate(dataDir: string): Promise<Map<string, number>> {
  const store = await CrawlStore.open(dataDir);
  try {
    const stored = (await store.latestRanks('estimate'))!;
    return new Map(Array.from(stored.ids, (id, i) => [store.urlOf(id)!, stored.values[i]]));
  } finally {
    await store.close();
  }
}

if (!hasSharedData) console.warn(`rounds on hollins: ${sharedDataSkipReason}`);

describe.skipIf(!hasSharedData)('a live round with the budgets off equals the offline run on the same pages (hollins)', () => {
  let view: CrawlableGraph;
  let server: GraphWebServer;
  let dir: string;
  let dataDir: string;
  let files: { nodes: string; edges: string };
  let resolve: string[];
  let crawled: string;
  let onRequest: (() => void) | undefined;
  const copyOfCrawl = (name: string) => {
    const copy = join(dir, name);
    cpSync(crawled, copy, { recursive: true });
    return copy;
  };
  const estimate = (dataDir: string, iterations: number, perIteration: number, selector = 'sc') =>
    quietly(() => main(['estimate', '--data', dataDir, '--selector', selector, '--estimator', 'supergraph', '--iterations', String(iterations), '--per-iteration', String(perIteration), '--no-budgets', ...resolve, '--delay', '0']));

  beforeAll(async () => {
    view = crawlableGraph(loadWebGraph({ edges: sharedGraphFile('hollins', 'edges'), nodes: sharedGraphFile('hollins', 'nodes') }));
    server = await serveGraphWeb(view, () => onRequest?.());
    dir = mkdtempSync(join(tmpdir(), 'lse-live-offline-'));
    crawled = join(dir, 'crawled');
    files = writeGraphFiles(view, dir);
    resolve = ['--resolve', `*:80:127.0.0.1:${server.port}`, '--allow-private-networks'];
    const crawl = ['crawl', '--data', crawled, '--seed', 'http://www.hollins.edu/', ...resolve, '--delay', '0', '--max-pages', '5000'];
    expect(await quietly(() => main(crawl))).toBe(0);
    dataDir = copyOfCrawl('live');
  }, 300_000);
  afterAll(async () => server?.close());

  it('picks the same pages in every iteration and ends with the same estimate (1e-9)', async () => {
    expect(await estimate(dataDir, ITERATIONS, PER_ITERATION)).toBe(0);

    // L is what the crawl stored as local (a round stores in-scope pages it fetches as local too).
    const crawledStore = await CrawlStore.open(crawled);
    const localUrls: string[] = [];
    try {
      for await (const [, page] of crawledStore.pages()) if (page.role === 'local' && page.state === 'fetched') localUrls.push(page.url);
    } finally {
      await crawledStore.close();
    }
    const store = await CrawlStore.open(dataDir);
    let roundId = '';
    const picks: string[][] = [];
    let live: Map<string, number>;
    try {
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

  // Random also checks that its generator goes on across rounds and across the resume.
  it.each(['sc', 'random'])('%s: three rounds of k pages equal one round of 3k pages; a crash in the second round resumes it', async (selector) => {
    const [T, k] = [4, 20];
    const longDir = copyOfCrawl(`long-${selector}`);
    const roundsDir = copyOfCrawl(`rounds-${selector}`);
    expect(await estimate(longDir, 3 * T, k, selector)).toBe(0);
    expect(await estimate(roundsDir, T, k, selector)).toBe(0);

    // The second round, stopped half way through the crawl of its third iteration.
    const { settings, store } = await settingsForDataDir({ data: roundsDir }, fetchFlagOverrides({ delay: '0', resolve: [`*:80:127.0.0.1:${server.port}`], 'allow-private-networks': true }));
    const domain = dataDirDomain(settings.crawler);
    const stack = createCrawlStack(store, settings.crawler);
    const context = { store, stack, settings, scope: domain.scope, domain };
    const controller = new AbortController();
    const parameters: RoundParameters = { selector, estimator: 'supergraph', iterations: T, pagesPerIteration: k, budgets: false };
    const id = newJobId('round');
    let stored: Set<string>;
    let before: number;
    try {
      const cut = await runEstimationRound(context, id, parameters, {
        signal: controller.signal,
        onProgress: (status) => {
          if (status.iteration !== 2 || onRequest) return;
          const armed = server.requested.length;
          onRequest = () => {
            if (server.requested.length >= armed + k / 2) controller.abort();
          };
        },
      });
      onRequest = undefined;
      expect(cut).toMatchObject({ state: 'cancelled', iteration: 2, startPages: T * k });
      stored = new Set();
      for await (const [, page] of store.pages()) if (page.role === 'global') stored.add(page.url);
      expect(stored.size).toBeGreaterThan(T * k + 2 * k);
      before = server.requested.length;
      const resumed = await resumeEstimationRound(context, id);
      expect(resumed).toMatchObject({ state: 'done', iteration: T, crawled: 2 * T * k });
    } finally {
      await stack.close();
      await store.close();
    }
    // No page stored before the crash was fetched again.
    expect(server.requested.slice(before).filter((url) => stored.has(url))).toEqual([]);
    expect(await estimate(roundsDir, T, k, selector)).toBe(0);

    const [long] = await roundsOf(longDir);
    const rounds = await roundsOf(roundsDir);
    expect(rounds.map((r) => r.crawled)).toEqual([T * k, 2 * T * k, 3 * T * k]);
    expect(rounds.flatMap((r) => r.picks)).toEqual(long.picks);
    const longEstimate = await latestEstimate(longDir);
    const roundsEstimate = await latestEstimate(roundsDir);
    expect(roundsEstimate.size).toBe(longEstimate.size);
    for (const [url, value] of longEstimate) expect(Math.abs(roundsEstimate.get(url)! - value)).toBeLessThan(1e-9);
  }, 300_000);

  it('revisits stale global pages within its share: new links replace the old, a gone page leaves F', async () => {
    const [T, k] = [2, 20];
    const agingDir = copyOfCrawl('aging');
    expect(await estimate(agingDir, T, k)).toBe(0);
    const [first] = await roundsOf(agingDir);
    const [gone, moved] = first.picks[0];
    const elsewhere = view.urls.find((url) => !url.startsWith('http://www.hollins.edu/') && !first.picks.flat().includes(url))!;
    server.changePage(gone, null);
    server.changePage(moved, [elsewhere]);

    const { settings: stored, store } = await settingsForDataDir({ data: agingDir }, fetchFlagOverrides({ delay: '0', resolve: [`*:80:127.0.0.1:${server.port}`], 'allow-private-networks': true }));
    const settings = { ...stored, estimation: { ...stored.estimation, revisitShare: 0.5, pldBudgets: false } };
    const domain = dataDirDomain(settings.crawler);
    const stack = createCrawlStack(store, settings.crawler);
    const parameters: RoundParameters = { selector: 'sc', iterations: T, pagesPerIteration: k };
    try {
      // Eight days later every global page is stale (the limit is seven): half the budget revisits the oldest.
      const later = { store, stack, settings, scope: domain.scope, domain, now: () => Date.now() + 8 * 86_400_000 };
      const second = await runEstimationRound(later, newJobId('round'), parameters);
      expect(second).toMatchObject({ state: 'done', revisited: k, gone: 1, startPages: T * k - 1, extraPages: T * k - k, crawled: T * k - 1 + T * k - k });
      const supergraph = (await store.latestRanks('supergraph'))!;
      expect(Array.from(supergraph.ids)).not.toContain(store.idOf(gone));
      expect(Array.from(supergraph.ids)).toContain(store.idOf(moved));
      expect((await store.getLinks(store.idOf(moved)!)).map((l) => store.urlOf(l.to))).toEqual([elsewhere]);
      // Back to back: nothing is stale, the whole budget finds new pages.
      const third = await runEstimationRound({ ...later, now: undefined }, newJobId('round'), parameters);
      expect(third).toMatchObject({ state: 'done', revisited: 0, extraPages: T * k, startPages: second.crawled });
    } finally {
      await stack.close();
      await store.close();
    }
  }, 300_000);
});
