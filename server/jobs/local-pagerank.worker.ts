/** Worker thread: computes one local PageRank and sends the vector back (transferred, not copied). */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from '../../indexer/thread-priority.ts';
import { computeLocalPageRank, type LocalPageRankJob } from './local-pagerank-compute.ts';

// Below the server's main thread: on a busy machine searches get the CPU first (thread-priority.ts).
lowerThisThread();
const rank = computeLocalPageRank(workerData as LocalPageRankJob);
parentPort!.postMessage(rank, [rank.buffer as ArrayBuffer]);
