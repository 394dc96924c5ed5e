/** Worker thread: refreshes of the saved suggestions, one at a time (suggest-refresh-thread.ts). */
import { parentPort } from 'node:worker_threads';
import { RankColumn } from '../ranking/rank-column.ts';
import { lowerThisThread } from '../thread-priority.ts';
import type { SuggestSource } from './suggest-index.ts';
import { refreshSavedSuggestions, type SavedRefresh } from './suggest-refresh.ts';
import { arraysOfIndex, type FromRefreshWorker, type ToRefreshWorker } from './suggest-refresh-thread.ts';

if (!parentPort) throw new Error('suggest-refresh.worker.ts must run as a worker thread');
const port = parentPort;
// Below the server's main thread: the refresh takes what searches leave of the CPU.
lowerThisThread();

let job: SavedRefresh | undefined;
let ranks: RankColumn | undefined;
let changed = new Map<number, SuggestSource | undefined>();

port.on('message', (message: ToRefreshWorker) => {
  if ('start' in message) {
    job = message.start;
    ranks = new RankColumn(message.ids, message.values);
    changed = new Map();
  } else if ('pages' in message) {
    for (const [id, source] of message.pages) changed.set(id, source ?? undefined);
  } else void refresh();
});

async function refresh(): Promise<void> {
  const [thisJob, theseRanks, pages] = [job, ranks, changed];
  // Nothing of this refresh is kept for the next: its memory is the collector's while the worker waits.
  [job, ranks, changed] = [undefined, undefined, new Map()];
  let answer: FromRefreshWorker;
  let transfer: ArrayBuffer[] = [];
  try {
    if (!thisJob || !theseRanks) throw new Error('a refresh ended before it started');
    const { arrays, transfer: buffers } = arraysOfIndex(await refreshSavedSuggestions(thisJob, pages, (id) => theseRanks.get(id) ?? 0));
    answer = { ok: true, arrays };
    transfer = buffers;
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer, transfer);
}
