import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { Supergraph } from '../indexer/estimation/supergraph.ts';
import { restrictAndNormalise } from '../indexer/metrics.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { loadLocalDomain } from '../server/jobs/estimation-round.ts';
import { sortByUrlSteps } from '../server/jobs/local-graph-rows.ts';
import { runStepsYielding } from '../indexer/stepwise.ts';
import { storeLocalPageRank } from '../server/jobs/local-pagerank.ts';
import { computeLocalPageRankInWorker } from '../server/jobs/local-pagerank-thread.ts';
import { computeLocalPageRank } from '../server/jobs/local-pagerank-compute.ts';
import { buildDemoDataDir } from './helpers/demo-data-dir.ts';
import { linkedPage as page, rewriteSomePages, writeMixedStore } from './helpers/mixed-link-store.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

/** The local PageRank as it was computed before the worker: URLs, a Supergraph of L, on this thread. */
async function referenceLocalPageRank(store: CrawlStore, alpha: number, tolerance: number): Promise<{ ids: Int32Array; values: Float64Array }> {
  const domain = await loadLocalDomain(store);
  const graph = new Supergraph(domain.pages).graph();
  const values = restrictAndNormalise(pageRank(graph, { alpha, tolerance }).rank, Int32Array.from({ length: domain.pages.length }, (_, i) => i));
  return { ids: domain.ids, values };
}

async function storedLocalPageRank(store: CrawlStore): Promise<{ ids: Int32Array; values: Float64Array }> {
  const ranks = await store.latestRanks('local-current');
  if (!ranks) throw new Error('no local-current ranks stored');
  return { ids: Int32Array.from(ranks.ids), values: Float64Array.from(ranks.values) };
}

function bytesOf(vector: Float64Array | Int32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

async function expectSameAsReference(store: CrawlStore, alpha: number, tolerance: number, workers?: 0 | 1): Promise<void> {
  const reference = await referenceLocalPageRank(store, alpha, tolerance);
  const count = await storeLocalPageRank(store, alpha, tolerance, workers === undefined ? {} : { workers });
  const stored = await storedLocalPageRank(store);
  expect(count).toBe(reference.ids.length);
  expect(bytesOf(stored.ids).equals(bytesOf(reference.ids))).toBe(true);
  expect(bytesOf(stored.values).equals(bytesOf(reference.values))).toBe(true);
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function openTempStore(): Promise<CrawlStore> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-local-pagerank-'));
  dirs.push(dir);
  return CrawlStore.open(dir);
}

describe('storeLocalPageRank', () => {
  it('stores the same vector, bit for bit, as the Supergraph computation on a store with every kind of link', async () => {
    const store = await openTempStore();
    try {
      await writeMixedStore(store, 12_000, 3);
      await expectSameAsReference(store, 0.85, 1e-9);
      await expectSameAsReference(store, 0.5, 1e-6, 0);
      // The graph read from the rows saved by the last computation and the pages written since.
      await rewriteSomePages(store, 12_000, 4);
      await expectSameAsReference(store, 0.85, 1e-9);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!hasSharedData)(`stores the same vector as the Supergraph computation on the hollins reference graph${hasSharedData ? '' : ` (${sharedDataSkipReason})`}`, async () => {
    const store = await openTempStore();
    try {
      const urls = new Map<string, string>();
      for (const line of gunzipSync(readFileSync(sharedGraphFile('hollins', 'nodes'))).toString('utf8').split('\n')) {
        const [node, url] = line.split('\t');
        if (node && url) urls.set(node, url);
      }
      const links = new Map<string, string[]>();
      for (const line of gunzipSync(readFileSync(sharedGraphFile('hollins', 'edges'))).toString('utf8').split('\n')) {
        const [from, to] = line.split('\t');
        if (from && to) links.set(from, [...(links.get(from) ?? []), to]);
      }
      const batch = store.batch();
      for (const [node, url] of urls) {
        const id = batch.idFor(url);
        batch.putPage(id, page(url, 'local', 'fetched'));
        batch.putLinks(id, (links.get(node) ?? []).filter((to) => urls.has(to)).map((to) => ({ to: batch.idFor(urls.get(to)!) })));
      }
      await batch.commit();
      await expectSameAsReference(store, 0.85, 1e-10);
    } finally {
      await store.close();
    }
  });

  it('stores the same vector as the Supergraph computation on the crawled demo web', async () => {
    const demo = await buildDemoDataDir({ pages: 400 });
    try {
      await expectSameAsReference(demo.store, demo.settings.estimation.alpha, demo.settings.estimation.tolerance);
    } finally {
      await demo.close();
    }
  }, 120_000);

  it('keeps the event loop turning while the PageRank is computed in the worker', async () => {
    const store = await openTempStore();
    try {
      // 20k pages in a row, each linking to the 25 that follow it (the last ones to none): rank
      // flows down the row and the power iteration runs to its cap of 1,000 rounds (random links
      // converge in about 20), which pauses a thread far longer than any of the loading's steps,
      // even on a loaded machine.
      let batch = store.batch();
      for (let i = 0; i < 20_000; i++) {
        const id = batch.idFor(`https://site.example.org/${i}`);
        batch.putPage(id, page(`https://site.example.org/${i}`, 'local', 'fetched'));
        batch.putLinks(id, Array.from({ length: Math.max(0, Math.min(25, 20_000 - 1 - i)) }, (_, k) => ({ to: batch.idFor(`https://site.example.org/${i + 1 + k}`) })));
        if (batch.size >= 2000) {
          await batch.commit({ sync: false });
          batch = store.batch();
        }
      }
      await batch.commit();
      // The longest gap between the callbacks of a 1-ms timer: what a server would pause for.
      const longestGap = async (run: () => Promise<unknown>) => {
        let longest = 0;
        let last = performance.now();
        const timer = setInterval(() => {
          const now = performance.now();
          longest = Math.max(longest, now - last);
          last = now;
        }, 1);
        try {
          await run();
        } finally {
          clearInterval(timer);
        }
        return Math.max(longest, performance.now() - last);
      };
      // A tight tolerance: hundreds of iterations, so the power iteration dominates the in-thread pause.
      const inThread = await longestGap(() => storeLocalPageRank(store, 0.99, 1e-15, { workers: 0 }));
      const inWorker = await longestGap(() => storeLocalPageRank(store, 0.99, 1e-15));
      expect(inWorker).toBeLessThan(inThread / 2);
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('computeLocalPageRankInWorker', () => {
  it('returns the vector computed in the worker, and rejects with a code when the worker fails', async () => {
    const job = () => ({ nodeCount: 3, sources: [Int32Array.from([0, 1, 2])], targets: [Int32Array.from([1, 2, 0])], edgeCount: 3, alpha: 0.85, tolerance: 1e-9 });
    expect([...(await computeLocalPageRankInWorker(job()))]).toEqual([1 / 3, 1 / 3, 1 / 3]);
    // An edge to a page that does not exist: the graph cannot be built in the worker.
    await expect(computeLocalPageRankInWorker({ ...job(), targets: [Int32Array.from([1, 2, 7])] })).rejects.toMatchObject({ code: 'LSE_LOCAL_PAGERANK_WORKER_FAILED', message: expect.stringContaining('outside') });
  });

  it('reads the edges where they are: nothing of the calling thread is detached', async () => {
    // A transfer would detach the chunks here, and the first detach of a thread throws away its optimized code.
    const shared = (values: number[]) => {
      const chunk = new Int32Array(new SharedArrayBuffer(values.length * 4));
      chunk.set(values);
      return chunk;
    };
    const sources = [shared([0, 1]), shared([2, 0])];
    const targets = [shared([1, 2]), shared([0, 2])];
    const rank = await computeLocalPageRankInWorker({ nodeCount: 3, sources, targets, edgeCount: 4, alpha: 0.85, tolerance: 1e-12 });
    expect(bytesOf(rank).equals(bytesOf(computeLocalPageRank({ nodeCount: 3, sources, targets, edgeCount: 4, alpha: 0.85, tolerance: 1e-12 })))).toBe(true);
    expect([...sources[0], ...sources[1], ...targets[0], ...targets[1]]).toEqual([0, 1, 2, 0, 1, 2, 0, 2]);
  });
});

describe('computeLocalPageRank', () => {
  it('reads edges split over chunks, the last one partly filled, as one list', () => {
    const random = seededRandom(4);
    const sources = Int32Array.from({ length: 5000 }, () => Math.floor(random() * 300));
    const targets = Int32Array.from({ length: 5000 }, () => Math.floor(random() * 300));
    const whole = computeLocalPageRank({ nodeCount: 300, sources: [sources], targets: [targets], edgeCount: 5000, alpha: 0.85, tolerance: 1e-12 });
    const padded = (array: Int32Array, from: number) => {
      const chunk = new Int32Array(2048);
      chunk.set(array.subarray(from, from + 2048));
      return chunk;
    };
    const chunked = computeLocalPageRank({ nodeCount: 300, sources: [0, 2048, 4096].map((at) => padded(sources, at)), targets: [0, 2048, 4096].map((at) => padded(targets, at)), edgeCount: 5000, alpha: 0.85, tolerance: 1e-12 });
    expect(bytesOf(chunked).equals(bytesOf(whole))).toBe(true);
  });
});

describe('sortByUrlSteps', () => {
  it('orders ids as a sort of their URLs does, across runs and merges', async () => {
    const random = seededRandom(9);
    const urls = Array.from({ length: 20_000 }, (_, i) => `https://h${Math.floor(random() * 50)}.example.org/${Math.floor(random() * 1e9)}/${i}`);
    const ids = Int32Array.from(urls.keys()).sort(() => 0);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    const expected = [...ids].sort((a, b) => (urls[a] < urls[b] ? -1 : urls[a] > urls[b] ? 1 : 0));
    expect([...(await runStepsYielding(sortByUrlSteps(ids, (id) => urls[id])))]).toEqual(expected);
    expect([...(await runStepsYielding(sortByUrlSteps(ids.subarray(0, 3), (id) => urls[id])))]).toEqual([...ids.subarray(0, 3)].sort((a, b) => (urls[a] < urls[b] ? -1 : 1)));
  });
});
