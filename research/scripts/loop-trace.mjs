/**
 * Preloaded into `lse serve` by `update-pauses.ts serve` when LOOP_TRACE=1 (`node --import`):
 * reports on stderr each time the main thread's event loop was held more than 30 ms (a timer
 * every 5 ms that came late) and each garbage collection over 8 ms, with the time each ended, so
 * that the script can say what an answer over 50 ms waited behind. Lines:
 * - `LOOP-TRACE loop MS CPU WAIT AT`: of the MS, the main thread's time on a CPU and on the run
 *   queue (Linux's schedstat); the rest it was blocked, in a read from disk for one;
 * - `LOOP-TRACE gc MS KIND AT`: KIND 1 a scavenge, 4 incremental marking's finish, 2 a full
 *   collection.
 * AT is in ms since the epoch.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const TICK_MS = 5;
/** The main thread's time on a CPU and waiting on the run queue, in ms (Linux schedstat; zeros elsewhere). */
function schedulerTimes() {
  try {
    const [onCpu, waiting] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { onCpu: onCpu / 1e6, waiting: waiting / 1e6 };
  } catch {
    return { onCpu: 0, waiting: 0 };
  }
}
// Preloaded into the workers too (they inherit the flags): only the main thread answers searches.
if (isMainThread) traceLoop();

function traceLoop() {
  let last = performance.now();
  let lastTimes = schedulerTimes();
  setInterval(() => {
    const now = performance.now();
    const times = schedulerTimes();
    if (now - last - TICK_MS > 30) {
      const onCpu = (times.onCpu - lastTimes.onCpu).toFixed(1);
      const waiting = (times.waiting - lastTimes.waiting).toFixed(1);
      process.stderr.write(`LOOP-TRACE loop ${(now - last).toFixed(1)} ${onCpu} ${waiting} ${Math.round(performance.timeOrigin + now)}\n`);
    }
    last = now;
    lastTimes = times;
  }, TICK_MS).unref();

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration > 8) process.stderr.write(`LOOP-TRACE gc ${entry.duration.toFixed(1)} ${entry.detail?.kind ?? 0} ${Math.round(performance.timeOrigin + entry.startTime + entry.duration)}\n`);
    }
  }).observe({ entryTypes: ['gc'] });
}
