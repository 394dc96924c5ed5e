/**
 * Reading `rel="alternate" hreflang` translations from each place a site may name them, and
 * telling which stored records predate it.
 */
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../crawler/html.ts';
import { linkHeaderAlternates } from '../crawler/page-fetch.ts';
import { storedWithAllTranslations } from '../crawler/page-language-fields.ts';
import { parseSitemap, SitemapFormatError } from '../crawler/sitemap-parse.ts';

async function* bytes(text: string): AsyncGenerator<Buffer> {
  yield Buffer.from(text);
}

describe('translations named in the page', () => {
  it('reads a language bar in the body: <a hreflang rel=alternate>, not other links', () => {
    const page = parseHtml(
      `<html lang="en"><body><div class="toplang"><a href="../de/a.html" hreflang="DE" rel="alternate">de</a> <a href="../fr/a.html" hreflang="fr" rel="alternate nofollow">fr</a>
      <a href="../ja/a.html" hreflang="ja">ja (no rel)</a> <a href="../ko/a.html" rel="alternate">ko (no hreflang)</a></div><main><p>Text.</p></main></body></html>`,
      'http://site.test/en/a.html',
    );
    expect(page.alternates).toEqual([
      { url: 'http://site.test/de/a.html', hreflang: 'de' },
      { url: 'http://site.test/fr/a.html', hreflang: 'fr' },
    ]);
    // The bar's links are still links.
    expect(page.links.map((link) => link.url)).toContain('http://site.test/ja/a.html');
  });

  it('still reads <link> in the head', () => {
    const page = parseHtml('<html><head><link rel="alternate" hreflang="de" href="/de/"><link rel="stylesheet" hreflang="fr" href="/x.css"></head><body></body></html>', 'http://site.test/');
    expect(page.alternates).toEqual([{ url: 'http://site.test/de/', hreflang: 'de' }]);
  });
});

describe('translations named by the Link header', () => {
  it('reads rel=alternate with hreflang, quoted or not, relative to the page', () => {
    const header = '</de/a.html>; rel="alternate"; hreflang="de", <https://other.test/fr/a.html>; hreflang=fr; rel=alternate, </style.css>; rel=preload; as=style, </ja/>; rel="canonical"; hreflang="ja"';
    expect(linkHeaderAlternates(header, 'http://site.test/en/a.html')).toEqual([
      { url: 'http://site.test/de/a.html', hreflang: 'de' },
      { url: 'https://other.test/fr/a.html', hreflang: 'fr' },
    ]);
  });

  it('skips what is not a link', () => {
    expect(linkHeaderAlternates(undefined, 'http://site.test/')).toEqual([]);
    expect(linkHeaderAlternates('garbage; rel=alternate', 'http://site.test/')).toEqual([]);
    expect(linkHeaderAlternates('<javascript:alert(1)>; rel=alternate; hreflang=de', 'http://site.test/')).toEqual([]);
  });
});

describe('translations named by a sitemap', () => {
  it('reads xhtml:link elements, which are self-closing', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url><loc>http://site.test/en/a.html</loc><lastmod>2026-01-02</lastmod>
    <xhtml:link rel="alternate" hreflang="en" href="http://site.test/en/a.html"/>
    <xhtml:link rel="alternate" hreflang="de-CH" href="http://site.test/de/a.html" />
  </url>
  <url><loc>http://site.test/b.html</loc></url>
</urlset>`;
    const parsed = await parseSitemap(bytes(xml));
    expect(parsed.entries).toEqual([
      {
        loc: 'http://site.test/en/a.html',
        lastmod: Date.UTC(2026, 0, 2),
        alternates: [
          { url: 'http://site.test/en/a.html', hreflang: 'en' },
          { url: 'http://site.test/de/a.html', hreflang: 'de-ch' },
        ],
      },
      { loc: 'http://site.test/b.html' },
    ]);
  });

  it('still refuses an element that is never closed', async () => {
    await expect(parseSitemap(bytes('<urlset><url><loc>http://site.test/</loc>'))).rejects.toThrow(SitemapFormatError);
  });
});

describe('stored records', () => {
  it('tells a local page stored before translations were read from every source', () => {
    expect(storedWithAllTranslations({ role: 'local', state: 'fetched' })).toBe(false);
    expect(storedWithAllTranslations({ role: 'local', state: 'not-modified' })).toBe(false);
    expect(storedWithAllTranslations({ role: 'local', state: 'fetched', alternates: [] })).toBe(true);
    expect(storedWithAllTranslations({ role: 'global', state: 'fetched' })).toBe(true);
    expect(storedWithAllTranslations({ role: 'local', state: 'error' })).toBe(true);
  });
});
