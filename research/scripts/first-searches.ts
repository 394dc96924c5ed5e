/**
 * The first searches of an index just opened, with and without warming its longest lists (the
 * text index README's eleventh round). Each run is a fresh process, alternating the two, because
 * what it measures is what a process has not yet read.
 *
 *   node bin/run-ts.js research/scripts/search-ab.ts pages FILE COUNT; node bin/lse.js import --data DIR FILE
 *   node bin/run-ts.js research/scripts/first-searches.ts DIR [RUNS] [WARM_MS]
 *
 * A run opens DIR as `lse serve` does, warms for WARM_MS (2,000) or not at all, then times the
 * 500 scale queries (the scale bench's first pass, without HTTP), 500 others never asked, and the
 * scale queries again (the bench's warm pass), printing p50 / p90 / p99 / longest of each, the
 * garbage collections of the opening and warming and of each pass, and the heap left after them.
 */
import { execFileSync } from 'node:child_process';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { resolve } from 'node:path';
import v8 from 'node:v8';
import { pathToFileURL } from 'node:url';
import { realWordTable, scaleQueries } from '../../bench/scale-corpus.ts';
import { latencyFigures, openSide } from './search-ab.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Collections since the last call: how many were major (mark-compact) and the pauses of all, summed. */
function collections(): () => string {
  let major = 0;
  let pauses = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
      pauses += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  return () => {
    const figures = `collections: ${major} major, ${pauses.toFixed(0)} ms of pauses`;
    major = pauses = 0;
    return figures;
  };
}

/** One process: open, warm for `warmMs` (0: not at all), time the two passes. */
async function oneRun(dataDir: string, warmMs: number): Promise<void> {
  const collected = collections();
  const side = await openSide(ROOT, dataDir, 'search');
  const started = performance.now();
  const warmed = warmMs > 0 ? JSON.stringify(await side.index.warmLongestLists(warmMs)) : 'no warming';
  const warmedMs = performance.now() - started;
  // The observer is told of collections on a later turn of the event loop.
  await new Promise((turn) => setTimeout(turn, 50));
  const line = [`warm ${warmMs} ms: ${warmed} in ${warmedMs.toFixed(0)} ms; since the start, ${collected()}`];
  const table = realWordTable();
  const scale = scaleQueries(table, 500);
  const passes = [['scale queries', scale], ['new queries', scaleQueries(table, 500, 1_001)], ['scale queries again', scale]] as const;
  for (const [name, queries] of passes) {
    const times: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      JSON.stringify(await side.answer(q));
      times.push(performance.now() - t);
    }
    await new Promise((turn) => setTimeout(turn, 50));
    line.push(`${name}: ${latencyFigures(times)}; ${collected()}`);
  }
  // What the heap holds once the passes' garbage is collected (runs spawned by this script can).
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  line.push(`heap used ${(v8.getHeapStatistics().used_heap_size / 1e6).toFixed(0)} MB${collect ? ' after a full collection' : ', garbage included (run with --expose-gc)'}`);
  console.log(line.join('\n  '));
  process.exit(0);
}

const [dir, runs = '4', warm = '2000', one] = process.argv.slice(2);
if (dir === undefined) {
  console.error('usage: first-searches.ts DIR [RUNS] [WARM_MS]');
  process.exit(2);
}
if (one === 'one') await oneRun(resolve(dir), Number(warm));
else {
  const script = pathToFileURL(import.meta.filename).pathname;
  for (let run = 0; run < Number(runs); run++) {
    const warmMs = run % 2 === 0 ? warm : '0';
    process.stdout.write(execFileSync(process.execPath, ['--expose-gc', resolve(ROOT, 'bin/run-ts.js'), script, dir, '1', warmMs, 'one'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  }
}
