/**
 * Worker thread that builds and merges segments (analysis and merging are CPU-bound and synchronous). Runs under tsx:
 * the pool starts it with tsx's loader in execArgv.
 */
import { parentPort } from 'node:worker_threads';
import { buildAndWriteSegment } from './build-segment.ts';
import { mergeAndWriteSegment } from './merge-segment.ts';
import { lowerThisThread } from '../thread-priority.ts';
import type { SegmentJob, SegmentJobResult } from './segment-builder-pool.ts';

if (!parentPort) throw new Error('segment-builder.worker.ts must run as a worker thread');
const port = parentPort;
// Below the server's main thread: builds and merges take what searches leave of the CPU.
lowerThisThread();

port.on('message', (job: SegmentJob) => {
  const work = 'sources' in job ? mergeAndWriteSegment(job.directory, job.name, job.sources) : buildAndWriteSegment(job.directory, job.name, job.documents);
  work.then(
    () => {
      // The files are written: the index opens the segment from them, nothing else crosses over.
      const result: SegmentJobResult = { jobId: job.jobId, ok: true };
      port.postMessage(result);
    },
    (error: unknown) => {
      const result: SegmentJobResult = { jobId: job.jobId, ok: false, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
      port.postMessage(result);
    },
  );
});
