/** The document worker: extracts the documents its pool sends, one at a time, and answers with the page or the error. */
import { parentPort } from 'node:worker_threads';
import { extractDocument } from './extract.ts';
import type { WorkerRequest, WorkerResponse } from './worker-pool.ts';

parentPort!.on('message', async (request: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    const extracted = await extractDocument(request.type, request.bytes, request.url, request.limits);
    response = { id: request.id, ok: true, extracted };
  } catch (error) {
    const err = error as { code?: string; message?: string };
    response = { id: request.id, ok: false, code: err.code ?? 'ELSE_DOCUMENT_FORMAT', message: err.message ?? String(error) };
  }
  parentPort!.postMessage(response);
});
