/**
 * Stored bodies compressed in raw-deflate blocks (indexer/text-index/body-blocks.ts):
 * - `scale`: the scale benchmark's pages (~250 words, bench/scale-corpus.ts) through the real
 *   encoder, raw vs compressed: text-file bytes, the ratio, encode CPU per body, and the bytes of
 *   a million pages at that ratio;
 * - `large`: the biggest installed documentation pages, per block size: ratio, compression
 *   speed, and what a snippet's window (1 KB or 4 KB from a random place) costs to read back.
 *
 *   npm run bench -- body-compression
 */
import { loadavg } from 'node:os';
import { BodyBlockCache } from '../indexer/text-index/body-block-cache.ts';
import { BODY_BLOCK_BYTES, bodyLayout, encodeBody, readRawRange } from '../indexer/text-index/body-blocks.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { encodeDocuments, type DocumentToStore } from '../indexer/text-index/stored-documents.ts';
import type { BenchContext } from './run.ts';
import { realWordTable, scalePageLine } from './scale-corpus.ts';
import { longestPages } from './whole-pages.bench.ts';

const SCALE_PAGES = 20_000;
const encoder = new TextEncoder();

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

function scaleCase(bench: BenchContext): void {
  const table = realWordTable();
  bench.heading(`body compression: ${SCALE_PAGES.toLocaleString('en-US')} scale-benchmark pages (load ${loadavg()[0].toFixed(1)})`);
  let raw = 0;
  let stored = 0;
  let rawMs = 0;
  let encodeMs = 0;
  for (let from = 0; from < SCALE_PAGES; from += 1_000) {
    const docs: DocumentToStore[] = [];
    for (let i = from; i < from + 1_000; i++) {
      const page = JSON.parse(scalePageLine(table, i, 1_000_000)) as { url: string; title: string; body: string };
      docs.push({ id: i, url: page.url, host: 'big.example.org', title: page.title, headings: [], text: page.body, lang: 'en' });
    }
    // The floor: the UTF-8 bytes alone, which is what a raw body cost to encode.
    let since = process.cpuUsage();
    for (const doc of docs) raw += encoder.encode(doc.text).length;
    rawMs += cpuMs(since);
    since = process.cpuUsage();
    stored += encodeDocuments(docs).texts.length;
    encodeMs += cpuMs(since);
  }
  const ratio = raw / stored;
  bench.table([
    ['pages', 'raw MB', 'stored MB', 'ratio', 'UTF-8 µs/body', 'encode µs/body', '1M pages: raw → stored GB'],
    [SCALE_PAGES, (raw / 1e6).toFixed(1), (stored / 1e6).toFixed(1), ratio.toFixed(3), ((rawMs * 1000) / SCALE_PAGES).toFixed(1), ((encodeMs * 1000) / SCALE_PAGES).toFixed(1), `${((raw / SCALE_PAGES) * 1e6 / 1e9).toFixed(2)} → ${((stored / SCALE_PAGES) * 1e6 / 1e9).toFixed(2)}`],
  ]);
  bench.note('encode µs/body: encodeDocuments with compression, lines included; CPU time of this thread');
}

function largeCase(bench: BenchContext): void {
  const bodies = longestPages().map((doc) => encoder.encode(doc.text));
  if (bodies.length === 0) {
    bench.note('body compression: no installed documentation pages; large case skipped');
    return;
  }
  const raw = bodies.reduce((sum, body) => sum + body.length, 0);
  bench.heading(`body compression: the ${bodies.length} biggest installed documentation pages, ${(raw / 1e6).toFixed(1)} MB of text, per block size (load ${loadavg()[0].toFixed(1)})`);
  const rows: Array<Array<string | number>> = [['block', 'ratio', 'compress MB/s', '1 KB window µs', '4 KB window µs', '1 KB window, kept µs']];
  for (const blockBytes of [4_096, 8_192, BODY_BLOCK_BYTES, 32_768, 1 << 30]) {
    const since = process.cpuUsage();
    const stored = bodies.map((body) => {
      const encoded = encodeBody(body, 0, blockBytes);
      const bytes = new Uint8Array(encoded.chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      let at = 0;
      for (const chunk of encoded.chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      return { bytes, layout: bodyLayout([0, ...encoded.entries], 'bench') };
    });
    const seconds = cpuMs(since) / 1000;
    const storedBytes = stored.reduce((sum, s) => sum + s.bytes.length, 0);
    // With `kept`, the windows go through a block cache that a first pass over the same windows filled.
    const windowMicros = (windowBytes: number, kept?: BodyBlockCache) => {
      const pass = () => {
        const random = seededRandom(7);
        const started = performance.now();
        for (let i = 0; i < 2_000; i++) {
          const { bytes, layout } = stored[Math.floor(random() * stored.length)];
          const from = Math.floor(random() * Math.max(1, layout.rawBytes - windowBytes));
          readRawRange(layout, from, from + windowBytes, (position, length) => bytes.subarray(position, position + length), 'bench', kept && { cache: kept, file: 'bench' });
        }
        return ((performance.now() - started) * 1000) / 2_000;
      };
      if (kept) pass();
      const times = [pass(), pass(), pass()];
      return times.sort((a, b) => a - b)[1].toFixed(1);
    };
    const label = blockBytes === 1 << 30 ? 'whole page' : `${blockBytes / 1024} KB${blockBytes === BODY_BLOCK_BYTES ? ' (used)' : ''}`;
    rows.push([label, (raw / storedBytes).toFixed(2), (raw / 1e6 / seconds).toFixed(0), windowMicros(1_000), windowMicros(4_000), windowMicros(1_000, new BodyBlockCache(1 << 30))]);
  }
  bench.table(rows);
  bench.note('window µs: median of 3 runs of 2,000 random windows read from memory (the blocks they cover inflated); kept: the same windows again, their blocks in the block cache passages use (body-block-cache.ts)');
}

export async function bodyCompressionBenchmarks(bench: BenchContext): Promise<void> {
  if (bench.wants('scale')) scaleCase(bench);
  if (bench.wants('large')) largeCase(bench);
}
