/**
 * Crawl throughput on loopback: the demo web served by `lse demo-web --no-latency`
 * in its own process, crawled with the politeness delay at 0, every page parsed, stored and its
 * links extracted. For each case: pages/s, CPU time per page of the crawler process
 * (process.cpuUsage: user + system, all threads), the time its main thread was busy per page
 * (event-loop utilisation: 1000 / that is the most pages/s one thread allows), its peak RSS
 * (process.resourceUsage().maxRSS), and — where /proc can tell — the demo server's CPU per page,
 * since both share the machine.
 *
 *   local       the university host alone: per-host concurrency 1 bounds it (one request at a
 *               time, so pages/s is the inverse of one round trip plus the processing).
 *   local-rankmass  the same site in RankMass order (its mass propagation on the hot path).
 *   multi-host  a `regex:` scope over every demo host, 8 000 pages, concurrency 16.
 *   multi-host-v8-heap  the same with V8's own heap growth (`crawler.heapGrowthPercent: 0`):
 *               what the default of 50 % saves in peak RSS, and what it costs in CPU.
 *   floor       a bare undici + cheerio loop over the URLs the multi-host case fetched (no
 *               robots, politeness, URL rules, store or duplicates): what parsing alone allows.
 *   docs-site   a peer comparison: a documentation site of 3,200 pages and ~118 MB
 *               (bench/docs-site.ts, its own server process), 16 requests in flight to the one
 *               host. Peers measured on such a site: Crawlee's CheerioCrawler 30 s and 1 GB RSS,
 *               Scrapy 46 s, a bare undici + cheerio loop 13 s.
 *   docs-site-pdfs  the same site with 9 four-page PDF manuals per section (360 PDFs, 10 % of
 *               its documents), read in the document worker threads (rendering off).
 *   docs-site-pdfs-render  the same with rendering on, for the pages whose URL ends in 5.html
 *               (`render.urlPatterns`; 10 % of the HTML pages) rendered in headless Chromium.
 *
 * A first, unreported multi-host crawl warms the server's page cache. Each case runs in a fresh
 * child process (`node bin/run-ts.js bench/crawl.bench.ts --case NAME
 * --port P --dir D`), so that its CPU time and peak RSS are its own and not the runner's or the
 * server's; the child prints one JSON line of figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './run.ts';
import { DOCS_HOST } from './docs-site.ts';

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
const lseBin = join(repoRoot, 'bin', 'lse.js');
const runTsBin = join(repoRoot, 'bin', 'run-ts.js');
const thisFile = fileURLToPath(import.meta.url);
const docsSiteFile = join(repoRoot, 'bench', 'docs-site.ts');

const CASES = ['local', 'local-rankmass', 'multi-host', 'multi-host-v8-heap', 'floor', 'docs-site', 'docs-site-pdfs', 'docs-site-pdfs-render'] as const;
type CaseName = (typeof CASES)[number];

const MULTI_HOST_PAGES = 8_000;
const CONCURRENCY = 16;
/** The file (in the case's directory) where the multi-host case leaves its fetched URLs for the floor. */
const URL_LIST = 'fetched-urls.txt';

/** What a case child prints (one JSON line). */
interface CaseFigures {
  pages: number;
  seconds: number;
  cpuMs: number;
  /** Time the main thread's event loop was busy (not waiting for I/O), ms. */
  mainBusyMs: number;
  peakRssMb: number;
  detail: string;
}

// ---------------------------------------------------------------- the runner side

export async function crawlBenchmarks(bench: BenchContext): Promise<void> {
  const server = await startDemoWebProcess();
  const dir = mkdtempSync(join(tmpdir(), 'lse-crawl-bench-'));
  try {
    bench.heading(`crawling on loopback, delay 0 (demo web: server pid ${server.child.pid} on port ${server.port}, a separate process)`);
    const rows: Array<Array<string | number>> = [['case', 'pages', 'seconds', 'pages/s', 'CPU ms/page', 'main busy ms/page', 'peak RSS MB', 'server CPU ms/page']];
    const notes: string[] = [];
    // The server renders a page on its first request and caches it: a first, unreported crawl
    // makes the measured ones pay for the crawler's work, not for the server's rendering.
    if (CASES.some((name) => !name.startsWith('docs-site') && bench.wants(name))) await runCaseProcess('multi-host', server.port, join(dir, 'warm-up'));
    for (const name of CASES) {
      if (!bench.wants(name)) continue;
      if (name === 'floor' && !bench.wants('multi-host')) {
        notes.push('floor: needs the multi-host case (its URL list); skipped');
        continue;
      }
      const docs = name.startsWith('docs-site') ? await startServerProcess([runTsBin, docsSiteFile, '--port', '0', ...(name.startsWith('docs-site-pdfs') ? ['--pdfs'] : [])]) : undefined;
      const caseServer = docs ?? server;
      const serverBefore = processCpuMs(caseServer.child.pid);
      let figures: CaseFigures;
      try {
        figures = await runCaseProcess(name, caseServer.port, dir);
      } finally {
        docs?.child.kill('SIGTERM');
      }
      const serverAfter = processCpuMs(caseServer.child.pid);
      const serverPerPage = serverBefore !== undefined && serverAfter !== undefined ? (serverAfter - serverBefore) / Math.max(1, figures.pages) : 'n/a';
      rows.push([
        name,
        figures.pages,
        round(figures.seconds, 2),
        round(figures.pages / figures.seconds, 1),
        round(figures.cpuMs / Math.max(1, figures.pages), 3),
        round(figures.mainBusyMs / Math.max(1, figures.pages), 3),
        figures.peakRssMb,
        typeof serverPerPage === 'number' ? round(serverPerPage, 3) : serverPerPage,
      ]);
      notes.push(`${name}: ${figures.detail}`);
    }
    bench.table(rows);
    for (const note of notes) bench.note(note);
    bench.note(`target for multi-host: ≥ 1,000 pages/s and < 300 MB peak RSS on this machine (${(await import('node:os')).availableParallelism()} cores, shared with the server)`);
    bench.note('target for docs-site: ≤ 10 s (3× faster than Crawlee\'s 30 s) and < 300 MB peak RSS');
  } finally {
    server.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

async function startDemoWebProcess(): Promise<{ child: ChildProcess; port: number }> {
  return startServerProcess([lseBin, 'demo-web', '--port', '0', '--no-latency']);
}

/** Starts a server process that prints `on http://127.0.0.1:PORT` when it listens. */
export async function startServerProcess(args: readonly string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolvePort, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      const match = /on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolvePort(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (code ${code}) before listening: ${output}`)));
    child.once('error', reject);
  });
  child.stdout!.resume();
  return { child, port };
}

async function runCaseProcess(name: CaseName, port: number, dir: string): Promise<CaseFigures> {
  const child = spawn(process.execPath, [runTsBin, thisFile, '--case', name, '--port', String(port), '--dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolveExit, reject) => {
    child.once('exit', resolveExit);
    child.once('error', reject);
  });
  const line = output.trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`crawl bench case ${name} failed (exit ${code}): ${output}`);
  return JSON.parse(line) as CaseFigures;
}

/** User + system CPU of another process in ms, from /proc (Linux); undefined elsewhere. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- the case side (child process)

async function runCase(name: CaseName, port: number, dir: string): Promise<CaseFigures> {
  switch (name) {
    case 'local':
      return crawlCase(port, join(dir, 'local'), { scope: 'host:www.northfield-university.edu', maxPages: 5_000, keepUrls: false });
    case 'local-rankmass':
      // The same site in RankMass order: the ordering's mass propagation is on the hot path.
      return crawlCase(port, join(dir, 'local-rankmass'), { scope: 'host:www.northfield-university.edu', maxPages: 5_000, keepUrls: false, ordering: 'rankmass' });
    case 'multi-host':
      return crawlCase(port, join(dir, 'multi-host'), { scope: 'regex:^http://', maxPages: MULTI_HOST_PAGES, keepUrls: true });
    case 'multi-host-v8-heap':
      return crawlCase(port, join(dir, 'multi-host-v8-heap'), { scope: 'regex:^http://', maxPages: MULTI_HOST_PAGES, keepUrls: false, heapGrowthPercent: 0 });
    case 'floor':
      return floorCase(port, readFileSync(join(dir, URL_LIST), 'utf8').split('\n').filter(Boolean));
    case 'docs-site':
      return crawlCase(port, join(dir, 'docs-site'), { scope: `host:${DOCS_HOST}`, maxPages: 10_000, keepUrls: false, seed: `http://${DOCS_HOST}/`, perHostConcurrency: CONCURRENCY, resolve: { [`${DOCS_HOST}:80`]: `127.0.0.1:${port}` } });
    case 'docs-site-pdfs':
      return crawlCase(port, join(dir, 'docs-site-pdfs'), { scope: `host:${DOCS_HOST}`, maxPages: 10_000, keepUrls: false, seed: `http://${DOCS_HOST}/`, perHostConcurrency: CONCURRENCY, resolve: { [`${DOCS_HOST}:80`]: `127.0.0.1:${port}` }, countTypes: true });
    case 'docs-site-pdfs-render':
      return crawlCase(port, join(dir, 'docs-site-pdfs-render'), {
        scope: `host:${DOCS_HOST}`,
        maxPages: 10_000,
        keepUrls: false,
        seed: `http://${DOCS_HOST}/`,
        perHostConcurrency: CONCURRENCY,
        resolve: { [`${DOCS_HOST}:80`]: `127.0.0.1:${port}` },
        countTypes: true,
        render: { enabled: true, urlPatterns: ['5\\.html$'] },
      });
  }
}

async function crawlCase(
  port: number,
  storeDir: string,
  options: {
    scope: string;
    maxPages: number;
    keepUrls: boolean;
    ordering?: 'bfs' | 'rankmass';
    seed?: string;
    perHostConcurrency?: number;
    resolve?: Record<string, string>;
    /** Overrides `crawler.heapGrowthPercent` (default: the setting's default). */
    heapGrowthPercent?: number;
    /** Count stored pages by document type in the detail. */
    countTypes?: boolean;
    /** `crawler.render` settings (default: rendering off). */
    render?: Record<string, unknown>;
  },
): Promise<CaseFigures> {
  const { loadSettings } = await import('../config/load-settings.ts');
  const { DEMO_SEED_URL } = await import('../crawler/demo-web/generate.ts');
  const { demoWebResolvePins } = await import('../crawler/demo-web/server.ts');
  const { parseScope } = await import('../crawler/scope.ts');
  const { CrawlStore } = await import('../indexer/store/crawl-store.ts');
  const { createCrawlStack } = await import('../server/cli/crawl-setup.ts');

  const settings = loadSettings({
    env: {},
    overrides: {
      crawler: { resolve: options.resolve ?? demoWebResolvePins(port), allowPrivateNetworks: true, delaySeconds: 0, concurrency: CONCURRENCY, perHostConcurrency: options.perHostConcurrency ?? 1, ...(options.heapGrowthPercent === undefined ? {} : { heapGrowthPercent: options.heapGrowthPercent }), ...(options.render ? { render: options.render } : {}) },
    },
  });
  const store = await CrawlStore.open(storeDir);
  const stack = createCrawlStack(store, settings.crawler);
  const { GCProfiler, getHeapStatistics } = await import('node:v8');
  const heapBefore = getHeapStatistics().used_heap_size;
  const gcProfiler = new GCProfiler();
  gcProfiler.start();
  const cpuBefore = process.cpuUsage();
  const loopBefore = performance.eventLoopUtilization();
  const summary = await stack.crawler.crawl({
    seeds: [options.seed ?? DEMO_SEED_URL],
    scope: parseScope(options.scope),
    ordering: options.ordering ?? 'bfs',
    maxPages: options.maxPages,
    maxDepth: 50,
    hostPageBudget: 5_000,
    concurrency: CONCURRENCY,
  });
  const cpu = process.cpuUsage(cpuBefore);
  const loop = performance.eventLoopUtilization(loopBefore);
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const heap = heapTraffic(gcProfiler.stop()?.statistics ?? [], heapBefore, getHeapStatistics().used_heap_size);
  await stack.close();
  const urls: string[] = [];
  const hosts = new Set<string>();
  const types: Record<string, number> = {};
  for await (const [, page] of store.pages()) {
    if (page.state !== 'fetched') continue;
    types[page.type ?? 'html'] = (types[page.type ?? 'html'] ?? 0) + 1;
    urls.push(page.url);
    hosts.add(page.host);
  }
  if (options.keepUrls) writeFileSync(join(storeDir, '..', URL_LIST), urls.join('\n'));
  await store.close();
  const states = Object.entries(summary.byState).map(([state, count]) => `${state} ${count}`).join(', ');
  return {
    pages: summary.fetchedThisRun,
    seconds: summary.seconds,
    cpuMs: (cpu.user + cpu.system) / 1000,
    mainBusyMs: loop.active,
    peakRssMb,
    detail: `${options.scope}, stopped: ${summary.stoppedBecause}; ${states}; ${options.countTypes ? `types: ${Object.entries(types).map(([t, n]) => `${t} ${n}`).join(', ')}; ` : ''}${hosts.size} hosts; heap: ${heap.allocatedMb} MB allocated, ${heap.promotedMb} MB promoted by scavenges, ${heap.fullCollections} full collections`,
  };
}

interface GcRecord {
  gcType: string;
  beforeGC: { heapStatistics: { usedHeapSize: number }; heapSpaceStatistics: Array<{ spaceName: string; spaceUsedSize: number }> };
  afterGC: { heapStatistics: { usedHeapSize: number }; heapSpaceStatistics: Array<{ spaceName: string; spaceUsedSize: number }> };
}

/**
 * What the crawl asked of the garbage collector, from V8's per-collection statistics: bytes
 * allocated (heap growth between collections), bytes the scavenges moved into the old generation
 * (what full collections must then reclaim), and the number of full collections.
 */
function heapTraffic(records: readonly GcRecord[], usedBefore: number, usedAfter: number): { allocatedMb: number; promotedMb: number; fullCollections: number } {
  const oldSpace = (stats: GcRecord['beforeGC']) => stats.heapSpaceStatistics.find((space) => space.spaceName === 'old_space')?.spaceUsedSize ?? 0;
  let allocated = 0;
  let promoted = 0;
  let full = 0;
  let used = usedBefore;
  for (const record of records) {
    allocated += Math.max(0, record.beforeGC.heapStatistics.usedHeapSize - used);
    used = record.afterGC.heapStatistics.usedHeapSize;
    if (record.gcType === 'Scavenge') promoted += Math.max(0, oldSpace(record.afterGC) - oldSpace(record.beforeGC));
    else if (record.gcType === 'MarkSweepCompact') full++;
  }
  allocated += Math.max(0, usedAfter - used);
  return { allocatedMb: Math.round(allocated / 1048576), promotedMb: Math.round(promoted / 1048576), fullCollections: full };
}

/** The floor: fetch each URL with undici, parse with cheerio, resolve the links. Nothing else. */
async function floorCase(port: number, urls: readonly string[]): Promise<CaseFigures> {
  const { request } = await import('undici');
  const cheerio = await import('cheerio');
  const { demoWebDispatcher } = await import('../crawler/demo-web/server.ts');
  const dispatcher = demoWebDispatcher(port, { connections: 1 });
  let next = 0;
  let links = 0;
  const cpuBefore = process.cpuUsage();
  const loopBefore = performance.eventLoopUtilization();
  const started = performance.now();
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++];
      const response = await request(url, { dispatcher });
      const html = await response.body.text();
      const $ = cheerio.load(html);
      $('a[href]').each((_i, element) => {
        try {
          new URL(element.attribs.href, url);
          links++;
        } catch {
          // not a URL: skipped, as a crawler would
        }
      });
      if ($('body').text().length < 0) links--; // the text is extracted too, as a crawler does
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const loop = performance.eventLoopUtilization(loopBefore);
  await dispatcher.close();
  return {
    pages: urls.length,
    seconds,
    cpuMs: (cpu.user + cpu.system) / 1000,
    mainBusyMs: loop.active,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    detail: `undici request + cheerio.load + a[href] resolved + body text, concurrency ${CONCURRENCY}, no gzip; ${links} links`,
  };
}

function argument(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

if (process.argv[1] && resolve(process.argv[1]) === thisFile) {
  const args = process.argv.slice(2);
  const name = argument(args, '--case') as CaseName | undefined;
  const port = Number(argument(args, '--port'));
  const dir = argument(args, '--dir');
  if (!name || !CASES.includes(name) || !Number.isInteger(port) || !dir) {
    console.error(`usage: run-ts.js bench/crawl.bench.ts --case ${CASES.join('|')} --port P --dir D`);
    process.exit(2);
  }
  const figures = await runCase(name, port, dir);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
