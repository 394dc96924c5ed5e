/**
 * Sitemap parsing throughput on hostile and ordinary shapes at 4, 16 and 64 MB uncompressed,
 * fed as a download would be (64 KB chunks; gzip variants through gunzip's own 16 KB chunks):
 * parsing must stay linear, so MB/s holds as the size grows. Inputs above the protocol's
 * 50 MB limit are cut there.
 */
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { parseSitemap, SitemapFormatError } from '../crawler/sitemap-parse.ts';
import type { BenchContext } from './run.ts';

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** Each shape as a function of its size in bytes. */
const SHAPES: Record<string, (bytes: number) => Buffer> = {
  'whitespace-gz': (bytes) => gzipSync(Buffer.alloc(bytes, 0x20)),
  'one-line-text': (bytes) => Buffer.from('http://s.test/' + 'a'.repeat(bytes - 14)),
  'blank-urlset': (bytes) => Buffer.from(`<urlset>${' '.repeat(bytes - 19)}</urlset>`),
  'long-loc': (bytes) => Buffer.from(`<urlset><url><loc>http://s.test/${'a'.repeat(bytes - 60)}</loc></url></urlset>`),
  'urlset-50k': () => {
    const urls = Array.from({ length: 50_000 }, (_, i) => `<url><loc>http://s.test/section/${i % 97}/page-${i}.html</loc><lastmod>2024-05-17</lastmod></url>`);
    return Buffer.from(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('\n')}</urlset>`);
  },
};

function inChunks(data: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += CHUNK) chunks.push(data.subarray(i, i + CHUNK));
  return Readable.from(chunks);
}

export async function sitemapParseBenchmarks(bench: BenchContext): Promise<void> {
  bench.heading('sitemap parsing: seconds and MB/s (uncompressed) per shape and size');
  const rows: Array<Array<string | number>> = [['case', 'input MB', 'seconds', 'MB/s', 'entries', 'outcome']];
  for (const [shape, make] of Object.entries(SHAPES)) {
    const sizes = shape === 'urlset-50k' ? [0] : [4, 16, 64];
    for (const size of sizes) {
      const name = size === 0 ? shape : `${shape}/${size}MB`;
      if (!bench.wants(name)) continue;
      const data = make(size * MB);
      const uncompressedMb = size === 0 ? data.length / MB : size;
      const timing = await bench.time(
        async () => {
          try {
            const parse = await parseSitemap(inChunks(data));
            return { entries: parse.entries.length, outcome: parse.truncated ? `cut (${parse.truncated})` : parse.kind };
          } catch (error) {
            if (!(error instanceof SitemapFormatError)) throw error;
            return { entries: 0, outcome: `refused: ${error.message.slice(0, 40)}` };
          }
        },
        { runs: 3, warmup: 0 },
      );
      const parsedMb = Math.min(uncompressedMb, 50);
      rows.push([name, Math.round(uncompressedMb * 10) / 10, timing.median, parsedMb / timing.median, timing.result.entries, timing.result.outcome]);
    }
  }
  bench.table(rows);
}
