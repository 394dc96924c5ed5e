/** Worker thread: one refresh of the saved suggestions (suggest-refresh-thread.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { RankColumn } from '../ranking/rank-column.ts';
import { lowerThisThread } from '../thread-priority.ts';
import type { SuggestSource } from './suggest-index.ts';
import { refreshSavedSuggestions } from './suggest-refresh.ts';
import { arraysOfIndex, type FromRefreshWorker, type RefreshWorkerData, type ToRefreshWorker } from './suggest-refresh-thread.ts';

if (!parentPort) throw new Error('suggest-refresh.worker.ts must run as a worker thread');
const port = parentPort;
// Below the server's main thread: the refresh takes what searches leave of the CPU.
lowerThisThread();

const { job, ids, values } = workerData as RefreshWorkerData;
const changed = new Map<number, SuggestSource | undefined>();
port.on('message', (message: ToRefreshWorker) => {
  if ('pages' in message) {
    for (const [id, source] of message.pages) changed.set(id, source ?? undefined);
    return;
  }
  const ranks = new RankColumn(ids, values);
  refreshSavedSuggestions(job, changed, (id) => ranks.get(id) ?? 0).then(
    (index) => {
      const { arrays, transfer } = arraysOfIndex(index);
      port.postMessage({ ok: true, arrays } satisfies FromRefreshWorker, transfer);
      port.close();
    },
    (error: unknown) => {
      port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) } satisfies FromRefreshWorker);
      port.close();
    },
  );
});
