/**
 * Background jobs and searches on one server (issue: a re-crawl under search load took many
 * times as long as without). The docs site (bench/docs-site.ts: 3,200 pages of ~37 KB, its own
 * process) is crawled by `lse serve`'s job runner in this process, as an admin's
 * `POST /api/admin/crawls` or `/recrawls` runs it, while autocannon (its own process) sends
 * searches to the same server. Figures:
 *
 *   search alone      search p50/p99 and requests/s with no job running
 *   crawl             a crawl job of CRAWL_PAGES new pages (fetch, parse, store, index, local
 *                     PageRank): seconds alone, then under search load, with the search
 *                     p50/p99 while it ran and the main thread's event-loop utilisation
 *   recrawl           a re-crawl of RECRAWL_PAGES pages (every page re-fetched and re-indexed)
 *
 * `npm run bench -- job-load` (cases: crawl, recrawl; LSE_BENCH_LOADED_ONLY=1 skips the runs alone). A data directory with BASE_PAGES pages,
 * indexed, is made once; each case runs on a copy of it. Run the runner under `--cpu-prof` to
 * see where the main thread's time goes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadSettings } from '../config/load-settings.ts';
import type { Settings } from '../config/schema.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { rememberCrawlerSettings } from '../server/cli/crawl-setup.ts';
import { serveStore, type Serving } from '../server/cli/serve-command.ts';
import type { BenchContext } from './run.ts';
import { startServerProcess } from './crawl.bench.ts';
import { DOCS_HOST } from './docs-site.ts';

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
const runTsBin = join(repoRoot, 'bin', 'run-ts.js');
const thisFile = fileURLToPath(import.meta.url);
const docsSiteFile = join(repoRoot, 'bench', 'docs-site.ts');

// Smaller runs (profiles): LSE_BENCH_CRAWL_PAGES, LSE_BENCH_RECRAWL_PAGES.
const BASE_PAGES = 400;
const CRAWL_PAGES = Number(process.env.LSE_BENCH_CRAWL_PAGES ?? 600);
const RECRAWL_PAGES = Number(process.env.LSE_BENCH_RECRAWL_PAGES ?? 300);
const CONNECTIONS = 8;
const QUERIES = ['async hook', 'schema validation', 'timeout', 'promise callback', 'status code', 'stream buffer', 'plugin config', 'event listener'];

interface LoadFigures {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
}

export async function jobLoadBenchmarks(bench: BenchContext): Promise<void> {
  const site = await startServerProcess([runTsBin, docsSiteFile, '--port', '0']);
  const dir = mkdtempSync(join(tmpdir(), 'lse-job-load-'));
  try {
    const base = join(dir, 'base');
    const started = performance.now();
    await withServer(base, site.port, async (serving) => {
      await runJob(serving, '/api/admin/crawls', { maxPages: BASE_PAGES });
    });
    bench.heading(`jobs under search load: docs site (${DOCS_HOST}, pid ${site.child.pid}), base ${BASE_PAGES} pages indexed in ${((performance.now() - started) / 1000).toFixed(1)} s; load ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const rows: Array<Array<string | number>> = [['case', 'job s', 'main ELU', 'search req/s', 'search p50 ms', 'search p99 ms', 'search max ms', 'non-2xx']];
    await withServer(copyOf(base, join(dir, 'alone')), site.port, async (serving) => {
      const load = await searchLoad(serving.url);
      await sleep(10_000);
      const figures = await load.stop();
      rows.push(['search alone', '-', '-', round(figures.requests / figures.seconds, 0), figures.p50, figures.p99, figures.max, figures.non2xx]);
    });
    const jobs: Array<[string, string, Record<string, number | string>]> = [
      ['crawl', '/api/admin/crawls', { maxPages: BASE_PAGES + CRAWL_PAGES }],
      ['recrawl', '/api/admin/recrawls', { budget: RECRAWL_PAGES, policy: 'uniform' }],
    ];
    for (const [name, path, jobBody] of jobs) {
      if (!bench.wants(name)) continue;
      for (const loaded of process.env.LSE_BENCH_LOADED_ONLY ? [true] : [false, true]) {
        await withServer(copyOf(base, join(dir, `${name}-${loaded ? 'loaded' : 'alone'}`)), site.port, async (serving) => {
          const load = loaded ? await searchLoad(serving.url) : undefined;
          const elu = performance.eventLoopUtilization();
          const seconds = await runJob(serving, path, jobBody);
          const busy = performance.eventLoopUtilization(elu).utilization;
          const figures = await load?.stop();
          rows.push([
            `${name} ${loaded ? `+ search load (${CONNECTIONS} conn.)` : 'alone'}`,
            round(seconds, 1),
            round(busy, 2),
            figures ? round(figures.requests / figures.seconds, 0) : '-',
            figures?.p50 ?? '-',
            figures?.p99 ?? '-',
            figures?.max ?? '-',
            figures?.non2xx ?? '-',
          ]);
        });
      }
    }
    bench.table(rows);
    bench.note(`crawl: ${CRAWL_PAGES} new pages of ~37 KB; recrawl: ${RECRAWL_PAGES} pages re-fetched (uniform policy) and re-indexed; search: ${QUERIES.length} queries round-robin, ${CONNECTIONS} connections, autocannon in its own process`);
    bench.note(`load average after: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')} (2 cores shared with other work: compare rows of one run)`);
  } finally {
    site.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

function copyOf(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  return to;
}

async function withServer(dataDir: string, port: number, work: (serving: Serving) => Promise<void>): Promise<void> {
  const settings: Settings = loadSettings({
    env: {},
    overrides: {
      dataDir,
      crawler: { seeds: [`http://${DOCS_HOST}/`], scope: [`host:${DOCS_HOST}`], resolve: { [`${DOCS_HOST}:80`]: `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0, perHostConcurrency: 16, concurrency: 16 },
      schedules: { estimate: 'off' },
      server: { rateLimitPerMinute: 10_000_000 },
      index: { maxRemovedShare: 1 },
    },
  });
  const store = await CrawlStore.open(dataDir);
  await rememberCrawlerSettings(store, settings.crawler);
  const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: TOKEN });
  try {
    await work(serving);
  } finally {
    await serving.close();
    await store.close();
  }
}

const TOKEN = 'a-bench-admin-token-0123456789';

/** Submits a job through the admin API and waits for it; its seconds from start to finish. */
async function runJob(serving: Serving, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${serving.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const { id } = (await response.json()) as { id: string };
  if (response.status !== 202) throw new Error(`${path} answered ${response.status}`);
  await serving.runner.idle();
  const status = serving.runner.status(id)!;
  if (status.state !== 'done') throw new Error(`job ${id} ended ${status.state}: ${status.error}`);
  return (status.finishedAt! - status.startedAt!) / 1000;
}

/** Starts autocannon in its own process against the search API; stop() ends it and returns its figures. */
async function searchLoad(url: string): Promise<{ stop(): Promise<LoadFigures> }> {
  const child = spawn(process.execPath, [runTsBin, thisFile, '--load', url], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (output += chunk));
  await new Promise<void>((resolveStarted) => child.stdout!.on('data', () => output.includes('started') && resolveStarted()));
  return {
    stop: async () => {
      child.stdin!.end();
      await new Promise((resolveExit) => child.once('exit', resolveExit));
      return JSON.parse(output.trim().split('\n').pop()!) as LoadFigures;
    },
  };
}

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

// ---------------------------------------------------------------- the load process

if (process.argv.includes('--load')) {
  const url = process.argv[process.argv.indexOf('--load') + 1];
  const { default: autocannon } = await import('autocannon');
  const started = performance.now();
  const instance = autocannon(
    {
      url,
      connections: CONNECTIONS,
      duration: 3600,
      requests: QUERIES.map((q) => ({ method: 'GET' as const, path: `/api/search?q=${encodeURIComponent(q)}` })),
    },
    (error, result) => {
      if (error) throw error;
      const figures: LoadFigures = { requests: result.requests.total, seconds: (performance.now() - started) / 1000, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, non2xx: result.non2xx };
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      process.exit(0);
    },
  );
  process.stdout.write('started\n');
  process.stdin.resume();
  process.stdin.on('end', () => instance.stop());
}
