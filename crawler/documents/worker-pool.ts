/**
 * Document parsing off the crawl's process: a few child processes, each parsing one document at a
 * time under a time limit and two memory limits. Its worker thread has a V8 heap limit
 * (`resourceLimits`), which stops a document whose objects outgrow it within moments; the process
 * has the operating system's (RLIMIT_DATA, set with `ulimit -d` before it starts), which counts
 * what the heap limit does not, the typed arrays in which pdf.js and zip readers inflate streams,
 * so a decompression bomb fails its own allocation instead of growing the crawl to gigabytes. A process that runs out
 * of time is killed, one that runs out of memory fails or dies; either way the document fails
 * with the reason, a fresh process takes the next one, and the crawl goes on. At most
 * `workers × (memoryMb + STARTUP_MB)` MB are ever spent on documents, whatever they hold.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

/** What a parsing process says: an answer, that it is ready, or that its worker thread died (and it exits). */
export type WorkerMessage = WorkerResponse | { ready: true } | { fatal: 'memory' | 'worker'; message: string };

export interface DocumentPoolOptions {
  /** Parsing processes at most. */
  workers: number;
  /** Longest a document may take to parse. */
  timeoutMs: number;
  /** Memory a parsing process may use for its document, in MB (its V8 heap, and its data beyond start-up). */
  memoryMb: number;
  limits: OfficeLimits;
}

/** What a parsing process takes before its first document: Node, a worker thread, the TypeScript loader, pdf.js, mammoth (measured 156 MB of data). */
export const STARTUP_MB = 192;

interface Job {
  id: number;
  type: DocumentType;
  bytes: Uint8Array;
  url: string;
  resolve: (value: ExtractedDocument) => void;
  reject: (error: DocumentError) => void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** The last bytes of the process's stderr read so far (a phrase may span two reads). */
  stderrTail: string;
  /** Whether the process said on stderr that it ran out of memory (V8 prints that, then a stack). */
  saidOutOfMemory: boolean;
}

const ENTRY = fileURLToPath(new URL('./parse-process.mjs', import.meta.url));
/** The exit code of a parsing process whose shell could not set its memory limit. */
const NO_LIMIT_EXIT = 97;
/** How V8 and the C++ runtime say they could not allocate, on stderr before the process ends. */
const OUT_OF_MEMORY = /out of memory|allocation failed|std::bad_alloc|Cannot allocate/i;

export class DocumentPool {
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;

  constructor(private readonly options: DocumentPoolOptions) {}

  /** The process ids of the parsing processes (for watching their memory). */
  get processIds(): number[] {
    return [...this.#slots].map((slot) => slot.child.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Parses a document in a child process; rejects with a `DocumentError` saying why it could not. */
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
    const { memoryMb } = this.options;
    const dataKb = (memoryMb + STARTUP_MB) * 1024;
    // The limits are set by the shell that then becomes the process (exec), so they bind it from
    // its first instruction and it cannot raise them; no core file of a process that dies of them.
    const script = `ulimit -c 0; ulimit -d ${dataKb} || exit ${NO_LIMIT_EXIT}; exec "$0" "$@"`;
    const child = spawn('/bin/sh', ['-c', script, process.execPath, ENTRY, String(memoryMb)], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    const slot: Slot = { child, ready: false, stderrTail: '', saidOutOfMemory: false };
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      const seen = slot.stderrTail + text;
      slot.saidOutOfMemory ||= OUT_OF_MEMORY.test(seen);
      slot.stderrTail = seen.slice(-64);
    });
    this.#idle(slot);
    child.on('message', (message: WorkerMessage) => {
      if ('ready' in message) {
        slot.ready = true;
        if (slot.job) this.#send(slot, slot.job);
        return;
      }
      if ('fatal' in message) {
        void this.#retire(slot, message.fatal === 'memory' ? this.#memoryError() : new DocumentError('ELSE_DOCUMENT_WORKER', `the parser failed: ${message.message}`));
        return;
      }
      const job = slot.job;
      if (!job || message.id !== job.id) return;
      if (!message.ok && message.code === 'ELSE_DOCUMENT_MEMORY') {
        // A process that failed an allocation is replaced: what it holds is not worth keeping.
        void this.#retire(slot, this.#memoryError());
        return;
      }
      this.#finish(slot);
      if (message.ok) job.resolve(message.extracted);
      else job.reject(new DocumentError(isDocumentCode(message.code) ? message.code : 'ELSE_DOCUMENT_FORMAT', message.message));
      this.#pump();
    });
    child.on('error', (error) => {
      void this.#retire(slot, new DocumentError('ELSE_DOCUMENT_WORKER', `the parser failed: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      // stderr may still hold the last words of the process: read them once it is closed.
      const died = () => {
        const reason = slot.saidOutOfMemory
          ? this.#memoryError()
          : code === NO_LIMIT_EXIT
            ? new DocumentError('ELSE_DOCUMENT_WORKER', `the parsing process could not be given its ${dataKb} KB data-size limit (ulimit -d): documents are not read without it`)
            : new DocumentError('ELSE_DOCUMENT_WORKER', `the parser stopped (${signal ?? `exit code ${code}`})`);
        void this.#retire(slot, reason);
      };
      if (child.stderr!.closed) died();
      else child.stderr!.once('close', died);
    });
    this.#slots.add(slot);
    return slot;
  }

  #memoryError(): DocumentError {
    return new DocumentError('ELSE_DOCUMENT_MEMORY', `parsing needed more than the ${this.options.memoryMb} MB memory limit`);
  }

  #run(slot: Slot, job: Job): void {
    slot.job = job;
    this.#busy(slot);
    slot.timer = setTimeout(() => {
      void this.#retire(slot, new DocumentError('ELSE_DOCUMENT_TIMEOUT', `parsing took longer than ${this.options.timeoutMs} ms`));
    }, this.options.timeoutMs);
    if (slot.ready) this.#send(slot, job);
  }

  #send(slot: Slot, job: Job): void {
    // A copy goes to the process: the caller's buffer stays usable.
    const request: WorkerRequest = { id: job.id, type: job.type, bytes: job.bytes, url: job.url, limits: this.options.limits };
    slot.child.send(request);
  }

  #finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
    this.#idle(slot);
  }

  /** An idle process does not keep the crawl's process alive; a busy one does. */
  #idle(slot: Slot): void {
    slot.child.unref();
    slot.child.channel?.unref();
    (slot.child.stderr as unknown as { unref?: () => void }).unref?.();
  }

  #busy(slot: Slot): void {
    slot.child.ref();
    slot.child.channel?.ref();
    (slot.child.stderr as unknown as { ref?: () => void }).ref?.();
  }

  /** Ends a process: its document (if any) fails with `reason`; queued documents get a fresh process. */
  async #retire(slot: Slot, reason: DocumentError): Promise<void> {
    if (!this.#slots.delete(slot)) return;
    const job = slot.job;
    this.#finish(slot);
    job?.reject(reason);
    if (slot.child.exitCode === null && slot.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => slot.child.once('exit', () => resolve()));
      // Waited for, so held: an unreferenced process would let Node exit before it is gone.
      slot.child.ref();
      slot.child.kill('SIGKILL');
      await exited;
    }
    if (!this.#closed) this.#pump();
  }
}

function isDocumentCode(code: string): code is DocumentError['code'] {
  return code.startsWith('ELSE_DOCUMENT_');
}
