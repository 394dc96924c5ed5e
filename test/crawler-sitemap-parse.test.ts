import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseLastmod, parseSitemap, SitemapFormatError } from '../crawler/sitemap-parse.ts';

const chunks = (text: string | Buffer, size = 7) => {
  const buffer = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < buffer.length; i += size) out.push(buffer.subarray(i, i + size));
  return Readable.from(out);
};
const urlset = (n: number) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: n }, (_, i) => `<url><loc>http://s.test/p${i}</loc></url>`).join('')}</urlset>`;

describe('parseSitemap', () => {
  it('reads a urlset split across tiny chunks, entities and namespaced tags included', async () => {
    const xml = `\uFEFF<?xml version="1.0"?><s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc> http://s.test/a?x=1&amp;y=2 </s:loc><s:lastmod>2024-05-17</s:lastmod></s:url><s:url><s:loc>http://s.test/b</s:loc><s:lastmod>yesterday</s:lastmod></s:url></s:urlset>`;
    expect(await parseSitemap(chunks(xml, 3))).toEqual({ kind: 'urlset', entries: [{ loc: 'http://s.test/a?x=1&y=2', lastmod: Date.UTC(2024, 4, 17) }, { loc: 'http://s.test/b' }], truncated: undefined });
  });

  it('tells gzip by its magic bytes and reads indexes', async () => {
    const index = '<sitemapindex><sitemap><loc>http://s.test/1.xml</loc><lastmod>2024-01-01T00:00:00Z</lastmod></sitemap></sitemapindex>';
    expect(await parseSitemap(chunks(gzipSync(index)))).toEqual({ kind: 'index', entries: [{ loc: 'http://s.test/1.xml', lastmod: Date.UTC(2024, 0, 1) }], truncated: undefined });
  });

  it('reads text sitemaps, one URL a line, skipping what is not one', async () => {
    const parse = await parseSitemap(chunks('http://s.test/1\r\n\nftp://s.test/x\njunk\nhttps://s.test/2'));
    expect(parse).toEqual({ kind: 'text', entries: [{ loc: 'http://s.test/1' }, { loc: 'https://s.test/2' }], truncated: undefined });
  });

  it('cuts at the URL limit and at the byte limit', async () => {
    const byUrls = await parseSitemap(chunks(urlset(30), 100), { maxUrls: 10 });
    expect(byUrls.entries).toHaveLength(10);
    expect(byUrls.truncated).toBe('urls');
    const byBytes = await parseSitemap(chunks(urlset(30), 100), { maxBytes: 400 });
    expect(byBytes.truncated).toBe('bytes');
    expect(byBytes.entries.length).toBeGreaterThan(0);
    expect(byBytes.entries.length).toBeLessThan(30);
  });

  it('refuses what is not a well-formed sitemap, with the reason', async () => {
    const cases: Array<[string, string]> = [
      ['<urlset><url><loc>http://s.test/a</loc></url>', '<urlset> is never closed'],
      ['<urlset><url><loc>http://s.test/a</lo></url></urlset>', 'never closed'],
      ['<!doctype html><html><body>hi</body></html>', 'not <urlset> or <sitemapindex>'],
      ['<urlset></urlset><urlset></urlset>', 'a second root element'],
      ['   ', 'empty sitemap'],
      ['just words', 'not a sitemap'],
    ];
    for (const [text, reason] of cases) {
      const error = await parseSitemap(chunks(text)).catch((e: unknown) => e);
      expect(error, text).toBeInstanceOf(SitemapFormatError);
      expect((error as Error).message, text).toContain(reason);
    }
    const badGzip = Buffer.concat([gzipSync(urlset(3)).subarray(0, 20), Buffer.from('garbage!')]);
    await expect(parseSitemap(chunks(badGzip))).rejects.toThrow(/bad gzip data/);
  });
});

describe('parseLastmod', () => {
  it('reads the W3C Datetime forms and nothing else', () => {
    expect(parseLastmod('2024')).toBe(Date.UTC(2024, 0, 1));
    expect(parseLastmod('2024-05')).toBe(Date.UTC(2024, 4, 1));
    expect(parseLastmod('2024-05-17T10:20+02:00')).toBe(Date.UTC(2024, 4, 17, 8, 20));
    expect(parseLastmod('2024-05-17T10:20:30.5Z')).toBe(Date.UTC(2024, 4, 17, 10, 20, 30, 500));
    expect(parseLastmod('May 17, 2024')).toBeUndefined();
    expect(parseLastmod('2024-13-40')).toBeUndefined();
  });
});
