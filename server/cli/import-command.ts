/**
 * `lse import`: pages pushed from a file or standard input (JSON Lines), then the index and the
 * local PageRank brought up to date. Bad lines are reported with their line number and field;
 * the other lines go in.
 */
import { createReadStream } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Settings } from '../../config/schema.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { isIndexablePage, pageToDocument } from '../../indexer/text-index/store-adapter.ts';
import type { TextDocument } from '../../indexer/text-index/document.ts';
import { saveSearchData } from '../../indexer/ranking/search-data.ts';
import { advanceAppliedSequence } from '../../indexer/text-index/applied-sequence.ts';
import { numberedLines } from '../import/jsonl-lines.ts';
import { importPages, type ImportSummary } from '../import/page-import.ts';
import { IMPORT_FIELDS, IMPORT_LIMITS } from '../import/page-line.ts';
import { storeLocalPageRank } from '../jobs/local-pagerank.ts';
import { CliError } from './cli-error.ts';
import { settingsForDataDir } from './crawl-command.ts';
import { buildIndex, openOrRebuildIndex } from './serve-command.ts';
import { compactStore } from './store-compaction.ts';

export const importUsage = `lse import [--data DIR] [--config FILE] [--no-index] FILE.jsonl | -

  Imports pages pushed by the site instead of crawled: one JSON object a line with
  ${IMPORT_FIELDS.slice(0, 3).join(', ')} (required) and ${IMPORT_FIELDS.slice(3).join(', ')} (optional; links are
  URLs, and take part in the local PageRank). "-" reads standard input. Importing a URL again
  updates it. A bad line is reported with its line number and field and the others go in (exit
  status 1 when any line was bad). Then the text index and the local PageRank are updated, unless
  --no-index.`;

export async function importCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { config: { type: 'string' }, data: { type: 'string' }, 'no-index': { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`lse import: ${(error as Error).message}\nRun "lse help import" for the flags.`);
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) throw new CliError('lse import: name one file of JSON Lines, or - for standard input');
  const input = file === '-' ? process.stdin : createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    if (file === '-') resolve();
    input.once('open', () => resolve()).once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new CliError(`lse import: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const { settings, store } = await settingsForDataDir(parsed.values, {});
  try {
    const started = performance.now();
    const sequenceBefore = store.pageWriteSequence;
    const summary = await importPages(store, numberedLines(input, IMPORT_LIMITS.maxLineChars), {
      onError: (e) => process.stderr.write(`line ${e.line}: ${e.field}: ${e.message}\n`),
    });
    if (summary.inputError) process.stderr.write(`lse import: reading ${file} stopped after line ${summary.lines}: ${summary.inputError.message}\n`);
    process.stdout.write(`${formatImportSummary(summary)} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    if (!parsed.values['no-index']) {
      const indexStarted = performance.now();
      const { documents, compactSeconds } = await indexImported(store, settings, summary.changedIds, sequenceBefore);
      const compacted = compactSeconds === undefined ? '' : ` (store compacted in ${compactSeconds.toFixed(1)} s)`;
      process.stdout.write(`index: ${documents} pages, updated in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s${compacted}\n`);
    }
    return summary.errorCount > 0 || summary.inputError ? 1 : 0;
  } finally {
    await store.close();
  }
}

export function formatImportSummary(summary: ImportSummary): string {
  const bad = summary.errorCount > 0 ? `, ${summary.errorCount} bad line(s)` : '';
  return `imported ${summary.lines} line(s): ${summary.added} new, ${summary.updated} updated, ${summary.unchanged} unchanged${bad}`;
}

/**
 * Brings the index of a data directory up to date with imported pages: the changed pages only
 * when an index exists, else a build from the store (and then the store is compacted, see
 * {@link compactStore}); then the local PageRank. `sequenceBefore`, the store's page-write
 * sequence before the import: when the index had applied everything up to it, it now has up to
 * the import's last write, and the next start checks no page.
 */
export async function indexImported(store: CrawlStore, settings: Settings, changedIds: readonly number[], sequenceBefore?: number): Promise<{ documents: number; compactSeconds?: number }> {
  const { documents, built } = await updateIndex(store, settings, changedIds, sequenceBefore);
  // Saved with the index (a build saves them from its own pass), so that the server starts
  // without reading every page for its facts and suggestions.
  if (!built) {
    await saveSearchData(store);
    return { documents };
  }
  return { documents, compactSeconds: await compactStore(store) };
}

async function updateIndex(store: CrawlStore, settings: Settings, changedIds: readonly number[], sequenceBefore?: number): Promise<{ documents: number; built: boolean }> {
  const index = await openOrRebuildIndex(store, settings);
  if (index.info().generation === 0) {
    // Nothing indexed yet: one build from the store (segments on both cores).
    await index.close();
    const built = await buildIndex(store, settings);
    await built.index.close();
    return { documents: built.documents, built: true };
  }
  try {
    const upsert: TextDocument[] = [];
    const remove: number[] = [];
    for (const [i, page] of (await store.getPages(changedIds)).entries()) {
      if (page && isIndexablePage(page)) upsert.push(pageToDocument(changedIds[i], page));
      else remove.push(changedIds[i]);
    }
    if (upsert.length > 0 || remove.length > 0) await index.update({ upsert, remove });
    if (sequenceBefore !== undefined) await advanceAppliedSequence(index.directory, sequenceBefore, store.pageWriteSequence);
    await storeLocalPageRank(store, settings.estimation.alpha, settings.estimation.tolerance);
    return { documents: index.info().documentCount, built: false };
  } finally {
    await index.close();
  }
}
