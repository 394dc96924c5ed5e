/**
 * The server's main thread answers searches; every other thread of its process works for it in
 * the background: V8's helpers (collections, compilation), libuv's pool (file writes, the store's
 * work) and the workers that build and merge segments. On Linux each thread has its own nice
 * value, and a process may lower its own threads' priority without privileges. Beside a 1 %
 * update at a million pages, the main thread spent 30-45 ms of a slow answer waiting on the run
 * queue while V8's four helper threads ran: lowering the builders alone did not change the
 * answers, lowering the helpers too did (the text index README's seventeenth round).
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import type { Worker } from 'node:worker_threads';

/** Nice value of the threads that are not the main thread (19 is the lowest priority). */
export const HELPER_THREAD_NICE = 10;
/** Nice value a background worker thread gives itself (segment builds and merges, local PageRank). */
export const BACKGROUND_THREAD_NICE = 19;

/**
 * Lowers every thread of this process but the main one to `nice` (never raises one already
 * lower); the number of threads lowered. Linux only: elsewhere, or where /proc cannot be read,
 * nothing changes and it returns 0. Threads started later inherit the main thread's priority.
 */
export function lowerHelperThreads(nice = HELPER_THREAD_NICE): number {
  if (process.platform !== 'linux') return 0;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const name of tids) {
    const tid = Number(name);
    if (!Number.isInteger(tid) || tid === process.pid) continue;
    try {
      if (getPriority(tid) >= nice) continue;
      setPriority(tid, nice);
      lowered++;
    } catch {
      // A thread that ended meanwhile, or a system that refuses: it keeps its priority.
    }
  }
  return lowered;
}

/** Lowers the calling thread (a worker's own thread: pid 0) to `nice`; false where refused. */
export function lowerThisThread(nice = BACKGROUND_THREAD_NICE): boolean {
  try {
    setPriority(0, nice);
    return true;
  } catch {
    return false;
  }
}

/** The ids of this process's threads (empty where /proc cannot be read). */
function threadIds(): Set<number> {
  try {
    return new Set(readdirSync('/proc/self/task').map(Number));
  } catch {
    return new Set();
  }
}

/**
 * Starts a worker (`start` calls `new Worker`, whose thread exists once it returns) and lowers its
 * thread to `nice` at once. A worker's own {@link lowerThisThread} runs only once its module does:
 * before that, its isolate, Node's bootstrap and tsx's loader thread (which inherits the worker's
 * priority) ran at the main thread's, and beside a 1 % update at a million pages the local
 * PageRank's worker starting so kept the main thread waiting on the run queue for 20-50 ms.
 */
export function startBackgroundWorker(start: () => Worker, nice = BACKGROUND_THREAD_NICE): Worker {
  if (process.platform !== 'linux') return start();
  const before = threadIds();
  const worker = start();
  for (const tid of threadIds()) {
    if (before.has(tid)) continue;
    try {
      if (getPriority(tid) < nice) setPriority(tid, nice);
    } catch {
      // Ended already, or refused: it lowers itself once its module runs.
    }
  }
  return worker;
}
