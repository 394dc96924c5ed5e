/**
 * A small pool of worker threads that build segments, one job per worker at a time. Size 0 builds
 * on the calling thread (same code, used by tests to compare and where workers are unwanted).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { startBackgroundWorker } from '../thread-priority.ts';
import { typeScriptWorkerUrl } from '../worker-bootstrap.ts';
import { buildAndWriteSegment } from './build-segment.ts';
import type { TextDocument } from './document.ts';
import { SegmentBuildError } from './errors.ts';
import { mergeAndWriteSegment, type MergeSourceSpec } from './merge-segment.ts';

/** Build a segment from documents, or merge segments on disk (`sources`) into one. */
export type SegmentJob = { jobId: number; directory: string; name: string } & ({ documents: TextDocument[] } | { sources: MergeSourceSpec[] });

export type SegmentJobResult = { jobId: number; ok: true } | { jobId: number; ok: false; message: string };

interface PendingJob {
  job: SegmentJob;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  running: PendingJob | null;
}

const WORKER_BOOTSTRAP = typeScriptWorkerUrl(new URL('./segment-builder.worker.ts', import.meta.url));

export class SegmentBuilderPool {
  readonly size: number;
  private readonly workers: PoolWorker[] = [];
  private readonly queue: PendingJob[] = [];
  private nextJobId = 1;
  private closed = false;

  constructor(size = Math.min(2, availableParallelism())) {
    this.size = Math.max(0, Math.floor(size));
  }

  /**
   * Builds and writes one segment; resolves once its files are durable. Nothing of it comes back
   * to the calling thread: the index opens it from its files (segment-files.ts `openSegment`).
   */
  async build(directory: string, name: string, documents: TextDocument[]): Promise<void> {
    if (this.size === 0 && !this.closed) await buildAndWriteSegment(directory, name, documents);
    else await this.submit({ jobId: this.nextJobId++, directory, name, documents });
  }

  /** Merges segments on disk into a new one (merge-segment.ts); resolves once its files are durable. */
  async merge(directory: string, name: string, sources: MergeSourceSpec[]): Promise<void> {
    if (this.size === 0 && !this.closed) await mergeAndWriteSegment(directory, name, sources);
    else await this.submit({ jobId: this.nextJobId++, directory, name, sources });
  }

  private submit(job: SegmentJob): Promise<void> {
    if (this.closed) return Promise.reject(new SegmentBuildError('the segment builder pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  /** Jobs waiting or running (callers use it to bound how many documents are in flight). */
  get pending(): number {
    return this.queue.length + this.workers.filter((w) => w.running).length;
  }

  /**
   * Stops the workers that have no job: their heaps, and the garbage of their last jobs, are
   * freed now rather than at their next collection. The pool stays open; jobs start new workers.
   */
  async releaseIdle(): Promise<void> {
    const idle = this.workers.filter((w) => w.running === null);
    for (const entry of idle) this.workers.splice(this.workers.indexOf(entry), 1);
    await Promise.all(idle.map((w) => w.worker.terminate()));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new SegmentBuildError('the segment builder pool was closed'));
    await Promise.all(this.workers.splice(0).map((w) => w.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let idle = this.workers.find((w) => w.running === null);
      if (!idle && this.workers.length < this.size) idle = this.startWorker();
      if (!idle) return;
      const pending = this.queue.shift()!;
      idle.running = pending;
      idle.worker.ref();
      idle.worker.postMessage(pending.job);
    }
  }

  private startWorker(): PoolWorker {
    const worker = startBackgroundWorker(() => new Worker(WORKER_BOOTSTRAP, { resourceLimits: { maxYoungGenerationSizeMb: 64 } }));
    const entry: PoolWorker = { worker, running: null };
    worker.on('message', (result: SegmentJobResult) => {
      const pending = entry.running;
      entry.running = null;
      // An idle worker must not keep the process alive.
      worker.unref();
      if (pending && pending.job.jobId === result.jobId) {
        if (result.ok) pending.resolve();
        else pending.reject(new SegmentBuildError(`${'sources' in pending.job ? 'merging' : 'building'} segment ${pending.job.name} failed: ${result.message}`));
      }
      this.dispatch();
    });
    const fail = (error: Error) => {
      const index = this.workers.indexOf(entry);
      if (index >= 0) this.workers.splice(index, 1);
      entry.running?.reject(new SegmentBuildError(`segment worker failed: ${error.message}`, { cause: error }));
      entry.running = null;
      if (!this.closed) this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (code !== 0 && !this.closed) fail(new Error(`exited with code ${code}`));
      else {
        const index = this.workers.indexOf(entry);
        if (index >= 0) this.workers.splice(index, 1);
      }
    });
    this.workers.push(entry);
    return entry;
  }
}
