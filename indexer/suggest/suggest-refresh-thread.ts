/**
 * A server's refresh of the suggestions after an update, in a worker thread. The refresh decodes
 * the saved page contributions (hundreds of megabytes at a million pages), replaces the written
 * pages' rows, ranks every word and title and writes both files again: on the main thread, half
 * of a 1 % update's job at a million pages (35 of 70-78 s), allocating and dropping most of a
 * gigabyte beside the searches. The main thread reads the written pages from the
 * store (a worker cannot open it) and sends them; the worker sends back the index's arrays,
 * transferred, not copied.
 */
import { Worker } from 'node:worker_threads';
import type { RankColumn } from '../ranking/rank-column.ts';
import { StringColumn } from '../text-index/string-column.ts';
import { TermDictionary } from '../text-index/term-dictionary.ts';
import { startBackgroundWorker } from '../thread-priority.ts';
import { typeScriptWorkerUrl } from '../worker-bootstrap.ts';
import { SuggestIndex, type SuggestColumns, type SuggestSource } from './suggest-index.ts';
import type { SavedRefresh } from './suggest-refresh.ts';

const WORKER_BOOTSTRAP = typeScriptWorkerUrl(new URL('./suggest-refresh.worker.ts', import.meta.url));

/** Pages a message carries (a few megabytes of text: each message is copied on the main thread). */
const PAGES_PER_MESSAGE = 256;

/** Messages to the worker: a refresh's start (with the global ranks, a copy of the column's arrays), its written pages a part at a time, then their end. */
export type ToRefreshWorker = { start: SavedRefresh; ids: Int32Array; values: Float64Array } | { pages: Array<[number, SuggestSource | null]> } | { done: true };

/** The worker's answer. */
export type FromRefreshWorker = { ok: true; arrays: SuggestArrays } | { ok: false; message: string };

type DictionaryName = 'terms' | 'titleWords' | 'titles' | 'titleUrls';
type NumberName = Exclude<keyof SuggestColumns, DictionaryName>;
/** A suggestion index as plain arrays, to cross between threads. */
export type SuggestArrays = Record<DictionaryName, { bytes: Uint8Array; offsets: Int32Array }> & Pick<SuggestColumns, NumberName>;

export class SuggestRefreshWorkerError extends Error {
  override name = 'SuggestRefreshWorkerError';
}

/**
 * The worker, kept from one refresh to the next and unreferenced between them (it never keeps a
 * process alive). Started anew for each, it ended with a heap of hundreds of megabytes to tear
 * down, and the main thread's loop was held 47 ms (9 ms of it on a CPU) as it did, at the end of
 * an update at a million pages.
 */
let shared: Worker | undefined;
/** Refreshes one at a time: each waits for the one before. */
let queue: Promise<unknown> = Promise.resolve();

/** The thread the refreshes run on (a worker's `threadId`), if one is running: for tests and diagnostics. */
export function suggestRefreshThreadId(): number | undefined {
  return shared?.threadId;
}

function refreshWorker(): Worker {
  if (shared) return shared;
  const worker = startBackgroundWorker(() => new Worker(WORKER_BOOTSTRAP));
  worker.unref();
  const forget = () => {
    if (shared === worker) shared = undefined;
  };
  worker.on('error', forget);
  worker.on('exit', forget);
  return (shared = worker);
}

/**
 * The suggestions of `job` refreshed in a worker with the `written` pages' sources and ranked by
 * `ranks`; rejects with a {@link SuggestRefreshWorkerError} when the worker fails (the saved copy
 * is not the one expected or is damaged, a file cannot be written, the thread died).
 */
export function refreshSuggestionsInWorker(job: SavedRefresh, ranks: RankColumn, written: AsyncIterable<[number, SuggestSource | undefined]>): Promise<SuggestIndex> {
  const refreshed = queue.then(() => refreshOnce(job, ranks, written));
  queue = refreshed.catch(() => undefined);
  return refreshed;
}

async function refreshOnce(job: SavedRefresh, ranks: RankColumn, written: AsyncIterable<[number, SuggestSource | undefined]>): Promise<SuggestIndex> {
  const worker = refreshWorker();
  // Referenced while it works: a command awaiting the refresh must not end before its answer.
  worker.ref();
  let onMessage!: (message: FromRefreshWorker) => void;
  let onError!: (error: Error) => void;
  let onExit!: (code: number) => void;
  // The worker answered (a failure included): it is ready for the next refresh.
  let answered = false;
  const answer = new Promise<SuggestIndex>((resolve, reject) => {
    onMessage = (message) => {
      answered = true;
      if (message.ok) resolve(indexOfArrays(message.arrays));
      else reject(new SuggestRefreshWorkerError(message.message));
    };
    onError = (error) => reject(new SuggestRefreshWorkerError(error.message, { cause: error }));
    onExit = (code) => reject(new SuggestRefreshWorkerError(`the worker exited with code ${code} before answering`));
    worker.once('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
  });
  // Settled whatever happens below; awaited at the end.
  answer.catch(() => undefined);
  try {
    const { ids, values } = ranks.arrays();
    worker.postMessage({ start: job, ids, values } satisfies ToRefreshWorker);
    let pages: Array<[number, SuggestSource | null]> = [];
    for await (const [id, source] of written) {
      pages.push([id, source ?? null]);
      if (pages.length === PAGES_PER_MESSAGE) {
        worker.postMessage({ pages } satisfies ToRefreshWorker);
        pages = [];
      }
    }
    worker.postMessage({ pages } satisfies ToRefreshWorker);
    worker.postMessage({ done: true } satisfies ToRefreshWorker);
    return await answer;
  } catch (error) {
    // A refresh that broke off (a store read failed, the thread died) leaves no worker to reuse.
    if (!answered) await stopWorker(worker);
    throw error;
  } finally {
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    worker.unref();
  }
}

async function stopWorker(worker: Worker): Promise<void> {
  if (shared === worker) shared = undefined;
  await worker.terminate();
}

/** The index's arrays, and the buffers to transfer (each array given a buffer of its own if it shares one). */
export function arraysOfIndex(index: SuggestIndex): { arrays: SuggestArrays; transfer: ArrayBuffer[] } {
  const c = index.toColumns();
  const transfer: ArrayBuffer[] = [];
  const own = <T extends Uint8Array | Int32Array | Float64Array>(array: T): T => {
    const whole = array.byteOffset === 0 && array.byteLength === array.buffer.byteLength && array.buffer instanceof ArrayBuffer;
    const mine = whole ? array : (array.slice() as T);
    transfer.push(mine.buffer as ArrayBuffer);
    return mine;
  };
  const entries = (column: { bytes: Uint8Array; offsets: Int32Array }) => ({ bytes: own(column.bytes), offsets: own(column.offsets) });
  const arrays: SuggestArrays = {
    terms: entries(c.terms),
    titleWords: entries(c.titleWords),
    titles: entries(c.titles),
    titleUrls: entries(c.titleUrls),
    termScores: own(c.termScores),
    titlePostingStarts: own(c.titlePostingStarts),
    titlePostings: own(c.titlePostings),
    titleWordStarts: own(c.titleWordStarts),
    titleWordIds: own(c.titleWordIds),
  };
  return { arrays, transfer };
}

/** The index of arrays a worker made (trusted: built by the same code, not read from a file). */
function indexOfArrays(a: SuggestArrays): SuggestIndex {
  return SuggestIndex.fromColumns({
    terms: new TermDictionary(a.terms.bytes, a.terms.offsets),
    titleWords: new TermDictionary(a.titleWords.bytes, a.titleWords.offsets),
    titles: new StringColumn(a.titles.bytes, a.titles.offsets),
    titleUrls: new StringColumn(a.titleUrls.bytes, a.titleUrls.offsets),
    termScores: a.termScores,
    titlePostingStarts: a.titlePostingStarts,
    titlePostings: a.titlePostings,
    titleWordStarts: a.titleWordStarts,
    titleWordIds: a.titleWordIds,
  });
}
