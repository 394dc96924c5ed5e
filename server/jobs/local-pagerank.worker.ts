/** Worker thread: computes one local PageRank and sends the vector back (transferred, not copied). */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { computeLocalPageRank, type LocalPageRankJob } from './local-pagerank-compute.ts';

// On Linux a thread has its own nice value (pid 0 is this thread): on a busy machine the
// server's main thread then gets the CPU first, and this background computation what is left.
try {
  setPriority(0, 19);
} catch {
  // Not permitted or not supported: the computation runs at the process's priority.
}
const rank = computeLocalPageRank(workerData as LocalPageRankJob);
parentPort!.postMessage(rank, [rank.buffer as ArrayBuffer]);
