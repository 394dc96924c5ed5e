import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { generateDemoWeb, type DemoWeb } from '../crawler/demo-web/generate.ts';
import { demoWebResolvePins, startDemoWebServer, type DemoWebServer } from '../crawler/demo-web/server.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';

const lse = fileURLToPath(new URL('../bin/lse.js', import.meta.url));

let web: DemoWeb;
let server: DemoWebServer;

beforeAll(async () => {
  web = generateDemoWeb();
  server = await startDemoWebServer(web, { latencyScale: 0 });
});
afterAll(async () => server?.close());

async function crawlDemo(options: { dir?: string; delaySeconds?: number; maxPages?: number; allowPrivateNetworks?: boolean; ordering?: 'bfs' | 'rankmass' } = {}) {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'lse-crawl-'));
  const settings = loadSettings({
    env: {},
    overrides: {
      crawler: {
        resolve: demoWebResolvePins(server.port),
        allowPrivateNetworks: options.allowPrivateNetworks ?? true,
        delaySeconds: options.delaySeconds ?? 0,
        concurrency: 8,
      },
    },
  });
  const store = await CrawlStore.open(dir);
  const stack = createCrawlStack(store, settings.crawler);
  const summary = await stack.crawler.crawl({
    seeds: [`http://${web.localHost}/`],
    scope: parseScope(`host:${web.localHost}`),
    ordering: options.ordering ?? 'bfs',
    maxPages: options.maxPages ?? 5000,
    maxDepth: 50,
    hostPageBudget: 5000,
    concurrency: 8,
  });
  const pages = new Map<string, PageRecord>();
  for await (const [, page] of store.pages()) pages.set(page.url, page);
  await stack.close();
  return { dir, summary, pages, store };
}

describe('crawling the demo web', () => {
  let result: Awaited<ReturnType<typeof crawlDemo>>;
  let requests: typeof server.requestLog;

  beforeAll(async () => {
    const before = server.requestLog.length;
    result = await crawlDemo();
    requests = server.requestLog.slice(before);
    await result.store.close();
  });

  it('crawls the whole local site and stops when the frontier is empty', () => {
    expect(result.summary.stoppedBecause).toBe('frontier-empty');
    expect(result.summary.byState.fetched).toBeGreaterThan(800);
    expect(result.pages.get(`http://${web.localHost}/`)?.state).toBe('fetched');
  });

  it('stays inside the scope: every request goes to the local host', () => {
    expect(new Set(requests.map((r) => r.host))).toEqual(new Set([web.localHost]));
    for (const page of result.pages.values()) if (page.state === 'fetched') expect(page.role).toBe('local');
    // The fetched pages link to other hosts of the demo web, so staying inside is the scope's doing.
    const { outOffsets, outTargets } = web.contentLinks;
    let outward = 0;
    for (const page of result.pages.values()) {
      const id = web.urlIndex.get(page.url);
      if (id === undefined || page.state !== 'fetched') continue;
      for (let e = outOffsets[id]; e < outOffsets[id + 1]; e++) if (new URL(web.resources[outTargets[e]].url).host !== web.localHost) outward++;
    }
    expect(outward).toBeGreaterThan(10);
  });

  it('obeys robots.txt', () => {
    const asked = new Set(requests.map((r) => `http://${r.host}${r.path}`));
    for (const url of web.landmarks.robotsDisallowedPages) {
      expect(asked.has(url)).toBe(false);
      if (result.pages.has(url)) expect(result.pages.get(url)?.state).toBe('disallowed');
    }
    expect(requests.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
  });

  it('records redirects as links and refuses those leaving the scope', () => {
    const permanent = result.pages.get(web.landmarks.redirects.permanent)!;
    expect(permanent.state).toBe('redirect');
    expect(permanent.redirectTo).toBeDefined();
    const library = result.pages.get(web.landmarks.redirects.toLibraryHost)!;
    expect(library.state).toBe('redirect');
    expect(library.error).toBe('out-of-scope');
    for (const hop of web.landmarks.redirects.chain.slice(0, -1)) expect(result.pages.get(hop)?.state).toBe('redirect');
  });

  it('stores errors, non-HTML files, and decodes legacy charsets', () => {
    expect(result.pages.get(web.landmarks.errors.notFound)?.state).toBe('gone');
    expect(result.pages.get(web.landmarks.errors.gone)?.state).toBe('gone');
    expect(result.pages.get(web.landmarks.errors.serverError)?.state).toBe('error');
    // The demo's PDF is random bytes behind a PDF header: read as a document, refused with the reason.
    expect(result.pages.get(web.landmarks.files.pdf)).toMatchObject({ state: 'error', error: expect.stringMatching(/^document: pdf: /) });
    expect(result.pages.get(web.landmarks.files.image)?.state).toBe('not-html');
    for (const url of [web.landmarks.charsetInHeader, web.landmarks.charsetInMeta]) {
      const text = result.pages.get(url)!.text!;
      expect(text).not.toContain('\ufffd');
      expect(text).toMatch(/[éüöäàç]/);
    }
  });

  it('cuts spider traps, marks duplicates, honours noindex and nofollow', () => {
    // The endless calendar is cut where its months leave the plausible date range (and by depth).
    const calendar = requests.filter((r) => r.path.includes('/calendar/')).length;
    expect(calendar).toBeLessThan(100);
    expect(result.summary.rejected['trap-calendar']).toBeGreaterThan(0);
    expect(requests.filter((r) => r.path.includes('/archive/archive/archive/archive/')).length).toBe(0);
    const duplicate = result.pages.get(web.landmarks.exactDuplicate.url);
    expect(duplicate?.duplicateOf).toBeDefined();
    expect(result.pages.get(web.landmarks.noindex)?.noindex).toBe(true);
    expect(result.pages.get(web.landmarks.nofollowMeta)?.nofollow).toBe(true);
    expect(result.summary.coverageBound).toBeGreaterThan(0.3);
  });
});

describe('politeness and safety', () => {
  it('keeps at least the delay between two requests to a host (server request log)', async () => {
    const before = server.requestLog.length;
    const { store } = await crawlDemo({ delaySeconds: 0.1, maxPages: 12 });
    await store.close();
    const times = server.requestLog.slice(before).filter((r) => r.host === web.localHost).map((r) => r.timeMs);
    expect(times.length).toBeGreaterThanOrEqual(10);
    // The server stamps a request when its event loop gets to it, so one stamp can come late under load and
    // shorten the gap after it: each gap gets 20 ms of slack, and the whole span pins the delay to within 20 ms.
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(80);
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual(100 * (times.length - 1) - 20);
  });

  it('refuses loopback addresses unless private networks are allowed', async () => {
    const before = server.requestLog.length;
    const { summary, pages, store } = await crawlDemo({ allowPrivateNetworks: false, maxPages: 5 });
    await store.close();
    expect(server.requestLog.length).toBe(before);
    // Even robots.txt cannot be fetched: the host counts as unreachable and nothing is fetched.
    const seed = pages.get(`http://${web.localHost}/`)!;
    expect(seed.state).toBe('disallowed');
    expect(seed.error).toBe('robots-unreachable');
    expect(summary.byState.fetched ?? 0).toBe(0);
  });
});

describe('resume after SIGKILL', () => {
  it('continues from the stored frontier, refetches no stored page and ends with the same pages', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-resume-'));
    const args = ['crawl', '--data', dir, '--seed', `http://${web.localHost}/`, '--resolve', `*:80:127.0.0.1:${server.port}`, '--allow-private-networks', '--delay', '0', '--max-pages', '5000', '--concurrency', '4'];
    const start = server.requestLog.length;
    const child = spawn(process.execPath, [lse, ...args], { stdio: 'ignore' });
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (server.requestLog.length - start >= 250) {
          clearInterval(poll);
          child.kill('SIGKILL');
        }
      }, 5);
      child.on('exit', () => (clearInterval(poll), resolve()));
      child.on('error', reject);
    });
    const killedAt = server.requestLog.length;
    const afterKill = await CrawlStore.open(dir);
    const stored = new Set<string>();
    for await (const [, page] of afterKill.pages()) stored.add(page.url);
    await afterKill.close();
    expect(stored.size).toBeGreaterThan(50);

    // Second run: only the remembered data directory, no seeds or fetch flags.
    const second = spawn(process.execPath, [lse, 'crawl', '--data', dir, '--max-pages', '5000'], { stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code).toBe(0);
    const refetched = server.requestLog.slice(killedAt).filter((r) => r.path !== '/robots.txt' && stored.has(`http://${r.host}${r.path}`));
    expect(refetched).toEqual([]);

    const final = await CrawlStore.open(dir);
    const finalUrls = new Set<string>();
    for await (const [, page] of final.pages()) finalUrls.add(page.url);
    let frontier = 0;
    for await (const entry of final.frontier()) frontier += entry ? 1 : 0;
    await final.close();
    const reference = await crawlDemo();
    await reference.store.close();
    expect(frontier).toBe(0);
    expect(finalUrls).toEqual(new Set(reference.pages.keys()));
  });
});
