/**
 * Preloaded into `lse serve` by `update-pauses.ts serve` when LOOP_TRACE=1 (`node --import`):
 * reports on stderr each time the main thread's event loop was held more than 30 ms (a timer
 * every 5 ms that came late) and each garbage collection over 8 ms, with the time each ended, so
 * that the script can say what an answer over 50 ms waited behind. Lines: `LOOP-TRACE loop MS AT`
 * and `LOOP-TRACE gc MS KIND AT` (AT in ms since the epoch; KIND 1 a scavenge, 4 incremental
 * marking's finish, 2 a full collection).
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';

const TICK_MS = 5;
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - last - TICK_MS > 30) process.stderr.write(`LOOP-TRACE loop ${(now - last).toFixed(1)} ${Math.round(performance.timeOrigin + now)}\n`);
  last = now;
}, TICK_MS).unref();

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.duration > 8) process.stderr.write(`LOOP-TRACE gc ${entry.duration.toFixed(1)} ${entry.detail?.kind ?? 0} ${Math.round(performance.timeOrigin + entry.startTime + entry.duration)}\n`);
  }
}).observe({ entryTypes: ['gc'] });
