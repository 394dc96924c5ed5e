/**
 * What `lse serve` does before it answers, phase by phase, on a data directory of N pushed pages
 * (`lse import` of ~250-word pages, as the scale benchmark makes them): open the store (its URL
 * table), open the text index, catch the index up with the store, read the ranks, load the page
 * facts (with the heap they hold) and the suggestions. Run with `node --expose-gc` for the heap.
 *
 *   node --expose-gc bin/run-ts.js bench/run.ts startup            100k pages
 *   LSE_BENCH_STARTUP_SIZES=1000000 node --expose-gc bin/run-ts.js bench/run.ts startup
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPageFacts } from '../indexer/ranking/page-facts.ts';
import { loadSearchData } from '../indexer/ranking/search-data.ts';
import { loadRankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { catchUpWithStore } from '../indexer/text-index/catch-up.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import type { BenchContext } from './run.ts';
import { realWordTable, writeScalePages } from './scale-corpus.ts';
import { freePort } from './scale.bench.ts';

const LSE = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'lse.js');

export async function startupBenchmarks(bench: BenchContext): Promise<void> {
  const sizes = (process.env.LSE_BENCH_STARTUP_SIZES ?? '100000').split(',').map(Number).filter((n) => n > 0);
  bench.heading('lse serve start-up by phase, on pages pushed with lse import (seconds; heap in MB)');
  if (!globalThis.gc) bench.note('heap figures need node --expose-gc');
  const rows: Array<Array<string | number>> = [['pages', 'import s', 'open store', 'open index', 'catch-up (pages read)', 'ranks', 'page facts', 'facts heap MB', 'facts + suggestions', 'total', 'heap after MB', 'lse serve ready s']];
  for (const count of sizes) rows.push(await startupCase(count));
  bench.table(rows);
}

const heapMb = () => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1e6;
};

async function startupCase(count: number): Promise<Array<string | number>> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-startup-'));
  try {
    const dataDir = join(dir, 'data');
    const pages = join(dir, 'pages.jsonl');
    await writeScalePages(pages, realWordTable(), count);
    const config = join(dir, 'lse.json');
    const port = await freePort();
    writeFileSync(config, JSON.stringify({ dataDir, schedules: { estimate: 'off' }, server: { port } }));
    let started = performance.now();
    const run = spawnSync(process.execPath, [LSE, 'import', '--config', config, pages], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (run.status !== 0) throw new Error(`lse import failed: ${run.stderr.slice(-2000)}`);
    const importSeconds = (performance.now() - started) / 1000;
    const row = await startupPhases(dataDir);
    return [count, importSeconds.toFixed(0), ...row, (await serveReadySeconds(config, port)).toFixed(1)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The phases in this process; the store and index are closed after. */
async function startupPhases(dataDir: string): Promise<string[]> {
  const phases: number[] = [];
  const phase = async <T>(work: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    const result = await work();
    phases.push((performance.now() - at) / 1000);
    return result;
  };
  const baseHeap = heapMb();
  const started = performance.now();
  const store = await phase(() => CrawlStore.open(dataDir));
  try {
    const index = await phase(() => TextIndex.open(dataDir, {}));
    try {
      const report = (await phase(() => catchUpWithStore(store, index, { maxRemovedShare: 0.1 }))) as { checked?: number };
      const ranks = await phase(() => loadRankSnapshot(store));
      const beforeFacts = heapMb();
      let facts: unknown = await phase(() => loadPageFacts(store));
      const factsHeap = heapMb() - beforeFacts;
      facts = undefined;
      const engine = new SearchEngine(index, ranks, { blend: 'log-linear', weight: 0.3 });
      await phase(() => loadSearchData(engine, store));
      const total = (performance.now() - started) / 1000;
      return [...phases.slice(0, 2).map((s) => s.toFixed(1)), `${phases[2].toFixed(1)} (${report.checked ?? 'all'})`, phases[3].toFixed(1), phases[4].toFixed(1), factsHeap.toFixed(0), phases[5].toFixed(1), total.toFixed(1), (heapMb() - baseHeap).toFixed(0)];
    } finally {
      await index.close();
    }
  } finally {
    await store.close();
  }
}

/** Seconds from starting `lse serve` until /healthz answers. */
async function serveReadySeconds(config: string, port: number): Promise<number> {
  const started = performance.now();
  const server = spawn(process.execPath, [LSE, 'serve', '--config', config], { env: { ...process.env, LSE_ADMIN_TOKEN: 'a-bench-admin-token-0123456789abcdef' }, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (;;) {
      if (server.exitCode !== null) throw new Error(`lse serve exited with ${server.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return (performance.now() - started) / 1000;
      } catch {
        // not listening yet
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  } finally {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
}
