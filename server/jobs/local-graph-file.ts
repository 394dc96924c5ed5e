/**
 * The local graph's rows saved beside the store (`local-graph/rows.bin` in the data directory),
 * with the page-write sequence they reflect, so that the next load reads only the pages written
 * since. A file that does not hold consistent rows is refused with the reason, and the caller
 * reads every page instead: nothing depends on the file but the time a load takes.
 */
import { join } from 'node:path';
import { readColumnFileAnyKey, writeColumnFile, type Column } from '../../indexer/ranking/column-file.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { runStepsYielding } from '../../indexer/stepwise.ts';
import type { LocalGraphRows } from './local-graph-rows.ts';

const ROWS_FORMAT = 'lse-local-graph-rows/1';
const rowsFile = (store: CrawlStore) => join(store.directory, 'local-graph', 'rows.bin');

export type SavedLocalGraphRows = { rows: LocalGraphRows; asOf: number; reason: 'saved' } | { rows?: undefined; reason: string };

export async function saveLocalGraphRows(store: CrawlStore, rows: LocalGraphRows, asOf: number): Promise<void> {
  await writeColumnFile(rowsFile(store), ROWS_FORMAT, { pageSequence: asOf }, rows as unknown as Record<string, Column>);
}

/** The saved rows and the sequence they reflect, or why there are none to use. */
export async function readLocalGraphRows(store: CrawlStore): Promise<SavedLocalGraphRows> {
  const saved = await readColumnFileAnyKey(rowsFile(store), ROWS_FORMAT);
  if (!saved.columns) return { reason: saved.reason };
  const asOf = (saved.key as { pageSequence?: unknown } | undefined)?.pageSequence;
  if (typeof asOf !== 'number' || !Number.isInteger(asOf) || asOf < 0) return { reason: 'no page sequence' };
  const rows = {
    ids: saved.columns.get('ids'),
    linkable: saved.columns.get('linkable'),
    rowIds: saved.columns.get('rowIds'),
    rowEnds: saved.columns.get('rowEnds'),
    targets: saved.columns.get('targets'),
  };
  const problem = await runStepsYielding(rowsProblemSteps(rows, store.urlCount));
  return problem ? { reason: problem } : { rows: rows as LocalGraphRows, asOf, reason: 'saved' };
}

/** Values checked between two yields. */
const STEP = 1 << 18;

/** Steps: what makes the columns not rows of a graph over `urlCount` ids, if anything. */
function* rowsProblemSteps(rows: Record<keyof LocalGraphRows, Column | undefined>, urlCount: number): Generator<void, string | undefined> {
  const { ids, linkable, rowIds, rowEnds, targets } = rows;
  if (!(ids instanceof Int32Array && rowIds instanceof Int32Array && rowEnds instanceof Int32Array && targets instanceof Int32Array && linkable instanceof Uint8Array)) return 'columns missing or of another type';
  if (linkable.length !== ids.length || rowIds.length !== ids.length || rowEnds.length !== ids.length) return 'columns of different lengths';
  const isRow = new Uint8Array(urlCount);
  for (let r = 0, end = 0; r < rowIds.length; end = rowEnds[r++]) {
    if (rowIds[r] < 0 || rowIds[r] >= urlCount || (r > 0 && rowIds[r] <= rowIds[r - 1])) return `row ${r}: id ${rowIds[r]} out of order or range`;
    if (rowEnds[r] < end) return `row ${r}: links end before they start`;
    isRow[rowIds[r]] = 1;
    if (r % STEP === STEP - 1) yield;
  }
  if ((rowEnds.at(-1) ?? 0) !== targets.length) return 'links past the last row';
  // As many pages as rows, each a row once: the same pages.
  for (let i = 0; i < ids.length; i++) {
    if (!(ids[i] >= 0 && ids[i] < urlCount) || isRow[ids[i]] !== 1) return `page ${i}: id ${ids[i]} not a row, or twice`;
    isRow[ids[i]] = 2;
    if (i % STEP === STEP - 1) yield;
  }
  for (let t = 0; t < targets.length; t++) {
    if (targets[t] < 0) return `link ${t}: target ${targets[t]}`;
    if (t % STEP === STEP - 1) yield;
  }
  return undefined;
}
