/**
 * The search API under load: a 100k-page synthetic index served by the real app
 * (fastify, the search engine, snippets), 200 realistic queries sent round-robin by autocannon
 * over loopback; requests per second and latency percentiles.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { rankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { buildApp } from '../server/app.ts';
import type { BenchContext } from './run.ts';
import { benchmarkQueries, pages } from './text-index.bench.ts';

export async function searchHttpBenchmarks(bench: BenchContext, count = 100_000): Promise<void> {
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
