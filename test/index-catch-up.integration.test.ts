import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { catchUpWithStore } from '../indexer/text-index/catch-up.ts';
import { INDEX_ANALYSIS } from '../indexer/text-index/document-version.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { buildIndex, serveStore } from '../server/cli/serve-command.ts';

const PAGES = 300;
// The child builds small segments, so the kill falls between its first segment and its manifest.
const SEGMENT_SIZE = 10;

function page(n: number, word: string, fetchedAt: number): PageRecord {
  const url = `http://site.test/page/${n}`;
  return { url, host: 'site.test', role: 'local', state: 'fetched', status: 200, fetchedAt, depth: 1, visits: 1, changes: 0, lang: 'en', title: `Page ${n}`, text: `Page ${n} is about the ${word} and its habitat. `.repeat(20) };
}

/** The generation of the index's manifest on disk. */
function manifestGeneration(dataDir: string): number {
  return (JSON.parse(readFileSync(join(dataDir, 'index', 'manifest.json'), 'utf8')) as { generation: number }).generation;
}

/** Runs the child that re-indexes the store and SIGKILLs it as soon as its first new segment file is on disk. */
async function killIndexUpdateMidway(dataDir: string): Promise<{ finished: boolean }> {
  const before = new Set(readdirSync(join(dataDir, 'index')));
  const updater = fileURLToPath(new URL('./helpers/index-updater.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', updater, dataDir, String(SEGMENT_SIZE)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const watch = setInterval(() => {
    const fresh = readdirSync(join(dataDir, 'index')).filter((file) => !before.has(file) && /^seg-\d+\./.test(file));
    if (fresh.length > 0 && !child.killed) child.kill('SIGKILL');
  }, 2);
  await new Promise((resolve) => child.on('exit', resolve));
  clearInterval(watch);
  return { finished: output.includes('updated') };
}

describe('the index catches up with the store at start-up', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-catch-up-'));
  const settings = loadSettings({ env: {}, overrides: { dataDir, schedules: { estimate: 'off' }, index: { segmentSize: 100 } } });
  let closeServing: (() => Promise<void>) | undefined;
  afterAll(async () => closeServing?.());

  it('answers with the stored text after a crash during a re-crawl’s index update', async () => {
    // A crawl: 300 pages about quokkas, indexed.
    let store = await CrawlStore.open(dataDir);
    let batch = store.batch();
    for (let n = 0; n < PAGES; n++) batch.putPage(batch.idFor(`http://site.test/page/${n}`), page(n, 'quokka', 1_000));
    await batch.commit();
    const { index } = await buildIndex(store, settings);
    await index.close();
    const generation = manifestGeneration(dataDir);

    // A re-crawl stores the new text of every page (axolotls now), one new page, and one page gone…
    batch = store.batch();
    for (let n = 0; n < PAGES; n++) batch.putPage(store.idOf(`http://site.test/page/${n}`)!, { ...page(n, 'axolotl', 2_000), visits: 2, changes: 1 });
    batch.putPage(batch.idFor('http://site.test/page/new'), { ...page(PAGES, 'axolotl', 2_000), url: 'http://site.test/page/new' });
    const goneId = store.idOf('http://site.test/page/7')!;
    batch.putPage(goneId, { ...page(7, 'quokka', 2_000), state: 'gone', status: 404, text: undefined });
    await batch.commit();
    await store.close();
    // …and the process is killed while the index update builds its segments.
    const { finished } = await killIndexUpdateMidway(dataDir);
    expect(finished).toBe(false);
    expect(manifestGeneration(dataDir)).toBe(generation);

    // Restart: the server answers with what the store holds.
    store = await CrawlStore.open(dataDir);
    const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: 'a-test-admin-token-0123456789' });
    closeServing = async () => {
      await serving.close();
      await store.close();
    };
    const total = async (q: string) => ((await (await fetch(`${serving.url}/api/search?q=${q}`)).json()) as { total: number }).total;
    expect(await total('axolotl')).toBe(PAGES); // 299 changed pages and the new one
    expect(await total('quokka')).toBe(0); // no old text, and the gone page is out
  });

  it('re-indexes nothing when the index already holds what the store holds', async () => {
    await closeServing?.();
    closeServing = undefined;
    const store = await CrawlStore.open(dataDir);
    const index = await TextIndex.open(dataDir, { maxSegmentDocs: 100 });
    try {
      const report = await catchUpWithStore(store, index, { maxRemovedShare: 0.1 });
      expect(report).toMatchObject({ indexable: PAGES, reindexed: 0, removed: 0, heldRemovals: 0 });
    } finally {
      await index.close();
      await store.close();
    }
  });

  it('re-indexes only the pages stored after the index’s last manifest, in place', async () => {
    const store = await CrawlStore.open(dataDir);
    let index = await TextIndex.open(dataDir, { maxSegmentDocs: 100 });
    const generation = index.info().generation;
    await index.close();
    // Stored, never indexed (the process stopped before the index update).
    const batch = store.batch();
    for (let n = 20; n < 40; n++) batch.putPage(store.idOf(`http://site.test/page/${n}`)!, { ...page(n, 'pangolin', 3_000), visits: 3, changes: 2 });
    await batch.commit();
    index = await TextIndex.open(dataDir, { maxSegmentDocs: 100 });
    try {
      const report = await catchUpWithStore(store, index, { maxRemovedShare: 0.1 });
      expect(report).toMatchObject({ reindexed: 20, removed: 0, rebuilt: false });
      expect(index.search('pangolin').total).toBe(20);
      expect(index.search('axolotl').total).toBe(PAGES - 20);
      expect(index.info().generation).toBeGreaterThan(generation);
    } finally {
      await index.close();
      await store.close();
    }
  });

  it('compares only the pages written since the last catch-up, and all of them without its record', async () => {
    const store = await CrawlStore.open(dataDir);
    const index = await TextIndex.open(dataDir, { maxSegmentDocs: 100 });
    try {
      // Nothing written since the last start: no page is read.
      expect(await catchUpWithStore(store, index, { maxRemovedShare: 0.1 })).toMatchObject({ fromJournal: true, checked: 0, reindexed: 0, indexable: PAGES });
      const batch = store.batch();
      for (let n = 50; n < 55; n++) batch.putPage(store.idOf(`http://site.test/page/${n}`)!, { ...page(n, 'wombat', 4_000), visits: 4, changes: 3 });
      await batch.commit();
      expect(await catchUpWithStore(store, index, { maxRemovedShare: 0.1 })).toMatchObject({ fromJournal: true, checked: 5, reindexed: 5 });
      expect(index.search('wombat').total).toBe(5);
      // Without the record of what the index applied, every stored page is compared.
      rmSync(join(dataDir, 'index', 'store-sequence.json'));
      expect(await catchUpWithStore(store, index, { maxRemovedShare: 0.1 })).toMatchObject({ fromJournal: false, checked: PAGES + 1, reindexed: 0, indexable: PAGES });
    } finally {
      await index.close();
      await store.close();
    }
  });

  it('re-indexes every page of an index written with an earlier analysis', async () => {
    // What an earlier release wrote: page versions hashed without the analysis, a record without it.
    const manifestPath = join(dataDir, 'index', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { segments: Array<{ versions?: string[] }> };
    for (const segment of manifest.segments) segment.versions = segment.versions?.map((version) => `${version[0] === '0' ? '1' : '0'}${version.slice(1)}`);
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const record = JSON.parse(readFileSync(join(dataDir, 'index', 'store-sequence.json'), 'utf8')) as { analysis?: number };
    expect(record.analysis).toBe(INDEX_ANALYSIS);
    delete record.analysis;
    writeFileSync(join(dataDir, 'index', 'store-sequence.json'), JSON.stringify(record));
    const store = await CrawlStore.open(dataDir);
    const index = await TextIndex.open(dataDir, { maxSegmentDocs: 100 });
    try {
      expect(await catchUpWithStore(store, index, { maxRemovedShare: 0.1 })).toMatchObject({ fromJournal: false, reindexed: PAGES, rebuilt: true });
      expect(await catchUpWithStore(store, index, { maxRemovedShare: 0.1 })).toMatchObject({ fromJournal: true, checked: 0, reindexed: 0 });
      expect(index.search('wombat').total).toBe(5);
    } finally {
      await index.close();
      await store.close();
    }
  });
});
