/**
 * The server's threads by priority (Linux): a worker that builds segments runs at 19 from its
 * start, with the threads it starts, and lowerHelperThreads lowers every other thread but the
 * main one, never raising one already lower. Read from /proc in a child process, so that the test runner's own threads keep theirs.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

interface Report {
  main: string;
  start: Record<string, number>;
  built: Record<string, number>;
  lowered: number;
  after: Record<string, number>;
}

describe.runIf(process.platform === 'linux')('thread priorities', () => {
  it('leave the main thread first, the helpers below it, and the segment builders last', async () => {
    const script = fileURLToPath(new URL('./helpers/thread-nice-report.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { timeout: 60_000 });
    const report = JSON.parse(stdout) as Report;
    const others = (nice: Record<string, number>) => Object.entries(nice).filter(([tid]) => tid !== report.main);
    // At the start every thread has the process's priority.
    expect(Object.values(report.start).every((nice) => nice === report.start[report.main])).toBe(true);
    // The builder's thread was lowered as it started, with every thread it started (tsx's loader);
    // no thread it did not start changed.
    const started = others(report.built).filter(([tid]) => !(tid in report.start));
    const builders = started.filter(([, nice]) => nice === 19);
    expect(builders.length).toBeGreaterThanOrEqual(1);
    expect(started.every(([, nice]) => nice === 19)).toBe(true);
    expect(others(report.built).filter(([tid]) => tid in report.start).every(([, nice]) => nice === report.start[report.main])).toBe(true);
    // Then every other thread but the main one is at 10 at least, and the builder still at 19.
    expect(report.after[report.main]).toBe(report.start[report.main]);
    if (report.start[report.main] < 10) expect(report.lowered).toBeGreaterThan(0);
    expect(others(report.after).every(([, nice]) => nice >= 10)).toBe(true);
    expect(report.after[builders[0][0]]).toBe(19);
  });
});
