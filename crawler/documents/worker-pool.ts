/**
 * Document parsing off the crawl's thread: a few worker threads, each parsing one document at a
 * time under a time limit and a V8 heap limit (`resourceLimits`). A worker that runs out of time
 * is terminated, one that runs out of memory dies; either way the document fails with the
 * reason, a fresh worker takes the next one, and the crawl goes on.
 */
import { Worker } from 'node:worker_threads';
import type { OfficeLimits } from './office.ts';
import { DocumentError, type DocumentType, type ExtractedDocument } from './types.ts';

export interface WorkerRequest {
  id: number;
  type: DocumentType;
  bytes: Uint8Array;
  url: string;
  limits: OfficeLimits;
}

export type WorkerResponse = { id: number; ok: true; extracted: ExtractedDocument } | { id: number; ok: false; code: string; message: string };

export interface DocumentPoolOptions {
  /** Worker threads at most. */
  workers: number;
  /** Longest a document may take to parse. */
  timeoutMs: number;
  /** V8 old-generation heap of a worker, in MB. */
  memoryMb: number;
  limits: OfficeLimits;
}

interface Job {
  id: number;
  type: DocumentType;
  bytes: Uint8Array;
  url: string;
  resolve: (value: ExtractedDocument) => void;
  reject: (error: DocumentError) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

const ENTRY = new URL('./worker-entry.mjs', import.meta.url);

export class DocumentPool {
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;

  constructor(private readonly options: DocumentPoolOptions) {}

  /** Parses a document in a worker; rejects with a `DocumentError` saying why it could not. */
  extract(type: DocumentType, bytes: Uint8Array, url: string): Promise<ExtractedDocument> {
    if (this.#closed) return Promise.reject(new DocumentError('ELSE_DOCUMENT_WORKER', 'the document pool is closed'));
    return new Promise<ExtractedDocument>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, type, bytes, url, resolve, reject });
      this.#pump();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new DocumentError('ELSE_DOCUMENT_WORKER', 'the document pool is closed'));
    await Promise.all([...this.#slots].map((slot) => this.#retire(slot, new DocumentError('ELSE_DOCUMENT_WORKER', 'the document pool is closed'))));
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let slot = [...this.#slots].find((s) => s.job === undefined);
      if (!slot) {
        if (this.#slots.size >= this.options.workers) return;
        slot = this.#spawn();
      }
      this.#run(slot, this.#queue.shift()!);
    }
  }

  #spawn(): Slot {
    const worker = new Worker(ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, this.options.memoryMb / 8)), stackSizeMb: 4 },
    });
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (response: WorkerResponse) => {
      const job = slot.job;
      if (!job || response.id !== job.id) return;
      this.#finish(slot);
      if (response.ok) job.resolve(response.extracted);
      else job.reject(new DocumentError(isDocumentCode(response.code) ? response.code : 'ELSE_DOCUMENT_FORMAT', response.message));
      this.#pump();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      void this.#retire(slot, new DocumentError(memory ? 'ELSE_DOCUMENT_MEMORY' : 'ELSE_DOCUMENT_WORKER', memory ? `parsing needed more than the ${this.options.memoryMb} MB memory limit` : `the parser failed: ${error.message}`));
    });
    worker.on('exit', () => {
      void this.#retire(slot, new DocumentError('ELSE_DOCUMENT_WORKER', 'the parser stopped'));
    });
    this.#slots.add(slot);
    return slot;
  }

  #run(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      void this.#retire(slot, new DocumentError('ELSE_DOCUMENT_TIMEOUT', `parsing took longer than ${this.options.timeoutMs} ms`));
    }, this.options.timeoutMs);
    // A copy goes to the worker: the caller's buffer stays usable.
    const request: WorkerRequest = { id: job.id, type: job.type, bytes: job.bytes, url: job.url, limits: this.options.limits };
    slot.worker.postMessage(request);
  }

  #finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    slot.worker.unref();
  }

  /** Ends a worker: its document (if any) fails with `reason`; queued documents get a fresh worker. */
  async #retire(slot: Slot, reason: DocumentError): Promise<void> {
    if (!this.#slots.delete(slot)) return;
    const job = slot.job;
    this.#finish(slot);
    job?.reject(reason);
    await slot.worker.terminate().catch(() => {});
    if (!this.#closed) this.#pump();
  }
}

function isDocumentCode(code: string): code is DocumentError['code'] {
  return code.startsWith('ELSE_DOCUMENT_');
}
