import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { storeLocalPageRank } from '../server/jobs/local-pagerank.ts';
import { loadLocalGraph } from '../server/jobs/local-graph.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { drawWord, realWordTable, scaleUrl } from './scale-corpus.ts';
const dir = process.env.DIR ?? mkdtempSync(join(tmpdir(), 'gap2-'));
const count = Number(process.env.N ?? 300000);
if (!process.env.DIR) {
  const table = realWordTable();
  const store = await CrawlStore.open(dir);
  const random = seededRandom(11);
  let batch = store.batch();
  for (let i = 0; i < count; i++) {
    const id = batch.idFor(scaleUrl(i));
    const words: string[] = [];
    for (let w = 150 + Math.floor(random() * 100); w > 0; w--) words.push(drawWord(table, random));
    const page: PageRecord = { url: scaleUrl(i), host: 'big.example.org', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 1, title: '', text: words.join(' '), fingerprint: '', visits: 1, changes: 0 };
    batch.putPage(id, page).putLinks(id, Array.from({ length: 5 + Math.floor(random() * 11) }, () => ({ to: batch.idFor(scaleUrl(Math.floor(random() * count))) })));
    if (batch.size >= 2000) { await batch.commit({ sync: false }); batch = store.batch(); }
  }
  await batch.commit();
  await store.close();
  console.log('DIR', dir);
}
const store = await CrawlStore.open(dir);
(globalThis as any).__t0 = performance.now();
async function gap(label: string, run: () => Promise<unknown>) {
  const t0 = performance.now(); (globalThis as any).__t0 = t0;
  let last = t0;
  const timer = setInterval(() => { const now = performance.now(); if (now - last > 40) console.log('  gap', (now-last).toFixed(0), 'at', (last-t0).toFixed(0)); last = now; }, 1);
  await run(); clearInterval(timer);
  console.log(label, 'total', (performance.now() - t0).toFixed(0));
}
await gap('graph', () => loadLocalGraph(store));
await gap('worker', () => storeLocalPageRank(store, 0.85, 1e-6));
await store.close();
