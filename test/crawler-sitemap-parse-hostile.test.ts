import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseSitemap, SITEMAP_MAX_URL_CHARS, SitemapFormatError } from '../crawler/sitemap-parse.ts';

const MB = 1024 * 1024;

/** The data in 64 KB chunks (as a download comes), counting the chunks the parser pulled. */
function source(data: Buffer, chunk = 64 * 1024): { stream: AsyncIterable<Buffer>; pulled: () => number } {
  let pulled = 0;
  async function* chunks() {
    for (let i = 0; i < data.length; i += chunk) {
      pulled++;
      yield data.subarray(i, i + chunk);
    }
  }
  return { stream: chunks(), pulled: () => pulled };
}

async function outcome(data: Buffer): Promise<string> {
  try {
    const parse = await parseSitemap(source(data).stream);
    return `${parse.kind} ${parse.entries.length}`;
  } catch (error) {
    if (error instanceof SitemapFormatError) return error.message;
    throw error;
  }
}

/** Fastest of three parses, in ms (the fastest is the least disturbed by the machine's load). */
async function fastestMs(data: Buffer): Promise<number> {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    await outcome(data);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * Hostile shapes at 1 MB and at 8 MB: linear work takes about 8 times as long on the larger
 * one, quadratic work 64 times. The bound, 24, leaves room for the machine's load.
 */
const SHAPES: Record<string, (bytes: number) => Buffer> = {
  'white space only, gzipped': (bytes) => gzipSync(Buffer.alloc(bytes, 0x20)),
  'one text line': (bytes) => Buffer.from('http://s.test/' + 'a'.repeat(bytes)),
  'a urlset of white space': (bytes) => Buffer.from(`<urlset>${' '.repeat(bytes)}</urlset>`),
  'one long <loc>': (bytes) => Buffer.from(`<urlset><url><loc>http://s.test/${'a'.repeat(bytes)}</loc></url></urlset>`),
};

describe('parsing hostile sitemaps takes time linear in their size', () => {
  afterEach(() => vi.restoreAllMocks());

  for (const [shape, make] of Object.entries(SHAPES)) {
    it(shape, async () => {
      const small = make(1 * MB);
      const large = make(8 * MB);
      expect(await outcome(large)).toBe(await outcome(small));
      const ratio = (await fastestMs(large)) / Math.max(1, await fastestMs(small));
      expect(ratio, `8 MB took ${ratio.toFixed(1)} times as long as 1 MB`).toBeLessThan(24);
    }, 60_000);
  }

  it('keeps no growing copy of leading white space', async () => {
    const data = gzipSync(Buffer.alloc(8 * MB, 0x0a));
    const concat = vi.spyOn(Buffer, 'concat');
    expect(await outcome(data)).toBe('empty sitemap');
    const copied = concat.mock.results.reduce((sum, result) => sum + (result.value as Buffer).length, 0);
    // A few small joins (the gzip header, zlib's own) against gigabytes when the lead was re-joined per chunk.
    expect(copied).toBeLessThan(64 * 1024);
  });
});

describe('hostile sitemaps are refused or trimmed without reading on', () => {
  it('refuses elements nested too deep, and stops reading at the fault', async () => {
    const data = Buffer.from(`<urlset>${'<a>'.repeat(1_000_000)}`);
    const { stream, pulled } = source(data);
    await expect(parseSitemap(stream)).rejects.toThrow(/nested deeper than/);
    expect(pulled()).toBe(1);
  });

  it('drops a <loc> or a text line too long to be a URL, and keeps the others', async () => {
    const long = `http://s.test/${'x'.repeat(SITEMAP_MAX_URL_CHARS)}`;
    const xml = `<urlset><url><loc>${long}</loc></url><url><loc>http://s.test/ok</loc></url></urlset>`;
    expect((await parseSitemap(source(Buffer.from(xml), 1000).stream)).entries).toEqual([{ loc: 'http://s.test/ok' }]);
    const text = `${long}\nhttp://s.test/ok\n${long}`;
    expect((await parseSitemap(source(Buffer.from(text), 1000).stream)).entries).toEqual([{ loc: 'http://s.test/ok' }]);
  });

  it('keeps a byte order mark split over chunks out of the first URL', async () => {
    const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('  \nhttp://s.test/a\n')]);
    expect((await parseSitemap(source(text, 1).stream)).entries).toEqual([{ loc: 'http://s.test/a' }]);
    const xml = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<urlset><url><loc>http://s.test/b</loc></url></urlset>')]);
    expect((await parseSitemap(source(xml, 2).stream)).entries).toEqual([{ loc: 'http://s.test/b' }]);
  });

  it('stops when its signal aborts (a time budget), between chunks', async () => {
    const controller = new AbortController();
    const data = Buffer.from(`<urlset>${' '.repeat(4 * MB)}</urlset>`);
    let pulled = 0;
    async function* chunks() {
      for (let i = 0; i < data.length; i += 64 * 1024) {
        if (++pulled === 3) controller.abort(new Error('over its time budget'));
        yield data.subarray(i, i + 64 * 1024);
      }
    }
    await expect(parseSitemap(chunks(), { signal: controller.signal })).rejects.toThrow('over its time budget');
    expect(pulled).toBe(3);
  });
});
