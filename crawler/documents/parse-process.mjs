// A document parsing process (see worker-pool.ts): it holds one worker thread under a V8 heap
// limit, which fails fast when a document's objects outgrow it, and passes messages between the
// pool and the thread. The process itself runs under the pool's data-size limit, which also
// bounds the typed arrays the heap limit does not count. Plain JavaScript: no loader here.
import { Worker } from 'node:worker_threads';

const memoryMb = Number(process.argv[2]);
const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
  resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, memoryMb / 8)), stackSizeMb: 4 },
});
worker.on('message', (message) => process.send(message));
process.on('message', (message) => worker.postMessage(message));
process.on('disconnect', () => process.exit(0));
worker.on('error', (error) => {
  const fatal = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'worker';
  process.send({ fatal, message: error.message }, () => process.exit(1));
});
worker.on('exit', () => process.exit(1));
