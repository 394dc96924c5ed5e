/**
 * Runs {@link computeLocalPageRank} in a worker thread, so that a server's event loop is not held
 * for the seconds a million-page PageRank takes. The edge arrays are shared memory, read by the
 * worker where they are (not transferred: see local-graph-rows.ts), and the vector is
 * transferred back (a detach in the worker's own isolate).
 */
import { Worker } from 'node:worker_threads';
import { startBackgroundWorker } from '../../indexer/thread-priority.ts';
import { typeScriptWorkerUrl } from '../../indexer/worker-bootstrap.ts';
import { LocalPageRankWorkerError } from '../errors.ts';
import type { LocalPageRankJob } from './local-pagerank-compute.ts';

const WORKER_BOOTSTRAP = typeScriptWorkerUrl(new URL('./local-pagerank.worker.ts', import.meta.url));

export function computeLocalPageRankInWorker(job: LocalPageRankJob): Promise<Float64Array> {
  return new Promise((resolve, reject) => {
    const worker = startBackgroundWorker(() => new Worker(WORKER_BOOTSTRAP, { workerData: job }));
    let settled = false;
    worker.once('message', (rank: Float64Array) => {
      settled = true;
      resolve(rank);
    });
    worker.once('error', (error) => {
      if (settled) return;
      settled = true;
      reject(Object.assign(new LocalPageRankWorkerError(error.message), { cause: error }));
    });
    worker.once('exit', (code) => {
      if (settled) return;
      settled = true;
      reject(new LocalPageRankWorkerError(`it exited with code ${code} before answering`));
    });
  });
}
