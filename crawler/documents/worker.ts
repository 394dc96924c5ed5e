/**
 * The document worker (a thread of a parsing process, see parse-process.mjs): extracts the
 * documents its pool sends, one at a time, and answers with the page or the error. A failed
 * allocation (the process's memory limit) is reported as such; the pool then replaces the process.
 */
import { parentPort } from 'node:worker_threads';
import { extractDocument } from './extract.ts';
import type { WorkerMessage, WorkerRequest, WorkerResponse } from './worker-pool.ts';

/** V8's words for a failed allocation; pdf.js passes them on in an error of its own type. */
const OUT_OF_MEMORY = /Array buffer allocation failed|Invalid typed array length|Invalid array buffer length|out of memory/i;

const answer = (message: WorkerMessage) => parentPort!.postMessage(message);

parentPort!.on('message', async (request: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    // IPC keeps a Buffer a Buffer; pdf.js wants a plain Uint8Array.
    const bytes = new Uint8Array(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
    const extracted = await extractDocument(request.type, bytes, request.url, request.limits);
    response = { id: request.id, ok: true, extracted };
  } catch (error) {
    const err = error as { code?: string; message?: string };
    const memory = OUT_OF_MEMORY.test(err.message ?? '');
    response = { id: request.id, ok: false, code: memory ? 'ELSE_DOCUMENT_MEMORY' : (err.code ?? 'ELSE_DOCUMENT_FORMAT'), message: err.message ?? String(error) };
  }
  answer(response);
});
answer({ ready: true });
