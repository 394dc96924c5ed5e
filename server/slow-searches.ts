/**
 * The slow-search log, as Elasticsearch's search slow log or Solr's `slowQueryThresholdMillis`: a
 * search or suggestion that took the server more than `server.slowSearchMs` is logged (warn, with
 * its URL) with where that time went on the thread that answers it:
 * - `cpuMs`: on a CPU; `runQueueMs`: ready to run but waiting for a CPU (Linux's schedstat of
 *   the thread, which the kernel brings up to date at each switch and scheduler tick: right to a
 *   few ms; absent elsewhere);
 * - `fileReads`: the index's reads of its own files, their number, bytes and time (a read the
 *   page cache could not serve waits for the disk);
 * - `gcMs`: garbage collection pauses of the thread within it;
 * - `turnMs`: the wait for its turn beside a running job (see search-turns.ts);
 * - `searchMs` and `searchCpuMs`: from its turn to its answer made, the search alone: nothing
 *   else runs on the thread in between (the engine awaits no I/O). The whole's other figures also
 *   count what the thread ran around it: a job's steps in its turn, or before its answer was sent.
 * The rest is time the thread was blocked otherwise. Counting costs four reads of a /proc file a
 * search (about a microsecond each).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileReadsSoFar, type FileReads } from '../indexer/text-index/file-reads.ts';

export interface SlowSearch {
  ms: number;
  cpuMs?: number;
  runQueueMs?: number;
  fileReads: FileReads;
  gcMs: number;
  turnMs?: number;
  searchMs?: number;
  searchCpuMs?: number;
}

/** Where one search's time went so far: taken when it starts, read when it ends. */
export interface SearchMark {
  at: number;
  thread: ThreadTimes | undefined;
  reads: FileReads;
  /** When its turn came (its handler began) and when its answer was made. */
  handler?: { at: number; thread: ThreadTimes | undefined };
  answered?: { at: number; thread: ThreadTimes | undefined };
}

interface ThreadTimes {
  cpuMs: number;
  runQueueMs: number;
}

/** Collections remembered to charge to the searches that saw them. */
const KEPT_COLLECTIONS = 64;

export class SlowSearchLog {
  /** This thread's schedstat, kept open (a read of an open file is a microsecond; opening it is twenty). */
  readonly #schedstat: number | undefined;
  readonly #buffer = Buffer.alloc(96);
  readonly #collections: Array<{ start: number; end: number }> = [];
  readonly #observer: PerformanceObserver;

  constructor(readonly thresholdMs: number) {
    this.#schedstat = openSchedstat();
    this.#observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        this.#collections.push({ start: entry.startTime, end: entry.startTime + entry.duration });
        if (this.#collections.length > KEPT_COLLECTIONS) this.#collections.shift();
      }
    });
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  mark(): SearchMark {
    return { at: performance.now(), thread: this.#threadTimes(), reads: fileReadsSoFar() };
  }

  /** Marks the start of the search's handler (after its turn) or the answer it made. */
  markStep(mark: SearchMark, step: 'handler' | 'answered'): void {
    mark[step] = { at: performance.now(), thread: this.#threadTimes() };
  }

  /**
   * The search's figures when it took over the threshold, else undefined. Collections are
   * reported to observers after they end, so `done` is called a moment later with them counted.
   */
  measure(mark: SearchMark, turnMs: number | undefined, done: (slow: SlowSearch) => void): void {
    const end = performance.now();
    const ms = end - mark.at;
    if (ms <= this.thresholdMs) return;
    const thread = this.#threadTimes();
    const reads = fileReadsSoFar();
    const slow: SlowSearch = {
      ms: round(ms),
      fileReads: { count: reads.count - mark.reads.count, bytes: reads.bytes - mark.reads.bytes, ms: round(reads.ms - mark.reads.ms) },
      gcMs: 0,
    };
    if (thread && mark.thread) {
      slow.cpuMs = round(thread.cpuMs - mark.thread.cpuMs);
      slow.runQueueMs = round(thread.runQueueMs - mark.thread.runQueueMs);
    }
    if (turnMs !== undefined) slow.turnMs = round(turnMs);
    const { handler, answered } = mark;
    if (handler && answered) {
      slow.searchMs = round(answered.at - handler.at);
      if (handler.thread && answered.thread) slow.searchCpuMs = round(answered.thread.cpuMs - handler.thread.cpuMs);
    }
    setTimeout(() => {
      let gc = 0;
      for (const { start, end: stop } of this.#collections) gc += Math.max(0, Math.min(stop, end) - Math.max(start, mark.at));
      slow.gcMs = round(gc);
      done(slow);
    }, 20).unref();
  }

  close(): void {
    this.#observer.disconnect();
    if (this.#schedstat !== undefined) closeSync(this.#schedstat);
  }

  #threadTimes(): ThreadTimes | undefined {
    if (this.#schedstat === undefined) return undefined;
    try {
      const n = readSync(this.#schedstat, this.#buffer, 0, this.#buffer.length, 0);
      const [onCpu, waiting] = this.#buffer.toString('latin1', 0, n).split(' ').map(Number);
      return { cpuMs: onCpu / 1e6, runQueueMs: waiting / 1e6 };
    } catch {
      return undefined;
    }
  }
}

/** The calling thread's own schedstat (Linux; undefined elsewhere or without schedstats). */
function openSchedstat(): number | undefined {
  try {
    return openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;
