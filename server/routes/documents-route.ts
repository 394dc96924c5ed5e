/**
 * `POST /api/admin/documents`: pages pushed in batches of JSON Lines (the format of `lse
 * import`). The body is read as a stream, one line at a time, so a batch costs the memory of its
 * longest line; the pages go to the store as they are read, and one job re-indexes what changed.
 */
import type { FastifyInstance } from 'fastify';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { numberedLines } from '../import/jsonl-lines.ts';
import { importPages, SERVED_BATCH_PAGES } from '../import/page-import.ts';
import { IMPORT_LIMITS } from '../import/page-line.ts';
import type { JobRunner } from '../jobs/job-runner.ts';

export const DOCUMENT_MEDIA_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/jsonlines'];

export interface DocumentsRouteDeps {
  store: CrawlStore;
  runner: JobRunner;
  /** Bytes of one batch (default 64 MiB): larger batches are cut there and answered 413. */
  maxBatchBytes?: number;
}

class BatchTooLargeError extends Error {}

/** Registers the route on the (token-checked) admin instance. */
export function registerDocumentsRoute(admin: FastifyInstance, deps: DocumentsRouteDeps, routeOptions: { config?: object }): void {
  const maxBytes = deps.maxBatchBytes ?? 64 * 1024 * 1024;
  // The stream itself is the body: parsed line by line below, never buffered whole.
  admin.addContentTypeParser(DOCUMENT_MEDIA_TYPES, (_request, payload, done) => done(null, payload));
  // The lines are checked one by one below, each error named by line and field.
  admin.post('/documents', { ...routeOptions, config: { ...routeOptions.config, validatesOwnBody: true } }, async (request, reply) => {
    const payload = request.body as AsyncIterable<Buffer> | undefined;
    if (payload === undefined || typeof (payload as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function') {
      return reply.code(415).send({ statusCode: 415, error: 'Unsupported Media Type', code: 'LSE_DOCUMENTS_MEDIA_TYPE', message: `send JSON Lines as ${DOCUMENT_MEDIA_TYPES[0]}: one page a line with url, title and body` });
    }
    const bounded = async function* (): AsyncGenerator<Buffer> {
      let bytes = 0;
      for await (const chunk of payload) {
        if (bytes + chunk.length > maxBytes) {
          // The whole lines within the bound still go in; the line cut by it does not.
          yield chunk.subarray(0, maxBytes - bytes);
          throw new BatchTooLargeError();
        }
        bytes += chunk.length;
        yield chunk;
      }
    };
    let lastLine = 0;
    const summary = await importPages(deps.store, trackLines(numberedLines(bounded(), IMPORT_LIMITS.maxLineChars), (n) => (lastLine = n)), { batchPages: SERVED_BATCH_PAGES });
    if (summary.inputError !== undefined && !(summary.inputError instanceof BatchTooLargeError)) throw summary.inputError;
    const { changedIds, inputError, ...counts } = summary;
    const job = changedIds.length > 0 ? deps.runner.submitImport(changedIds) : undefined;
    if (inputError !== undefined) {
      return reply.code(413).send({ statusCode: 413, error: 'Payload Too Large', code: 'LSE_DOCUMENTS_BATCH_TOO_LARGE', message: `a batch holds at most ${maxBytes} bytes: lines 1 to ${lastLine} were read and imported, send the rest in smaller batches`, ...counts, job });
    }
    if (counts.errorCount > 0 && counts.added + counts.updated + counts.unchanged === 0) {
      return reply.code(400).send({ statusCode: 400, error: 'Bad Request', code: 'LSE_DOCUMENTS_INVALID', message: `no line could be imported (${counts.errorCount} bad)`, ...counts });
    }
    return reply.code(job === undefined ? 200 : 202).send({ ...counts, ...(job === undefined ? {} : { job }) });
  });
}

async function* trackLines<T extends { line: number }>(lines: AsyncIterable<T>, seen: (line: number) => void): AsyncGenerator<T> {
  for await (const line of lines) {
    seen(line.line);
    yield line;
  }
}
