/** Event-loop pauses of a piece of work, as a server answering beside it would see them. */

/**
 * Total seconds; the longest gap between 1-ms timer callbacks and the gaps over 50 ms; and the
 * most CPU time the process used within one gap (all its threads): on a loaded machine a long gap
 * with little CPU in it is the process waiting for a core, not work that holds the event loop.
 */
export async function measurePauses(run: () => Promise<unknown>): Promise<{ seconds: number; longest: number; over50: number; busiest: number }> {
  let longest = 0;
  let over50 = 0;
  let busiest = 0;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const gap = now - last;
    if (gap > longest) longest = gap;
    if (gap > 50) over50++;
    busiest = Math.max(busiest, (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000);
    last = now;
    lastCpu = cpu;
  }, 1);
  const started = performance.now();
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  const end = performance.now();
  // The stretch from the last callback to the end counts too (a pause the timer could not see end).
  const cpu = process.cpuUsage();
  longest = Math.max(longest, end - last);
  busiest = Math.max(busiest, (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000);
  return { seconds: (end - started) / 1000, longest, over50, busiest };
}
