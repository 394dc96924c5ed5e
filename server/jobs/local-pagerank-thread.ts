/**
 * Runs {@link computeLocalPageRank} in a worker thread, so that a server's event loop is not held
 * for the seconds a million-page PageRank takes. The edge arrays are transferred to the worker
 * (the caller must not use them afterwards) and the vector is transferred back.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LocalPageRankWorkerError } from '../errors.ts';
import type { LocalPageRankJob } from './local-pagerank-compute.ts';

// Node 20 loads a worker's entry before `--import` hooks are in place, so the entry is a tiny
// bootstrap module that registers tsx's loader and then imports the TypeScript worker.
const WORKER_MODULE = new URL('./local-pagerank.worker.ts', import.meta.url).href;

let bootstrap: URL | undefined;

function workerBootstrap(): URL {
  if (!bootstrap) {
    const tsxApi = tsxEsmApiUrl();
    bootstrap = new URL(
      `data:text/javascript,${encodeURIComponent(`import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(WORKER_MODULE)});`)}`,
    );
  }
  return bootstrap;
}

function tsxEsmApiUrl(): string {
  // require.resolve picks the CommonJS build; the worker needs the ESM one named in tsx's exports.
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const exports = (JSON.parse(readFileSync(packageJson, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> }).exports;
  const entry = exports['./esm/api']?.import?.default ?? './dist/esm/api/index.mjs';
  return new URL(entry, pathToFileURL(packageJson)).href;
}

export function computeLocalPageRankInWorker(job: LocalPageRankJob): Promise<Float64Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerBootstrap(), { workerData: job, transferList: [...job.sources, ...job.targets].map((chunk) => chunk.buffer) });
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
