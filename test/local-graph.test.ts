import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { loadLocalGraph, type LoadedLocalGraph } from '../server/jobs/local-graph.ts';
import { EDGE_CHUNK } from '../server/jobs/local-graph-rows.ts';
import { rewriteSomePages as writeChanges, writeMixedStore } from './helpers/mixed-link-store.ts';

const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function openTempStore(): Promise<CrawlStore> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-local-graph-'));
  dirs.push(dir);
  return CrawlStore.open(dir);
}

const rowsFile = (store: CrawlStore) => join(store.directory, 'local-graph', 'rows.bin');

/** The graph as plain arrays: its pages, and its edges as [from, to] in order. */
function plain(graph: LoadedLocalGraph): { ids: number[]; edges: Array<[number, number]> } {
  const edges: Array<[number, number]> = [];
  for (let e = 0; e < graph.edgeCount; e++) {
    const chunk = Math.floor(e / EDGE_CHUNK);
    edges.push([graph.sources[chunk][e % EDGE_CHUNK], graph.targets[chunk][e % EDGE_CHUNK]]);
  }
  return { ids: [...graph.ids], edges };
}

/** The graph read from every page, the saved rows left as they were. */
async function readFromPages(store: CrawlStore): Promise<LoadedLocalGraph> {
  const kept = `${rowsFile(store)}.kept`;
  await copyFile(rowsFile(store), kept);
  await rm(rowsFile(store));
  try {
    const graph = await loadLocalGraph(store);
    expect(graph.readFrom).toBe('pages');
    return graph;
  } finally {
    await copyFile(kept, rowsFile(store));
    await rm(kept);
  }
}

describe('loadLocalGraph', () => {
  it('reads the saved rows and the pages written since, as every page read again gives them', async () => {
    const store = await openTempStore();
    try {
      await writeMixedStore(store, 3000, 5);
      const first = await loadLocalGraph(store);
      expect(first.readFrom).toBe('pages');
      expect(first.ids.length).toBeGreaterThan(2000);
      // In shared memory, for the PageRank's worker to read without a transfer.
      expect(first.sources.every((chunk) => chunk.buffer instanceof SharedArrayBuffer)).toBe(true);
      expect(first.targets.every((chunk) => chunk.buffer instanceof SharedArrayBuffer)).toBe(true);
      const again = await loadLocalGraph(store);
      expect(again.readFrom).toBe('saved');
      expect(plain(again)).toEqual(plain(first));
      for (let round = 1; round <= 6; round++) {
        await writeChanges(store, 3000, round);
        const updated = await loadLocalGraph(store);
        expect(updated.readFrom).toBe('saved');
        const reference = await readFromPages(store);
        expect(plain(updated)).toEqual(plain(reference));
        expect(plain(updated)).not.toEqual(plain(first));
      }
    } finally {
      await store.close();
    }
  });

  it('reads every page when the saved rows are damaged, of another store or older than the journal', async () => {
    const store = await openTempStore();
    const messages: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      messages.push(String(chunk));
      return true;
    });
    try {
      await writeMixedStore(store, 1000, 8);
      const reference = plain(await loadLocalGraph(store));
      const good = await readFile(rowsFile(store));

      // A row id changed: the rows are out of order.
      const damaged = Buffer.from(good);
      const header = JSON.parse(damaged.toString('utf8', 4, 4 + damaged.readUInt32LE(0))) as { sections: Array<[string, string, number]> };
      let offset = 4 + damaged.readUInt32LE(0);
      for (const [name, , length] of header.sections) {
        if (name === 'rowIds') damaged.writeInt32LE(1 << 30, offset + 8);
        offset += length;
      }
      await writeFile(rowsFile(store), damaged);
      const fromDamaged = await loadLocalGraph(store);
      expect(fromDamaged.readFrom).toBe('pages');
      expect(plain(fromDamaged)).toEqual(reference);
      expect(messages.join('')).toMatch(/reading the local graph from the pages \(saved rows: row 2: id 1073741824 out of order or range\)/);

      // A header length past the file's end: refused before anything that long is allocated.
      const longHeader = Buffer.from(good);
      longHeader.writeUInt32LE(0xfffffff0, 0);
      await writeFile(rowsFile(store), longHeader);
      expect((await loadLocalGraph(store)).readFrom).toBe('pages');
      expect(messages.join('')).toMatch(/saved rows: cannot read it: truncated/);

      await writeFile(rowsFile(store), good.subarray(0, good.length - 8));
      expect((await loadLocalGraph(store)).readFrom).toBe('pages');
      expect(messages.join('').split('\n').at(-2)).toMatch(/saved rows: cannot read it: truncated/);

      // Saved as of a sequence the store has not reached: another store's.
      await writeChanges(store, 1000, 1);
      expect((await loadLocalGraph(store)).readFrom).toBe('saved');
      await copyFile(rowsFile(store), `${rowsFile(store)}.later`);
      const other = await openTempStore();
      try {
        await writeMixedStore(other, 1000, 8);
        // As many URLs as the first store has, no page written: its sequence stays behind.
        const urls = other.batch();
        while (other.urlCount < store.urlCount) urls.idFor(`https://elsewhere.example.org/${other.urlCount}`);
        await urls.commit();
        await mkdir(dirname(rowsFile(other)), { recursive: true });
        await copyFile(`${rowsFile(store)}.later`, rowsFile(other));
        expect((await loadLocalGraph(other)).readFrom).toBe('pages');
        expect(messages.join('')).toMatch(/saved rows: saved for another store/);
      } finally {
        await other.close();
      }

      // The journal pruned past the saved rows.
      await writeChanges(store, 1000, 2);
      await store.prunePageJournal(store.pageWriteSequence);
      await writeChanges(store, 1000, 3);
      const afterPrune = await loadLocalGraph(store);
      expect(afterPrune.readFrom).toBe('pages');
      expect(messages.join('')).toMatch(/saved rows: the page journal no longer reaches back to them/);
      expect((await loadLocalGraph(store)).readFrom).toBe('saved');
    } finally {
      await store.close();
    }
  });
});
