/**
 * Loading the URL table when the store opens: the snapshot file (one read) and then only the URLs
 * given ids after it, read from the `url-ids` sublevel (id → url, written in the same atomic batch
 * as `urls`). When the snapshot is missing or does not fit the store, the table is rebuilt from
 * the `urls` sublevel (url → id), the source of truth, as every open did before the snapshot.
 */
import { readUrlTableFile, removeUnfinishedUrlTableFiles } from './url-table-file.ts';
import { UrlTable } from './url-table.ts';

/** What is read of the `urls` and `url-ids` sublevels. */
interface Sublevel {
  get(key: string): Promise<unknown>;
  iterator(options?: { gte?: string }): AsyncIterable<[string, unknown]>;
}

/** How the table was loaded: ids from the snapshot, entries read from the store, and why a snapshot was ignored. */
export interface UrlTableLoad {
  fromSnapshot: number;
  /** `url-ids` entries read after the snapshot, or `urls` entries read by a rebuild. */
  entriesRead: number;
  rebuilt: boolean;
  /** Why the snapshot was not used (absent when it was, or when a new store has none yet). */
  problem?: string;
}

export const urlIdKey = (id: number) => id.toString(16).padStart(8, '0');

export async function loadUrlTable(directory: string, urls: Sublevel, urlIds: Sublevel): Promise<{ table: UrlTable; load: UrlTableLoad }> {
  await removeUnfinishedUrlTableFiles(directory);
  const snapshot = await readUrlTableFile(directory);
  let problem = 'problem' in snapshot ? snapshot.problem : undefined;
  if ('table' in snapshot) {
    const table = snapshot.table;
    const fromSnapshot = table.size;
    problem = await snapshotMismatch(table, urls);
    if (problem === undefined) {
      const tail = await readTail(table, urlIds);
      if (typeof tail === 'number') return { table, load: { fromSnapshot, entriesRead: tail, rebuilt: false } };
      problem = tail.problem;
    }
  }
  const rebuilt = await rebuildFromUrls(urls);
  const missingInNewStore = 'missing' in snapshot && rebuilt.table.size === 0;
  if (!missingInNewStore) {
    process.emitWarning(`URL table snapshot of ${directory} ignored (${problem}): rebuilt from the store's ${rebuilt.table.size} URLs`, { code: 'LSE_URL_TABLE_REBUILT' });
  }
  return { table: rebuilt.table, load: { fromSnapshot: 0, entriesRead: rebuilt.entriesRead, rebuilt: true, ...(missingInNewStore ? {} : { problem }) } };
}

/** Why a snapshot does not belong to this store: its first and last URL must have their ids there. */
async function snapshotMismatch(table: UrlTable, urls: Sublevel): Promise<string | undefined> {
  if (table.size === 0) return undefined;
  for (const id of new Set([0, table.size - 1])) {
    const stored = (await urls.get(table.urlOf(id)!)) as number | undefined;
    if (stored !== id) return `it gives id ${id} to a URL the store ${stored === undefined ? 'does not hold' : `gives id ${stored}`}`;
  }
  return undefined;
}

/** Adds the URLs given ids after the snapshot; they must follow it without a gap. */
async function readTail(table: UrlTable, urlIds: Sublevel): Promise<number | { problem: string }> {
  let read = 0;
  for await (const [key, url] of urlIds.iterator({ gte: urlIdKey(table.size) })) {
    read++;
    const id = Number.parseInt(key, 16);
    if (id !== table.size) return { problem: `the store's URL ids jump from ${table.size} to ${id} after it` };
    if (typeof url !== 'string' || table.idOf(url) !== undefined) return { problem: `id ${id} repeats a URL` };
    table.add(url);
  }
  return read;
}

async function rebuildFromUrls(urls: Sublevel): Promise<{ table: UrlTable; entriesRead: number }> {
  // Ids come in URL order: gathered by id first (on the heap, only for this rebuild).
  const byId: string[] = [];
  let entriesRead = 0;
  for await (const [url, id] of urls.iterator()) {
    byId[id as number] = url;
    entriesRead++;
  }
  const table = new UrlTable(byId.length);
  for (let id = 0; id < byId.length; id++) {
    const url = byId[id];
    // Ids are dense by construction; a hole (a damaged store) stays a URL-less id, as before.
    table.add(url ?? '');
  }
  return { table, entriesRead };
}
