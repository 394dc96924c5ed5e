import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreWriterUntilKilled } from './helpers/killed-store-writer.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { URL_TABLE_FILE } from '../indexer/store/url-table-file.ts';
import { UrlTable } from '../indexer/store/url-table.ts';

const freshDir = () => mkdtempSync(join(tmpdir(), 'lse-url-table-'));
const urlAt = (i: number) => (i % 7 === 3 ? `http://ü.example/straße/${i}?q=ß` : `http://h${i % 13}.example/a/${i.toString(36)}`);

/** Adds URLs first..last-1 in one commit (ids in that order). */
async function addUrls(store: CrawlStore, first: number, last: number): Promise<void> {
  const batch = store.batch();
  const wrong: number[] = [];
  for (let i = first; i < last; i++) if (batch.idFor(urlAt(i)) !== i) wrong.push(i);
  expect(wrong).toEqual([]);
  await batch.commit();
}

function expectUrls(store: CrawlStore, count: number): void {
  expect(store.urlCount).toBe(count);
  const wrong: number[] = [];
  for (let i = 0; i < count; i++) if (store.urlOf(i) !== urlAt(i) || store.idOf(urlAt(i)) !== i) wrong.push(i);
  expect(wrong).toEqual([]);
  expect(store.idOf(urlAt(count))).toBeUndefined();
  expect(store.urlOf(count)).toBeUndefined();
}

describe('UrlTable', () => {
  it('maps ids and URLs both ways through growth, rehashing and non-ASCII URLs', () => {
    const table = new UrlTable(4);
    const urls = Array.from({ length: 20_000 }, (_, i) => urlAt(i));
    const wrong: number[] = [];
    urls.forEach((url, i) => table.add(url) !== i && wrong.push(i));
    expect(table.size).toBe(urls.length);
    urls.forEach((url, i) => (table.idOf(url) !== i || table.urlOf(i) !== url) && wrong.push(i));
    expect(wrong).toEqual([]);
    // Prefixes, extensions and same-length neighbours are not matches.
    expect(table.idOf('http://h1.example/a/')).toBeUndefined();
    expect(table.idOf(`${urls[5]}x`)).toBeUndefined();
    expect(table.idOf('http://ü.example/straße/3?q=s')).toBeUndefined();
    // A lone surrogate is stored as UTF-8 stores it (U+FFFD), and found again by the same string.
    const lone = table.add('http://x.example/\ud800');
    expect(table.idOf('http://x.example/\ud800')).toBe(lone);
    expect(table.urlOf(lone)).toBe('http://x.example/\ufffd');
    expect(table.urlOf(-1)).toBeUndefined();
    expect(table.urlOf(1.5)).toBeUndefined();
  });

  it('is rebuilt from its parts with the same ids', () => {
    const table = new UrlTable();
    for (let i = 0; i < 500; i++) table.add(urlAt(i));
    const copy = UrlTable.fromParts(table.parts(300));
    expect(copy.size).toBe(300);
    expect(Array.from({ length: 300 }, (_, i) => copy.idOf(urlAt(i)))).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(copy.idOf(urlAt(300))).toBeUndefined();
    expect(copy.add(urlAt(300))).toBe(300);
  });
});

describe('CrawlStore URL table snapshot', () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error & { code?: string }) => {
    if (warning.code === 'LSE_URL_TABLE_REBUILT') warnings.push(warning.message);
  };
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });
  // Warnings are emitted on the next tick.
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('opens from the snapshot without reading the urls sublevel, then reads only the ids after it', async () => {
    const dir = freshDir();
    let store = await CrawlStore.open(dir);
    await addUrls(store, 0, 300);
    await store.close();
    expect(existsSync(join(dir, URL_TABLE_FILE))).toBe(true);

    store = await CrawlStore.open(dir);
    expect(store.urlTableLoad).toEqual({ fromSnapshot: 300, entriesRead: 0, rebuilt: false });
    expectUrls(store, 300);
    await addUrls(store, 300, 450);
    await store.close();

    store = await CrawlStore.open(dir);
    expect(store.urlTableLoad).toEqual({ fromSnapshot: 450, entriesRead: 0, rebuilt: false });
    expectUrls(store, 450);
    await store.close();
    await settled();
    expect(warnings).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the URLs committed after a stale snapshot (a process killed before close)', async () => {
    const dir = freshDir();
    let store = await CrawlStore.open(dir);
    await addUrls(store, 0, 200);
    await store.close();
    const stale = join(dir, 'stale.bin');
    copyFileSync(join(dir, URL_TABLE_FILE), stale);
    for (const [first, last] of [[200, 320], [320, 400]]) {
      store = await CrawlStore.open(dir);
      await addUrls(store, first, last);
      await store.close();
    }
    // As if the last two sessions had been killed: the snapshot is the one of the first.
    copyFileSync(stale, join(dir, URL_TABLE_FILE));
    store = await CrawlStore.open(dir);
    expect(store.urlTableLoad).toEqual({ fromSnapshot: 200, entriesRead: 200, rebuilt: false });
    expectUrls(store, 400);
    // Ids keep counting from the store, not from the snapshot.
    expect(store.assignId('http://new.example/')).toBe(400);
    await store.batch().commit();
    await store.close();
    store = await CrawlStore.open(dir);
    expect(store.urlTableLoad.fromSnapshot).toBe(401);
    expect(store.idOf('http://new.example/')).toBe(400);
    await store.close();
    await settled();
    expect(warnings).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('rebuilds from the store, with a warning, when the snapshot is missing, truncated, corrupt or claims too much', async () => {
    const dir = freshDir();
    let store = await CrawlStore.open(dir);
    await addUrls(store, 0, 250);
    await store.close();
    const file = join(dir, URL_TABLE_FILE);
    const good = readFileSync(file);
    // A snapshot of the same URLs and more: it claims ids this store never gave.
    const other = freshDir();
    store = await CrawlStore.open(other);
    await addUrls(store, 0, 260);
    await store.close();
    const tooMany = readFileSync(join(other, URL_TABLE_FILE));
    rmSync(other, { recursive: true, force: true });

    const corrupt = Buffer.from(good);
    corrupt[corrupt.length - 10] ^= 0xff;
    const damages: Array<[string, () => void]> = [
      ['missing', () => rmSync(file)],
      ['truncated', () => writeFileSync(file, good.subarray(0, good.length - 7))],
      ['corrupt', () => writeFileSync(file, corrupt)],
      ['not ours', () => writeFileSync(file, 'hello')],
      ['too many ids', () => writeFileSync(file, tooMany)],
    ];
    for (const [name, damage] of damages) {
      damage();
      warnings.length = 0;
      store = await CrawlStore.open(dir);
      expect(store.urlTableLoad, name).toMatchObject({ fromSnapshot: 0, entriesRead: 250, rebuilt: true });
      expectUrls(store, 250);
      await store.close();
      await settled();
      expect(warnings, name).toHaveLength(1);
      // The close wrote a good snapshot again.
      store = await CrawlStore.open(dir);
      expect(store.urlTableLoad, name).toEqual({ fromSnapshot: 250, entriesRead: 0, rebuilt: false });
      await store.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every id a SIGKILLed writer committed after the snapshot', async () => {
    const dir = freshDir();
    const pageUrl = (n: number) => `http://site.example/page/${n}`;
    let store = await CrawlStore.open(dir);
    const batch = store.batch();
    for (let n = 0; n < 50; n++) batch.idFor(pageUrl(n));
    await batch.commit();
    await store.close();
    // The crash test's writer: one page a commit, "ack N" after each, until killed.
    const acknowledged = await runStoreWriterUntilKilled(dir, 120);
    store = await CrawlStore.open(dir);
    expect(store.urlTableLoad.fromSnapshot).toBe(50);
    expect(store.urlTableLoad.rebuilt).toBe(false);
    expect(store.urlTableLoad.entriesRead).toBeGreaterThanOrEqual(acknowledged + 1 - 50);
    const wrong: number[] = [];
    for (let n = 0; n <= acknowledged; n++) if (store.idOf(pageUrl(n)) !== n || store.urlOf(n) !== pageUrl(n)) wrong.push(n);
    expect(wrong).toEqual([]);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes a snapshot a killed process left half-written, and opens from the last whole one', async () => {
    const dir = freshDir();
    let store = await CrawlStore.open(dir);
    await addUrls(store, 0, 20);
    await store.close();
    const unfinished = join(dir, `.${URL_TABLE_FILE}.12345.0.tmp`);
    writeFileSync(unfinished, readFileSync(join(dir, URL_TABLE_FILE)).subarray(0, 30));
    store = await CrawlStore.open(dir);
    expect(existsSync(unfinished)).toBe(false);
    expect(store.urlTableLoad).toEqual({ fromSnapshot: 20, entriesRead: 0, rebuilt: false });
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('snapshots only committed ids: one given out but never committed is not kept', async () => {
    const dir = freshDir();
    let store = await CrawlStore.open(dir);
    await addUrls(store, 0, 10);
    expect(store.assignId('http://uncommitted.example/')).toBe(10);
    await store.close();
    store = await CrawlStore.open(dir);
    expect(store.urlTableLoad).toEqual({ fromSnapshot: 10, entriesRead: 0, rebuilt: false });
    expectUrls(store, 10);
    // The id is given again, and this time committed.
    expect(store.assignId('http://other.example/')).toBe(10);
    await store.batch().commit();
    await store.close();
    store = await CrawlStore.open(dir);
    expect(store.urlOf(10)).toBe('http://other.example/');
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps working, and does not retry at every commit, when the snapshot cannot be written', async () => {
    const dir = freshDir();
    // A directory where the file should be: neither readable as a snapshot nor replaceable.
    mkdirSync(join(dir, URL_TABLE_FILE, 'x'), { recursive: true });
    const unsaved: string[] = [];
    const onUnsaved = (warning: Error & { code?: string }) => warning.code === 'LSE_URL_TABLE_UNSAVED' && unsaved.push(warning.message);
    process.on('warning', onUnsaved);
    try {
      let store = await CrawlStore.open(dir);
      await addUrls(store, 0, 60_000);
      await settled();
      expect(unsaved).toHaveLength(1);
      for (let i = 60_000; i < 60_100; i += 10) await addUrls(store, i, i + 10);
      await settled();
      expect(unsaved).toHaveLength(1);
      await store.close();
      await settled();
      expect(unsaved).toHaveLength(2);
      // The failed writes left no temporary file behind.
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      store = await CrawlStore.open(dir);
      expect(store.urlTableLoad).toMatchObject({ rebuilt: true, entriesRead: 60_100 });
      expectUrls(store, 60_100);
      await store.close();
    } finally {
      process.off('warning', onUnsaved);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('snapshots during a long session once many ids are past the snapshot', async () => {
    const dir = freshDir();
    const store = await CrawlStore.open(dir);
    await addUrls(store, 0, 60_000);
    // The commit that took the table 50,000 ids past its (empty) snapshot wrote one.
    expect(existsSync(join(dir, URL_TABLE_FILE))).toBe(true);
    const snapshot = readFileSync(join(dir, URL_TABLE_FILE));
    expect(snapshot.readUInt32LE(8)).toBe(60_000);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
