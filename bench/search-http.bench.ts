/**
 * The search API under load: 1,200 long pages of real multilingual text (cases `long-pages`), and
 * a 100k-page synthetic index (`synthetic`), served by the real app (fastify, the search engine,
 * snippets), queries sent round-robin by autocannon over loopback; requests per second and
 * latency percentiles.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { rankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { buildApp } from '../server/app.ts';
import type { BenchContext } from './run.ts';
import { debianDocs } from '../test/helpers/debian-docs.ts';
import { debianCorpus, sampleWords } from './multilingual-recall.ts';
import { benchmarkQueries, pages } from './text-index.bench.ts';

export async function searchHttpBenchmarks(bench: BenchContext, count = 100_000): Promise<void> {
  if (bench.wants('long-pages')) await longPagesBenchmark(bench);
  if (bench.wants('synthetic')) await syntheticBenchmark(bench, count);
}

/**
 * The case for snippets: 1,000+ long pages of real text (the Debian Reference and FAQ in
 * 11 languages, 30–300 KB of HTML each, copied under several folders as sites copy pages into
 * language folders), the real app, size 10, one connection: p50 and p99, index build and size.
 */
async function longPagesBenchmark(bench: BenchContext): Promise<void> {
  const { docs } = debianCorpus();
  if (docs.length === 0) {
    bench.note('long pages: the Debian documentation is not installed (.ci/run installs it); skipped');
    return;
  }
  const copies = Math.ceil(1_200 / docs.length);
  const pagesOf = () =>
    Array.from({ length: copies }, (_, copy) => docs.map((doc) => ({ ...doc, id: copy * docs.length + doc.id, url: doc.url.replace('http://docs.test/', `http://docs.test/copy-${copy}/`) }))).flat();
  const all = pagesOf();
  const htmlBytes = debianDocs().reduce((sum, doc) => sum + statSync(doc.path).size, 0) * copies;
  const queries = multilingualQueries(docs);
  bench.heading(`search API over HTTP, long pages: ${all.length.toLocaleString('en-US')} pages (${(htmlBytes / 1e6).toFixed(0)} MB of HTML, Debian docs in 11 languages), ${queries.length} queries, size 10`);
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-long-'));
  const index = await TextIndex.open(dir);
  try {
    const started = performance.now();
    await index.rebuild(all);
    const buildSeconds = (performance.now() - started) / 1000;
    const diskMb = directorySize(join(dir, 'index')) / 1e6;
    const ids = all.map((doc) => doc.id);
    const ranks = ids.map((i) => 1 / (1 + (i % 997)));
    const engine = new SearchEngine(index, rankSnapshot(1, ids, ranks, ranks), { blend: 'log-linear', weight: 0.3 });
    const inProcess = await searchInProcess(engine, queries, 5);
    const app = await buildApp({ search: engine, logger: false, rateLimitPerMinute: 1_000_000_000 });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const paths = queries.map((q) => `/api/search?q=${encodeURIComponent(q)}&size=10`);
    let next = 0;
    const result = await autocannon({ url, connections: 1, duration: 10, requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }] });
    bench.table([
      ['pages', 'build s', 'index MB', 'requests/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx'],
      [all.length, buildSeconds.toFixed(1), diskMb.toFixed(0), result.requests.average, result.latency.p50, result.latency.p99, result.errors, result.non2xx],
    ]);
    bench.note(`in the process, ${queries.length} queries × 5: CPU ${inProcess.cpuMs.toFixed(2)} ms per search, p50 ${inProcess.p50.toFixed(2)} ms, p99 ${inProcess.p99.toFixed(2)} ms`);
    await app.close();
  } finally {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The engine alone, `rounds` times over the queries: CPU time per search (user + system) and wall-time percentiles. */
async function searchInProcess(engine: SearchEngine, queries: readonly string[], rounds: number): Promise<{ cpuMs: number; p50: number; p99: number }> {
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const started = performance.now();
      await engine.search({ q, page: 1, size: 10, rank: 'blend', explain: false });
      times.push(performance.now() - started);
    }
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.floor(q * (times.length - 1))];
  return { cpuMs: (used.user + used.system) / 1000 / times.length, p50: at(0.5), p99: at(0.99) };
}

/** Words and word pairs sampled from every language's pages. */
export function multilingualQueries(docs: ReturnType<typeof debianCorpus>['docs']): string[] {
  const queries: string[] = [];
  const langs = [...new Set(docs.map((doc) => doc.lang ?? 'en'))].filter((lang) => lang !== 'und').sort();
  for (const lang of langs) {
    const words = sampleWords(docs.filter((doc) => doc.lang === lang).map((doc) => doc.text), lang, 20, 7);
    words.forEach((word, i) => queries.push(i % 3 === 2 && i > 0 ? `${words[i - 1]} ${word}` : word));
  }
  return queries;
}

function directorySize(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

async function syntheticBenchmark(bench: BenchContext, count: number): Promise<void> {
  bench.heading(`search API over HTTP: ${count.toLocaleString('en-US')} pages, 200 queries round-robin (autocannon, 10 s per run)`);
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-http-'));
  const index = await TextIndex.open(dir);
  try {
    await index.rebuild(pages(count));
    // Every page gets a rank, so the blend does its full work.
    const ids = Array.from({ length: count }, (_, i) => i);
    const ranks = ids.map((i) => 1 / (1 + (i % 997)));
    const engine = new SearchEngine(index, rankSnapshot(1, ids, ranks, ranks), { blend: 'log-linear', weight: 0.3 });
    const app = await buildApp({ search: engine, logger: false, rateLimitPerMinute: 1_000_000_000 });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const queries = benchmarkQueries().map((q) => `/api/search?q=${encodeURIComponent(q)}&size=10`);
    const rows: Array<Array<string | number>> = [['connections', 'requests/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx']];
    for (const connections of [1, 10]) {
      let next = 0;
      const result = await autocannon({
        url,
        connections,
        duration: 10,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: queries[next++ % queries.length] }) }],
      });
      rows.push([connections, result.requests.average, result.latency.p50, result.latency.p99, result.errors, result.non2xx]);
    }
    bench.table(rows);
    await app.close();
  } finally {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
