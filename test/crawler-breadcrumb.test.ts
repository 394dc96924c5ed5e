/**
 * Breadcrumb trails as sites write them (the markup of schema.org's and Google's examples, Bootstrap,
 * Yoast, Drupal, Docusaurus, Sphinx), read by the one HTML parse, and the section a trail names.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CRUMB_NAME, MAX_CRUMBS, MAX_JSON_LD_CHARS } from '../crawler/breadcrumb.ts';
import { contentVersion, generateDemoWeb, type DemoPage } from '../crawler/demo-web/generate.ts';
import { renderDemoPage } from '../crawler/demo-web/render.ts';
import { parseHtml } from '../crawler/html.ts';
import { breadcrumbSection, pageFact } from '../indexer/ranking/page-facts.ts';
import type { PageRecord } from '../indexer/store/crawl-store.ts';

const PAGE = 'https://example.com/p/123.html';
const trail = (html: string, url = PAGE) => parseHtml(html, url).breadcrumb;
const page = (head: string, body: string) => `<!doctype html><html lang="en"><head><title>Award winners</title>${head}</head><body>${body}<main><p>Text.</p></main></body></html>`;

describe('breadcrumb trails', () => {
  it('reads a JSON-LD BreadcrumbList in position order, with the page itself unlinked', () => {
    // Google's documented example, its items given out of order.
    const json = {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 2, name: 'Science Fiction', item: 'https://example.com/books/sciencefiction' },
        { '@type': 'ListItem', position: 1, name: 'Books', item: 'https://example.com/books' },
        { '@type': 'ListItem', position: 3, name: 'Award Winners' },
      ],
    };
    expect(trail(page(`<script type="application/ld+json">${JSON.stringify(json)}</script>`, ''))).toEqual([
      { name: 'Books', url: 'https://example.com/books' },
      { name: 'Science Fiction', url: 'https://example.com/books/sciencefiction' },
      { name: 'Award Winners' },
    ]);
  });

  it('finds the list inside an @graph (Yoast) and takes names and ids from item objects', () => {
    const json = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebPage', '@id': 'https://example.com/p/123.html', name: 'Award winners' },
        {
          '@type': ['BreadcrumbList'],
          '@id': 'https://example.com/p/123.html#breadcrumb',
          itemListElement: [
            { '@type': 'ListItem', position: '1', item: { '@id': 'https://example.com/', name: 'Home' } },
            { '@type': 'ListItem', position: '2', item: { '@id': 'https://example.com/books/', name: { '@value': 'Books' } } },
          ],
        },
      ],
    };
    expect(trail(page(`<script type="application/ld+json">${JSON.stringify(json)}</script>`, ''))).toEqual([
      { name: 'Home', url: 'https://example.com/' },
      { name: 'Books', url: 'https://example.com/books/' },
    ]);
  });

  it('reads schema.org microdata and RDFa trails', () => {
    const microdata = `<ol itemscope itemtype="https://schema.org/BreadcrumbList">
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <a itemprop="item" href="https://example.com/dresses"><span itemprop="name">Dresses</span></a>
    <meta itemprop="position" content="1" />
  </li>
  ›
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <a itemscope itemtype="https://schema.org/WebPage" itemprop="item" itemid="https://example.com/dresses/real" href="https://example.com/dresses/real">
      <span itemprop="name">Real Dresses</span></a>
    <meta itemprop="position" content="2" />
  </li>
</ol>`;
    expect(trail(page('', microdata))).toEqual([
      { name: 'Dresses', url: 'https://example.com/dresses' },
      { name: 'Real Dresses', url: 'https://example.com/dresses/real' },
    ]);
    const rdfa = `<ol vocab="https://schema.org/" typeof="BreadcrumbList">
  <li property="itemListElement" typeof="ListItem"><a property="item" typeof="WebPage" href="/dresses"><span property="name">Dresses</span></a><meta property="position" content="1"></li>
  <li property="itemListElement" typeof="ListItem"><span property="name">Real Dresses</span><meta property="position" content="2"></li>
</ol>`;
    expect(trail(page('', rdfa))).toEqual([{ name: 'Dresses', url: 'https://example.com/dresses' }, { name: 'Real Dresses' }]);
  });

  it('reads navigation trails: Bootstrap, Yoast, Drupal, Docusaurus, Sphinx and plain text separators', () => {
    const bootstrap = `<nav aria-label="breadcrumb"><ol class="breadcrumb"><li class="breadcrumb-item"><a href="/">Home</a></li><li class="breadcrumb-item"><a href="/library/">Library</a></li><li class="breadcrumb-item active" aria-current="page">Data</li></ol></nav>`;
    expect(trail(page('', bootstrap))).toEqual([{ name: 'Home', url: 'https://example.com/' }, { name: 'Library', url: 'https://example.com/library/' }, { name: 'Data' }]);
    const yoast = `<p id="breadcrumbs"><span><span><a href="https://example.com/">Home</a></span> » <span><a href="https://example.com/blog/">Blog</a></span> » <span class="breadcrumb_last" aria-current="page">Award winners</span></span></p>`;
    expect(trail(page('', yoast))).toEqual([{ name: 'Home', url: 'https://example.com/' }, { name: 'Blog', url: 'https://example.com/blog/' }, { name: 'Award winners' }]);
    // Drupal's visually hidden heading is a label, not a crumb.
    const drupal = `<nav class="breadcrumb" role="navigation" aria-labelledby="system-breadcrumb"><h2 id="system-breadcrumb" class="visually-hidden">Breadcrumb</h2><ol><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ol></nav>`;
    expect(trail(page('', drupal))).toEqual([{ name: 'Home', url: 'https://example.com/' }, { name: 'News', url: 'https://example.com/news' }]);
    // Docusaurus: the home crumb is an icon (a link with no text).
    const docusaurus = `<nav class="theme-doc-breadcrumbs" aria-label="Breadcrumbs"><ul class="breadcrumbs"><li class="breadcrumbs__item"><a aria-label="Home page" class="breadcrumbs__link" href="/"><svg viewBox="0 0 24 24"><path d="M10 19v-5h4v5"></path></svg></a></li><li class="breadcrumbs__item"><span class="breadcrumbs__link">Guides</span></li><li class="breadcrumbs__item breadcrumbs__item--active"><span class="breadcrumbs__link">Installation</span></li></ul></nav>`;
    expect(trail(page('', docusaurus))).toEqual([{ name: '', url: 'https://example.com/' }, { name: 'Guides' }, { name: 'Installation' }]);
    const plain = `<div class="crumbs-wrapper"><div class="site-breadcrumbs">You are here: <a href="/">Start</a> &gt; <a href="/faculty/">Faculty</a> / Physics / <b>Award winners</b></div></div>`;
    expect(trail(page('', plain))).toEqual([{ name: 'Start', url: 'https://example.com/' }, { name: 'Faculty', url: 'https://example.com/faculty/' }, { name: 'Physics' }, { name: 'Award winners' }]);
    // The demo web's trail.
    const demo = `<nav class="breadcrumbs"><a href="/">Home</a> › <a href="/physics/">Physics</a> › Award winners</nav>`;
    expect(trail(page('', demo))).toEqual([{ name: 'Home', url: 'https://example.com/' }, { name: 'Physics', url: 'https://example.com/physics/' }, { name: 'Award winners' }]);
  });

  it("reads the demo web's trails: every article names its site's home, its section and itself", () => {
    const web = generateDemoWeb({ seed: 7, hosts: 20, pages: 1000 });
    const articles = web.resources.filter((r): r is DemoPage => r.kind === 'page' && r.role === 'article' && r.section >= 0 && r.body === undefined);
    expect(articles.length).toBeGreaterThan(100);
    for (const article of articles) {
      const section = web.sites[article.site].sections[article.section];
      const html = renderDemoPage(web, article, contentVersion(article, web.epochMs));
      expect(parseHtml(html, article.url).breadcrumb, article.url).toEqual([
        { name: 'Home', url: new URL('/', article.url).href },
        { name: section.name, url: new URL(section.path, article.url).href },
        { name: article.title },
      ]);
    }
  });

  it('prefers JSON-LD to markup, and leaves a page without a trail with none', () => {
    const json = { '@type': 'BreadcrumbList', itemListElement: [{ position: 1, name: 'Books', item: '/books' }] };
    const both = page(`<script type="application/ld+json">${JSON.stringify(json)}</script>`, `<nav class="breadcrumbs"><a href="/dresses">Dresses</a></nav>`);
    expect(trail(both)).toEqual([{ name: 'Books', url: 'https://example.com/books' }]);
    expect(trail(page('', '<nav><a href="/">Home</a> › <a href="/a">A</a></nav>'))).toEqual([]);
    // An empty container (filled by a script) is skipped for the next one.
    expect(trail(page('', '<div class="breadcrumbs"></div><ol class="breadcrumb"><li><a href="/x">X</a></li></ol>'))).toEqual([{ name: 'X', url: 'https://example.com/x' }]);
  });

  it('keeps the trail out of the page text and its links among the links', () => {
    const parsed = parseHtml(page('', `<div class="breadcrumbs"><a href="/library/">Library</a> › Award winners</div>`), PAGE);
    expect(parsed.content.text).toBe('Text.');
    expect(parsed.links.map((link) => link.url)).toContain('https://example.com/library/');
  });

  it('skips broken, oversized and hostile JSON-LD and caps long trails and names', () => {
    const good = `<script type="application/ld+json">${JSON.stringify({ '@type': 'BreadcrumbList', itemListElement: [{ position: 1, name: 'Good', item: '/good' }] })}</script>`;
    // Broken JSON is skipped; the next block still counts.
    expect(trail(page(`<script type="application/ld+json">{"@type": "BreadcrumbList", itemListElement: [</script>${good}`, ''))).toEqual([{ name: 'Good', url: 'https://example.com/good' }]);
    const huge = { '@type': 'BreadcrumbList', itemListElement: [{ position: 1, name: 'x'.repeat(MAX_JSON_LD_CHARS), item: '/x' }] };
    expect(trail(page(`<script type="application/ld+json">${JSON.stringify(huge)}</script>`, ''))).toEqual([]);
    // Nested deeper than any recursion could go: found iteratively or not at all, never a crash.
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(trail(page(`<script type="application/ld+json">${deep}</script>`, ''))).toEqual([]);
    // Wrong shapes: a string list, items without names or links, a javascript: link.
    const odd = { '@type': 'BreadcrumbList', itemListElement: ['Home', { position: 1 }, { position: 2, name: 'Ok', item: 'javascript:alert(1)' }] };
    expect(trail(page(`<script type="application/ld+json">${JSON.stringify(odd)}</script>`, ''))).toEqual([{ name: 'Ok' }]);
    const long = { '@type': 'BreadcrumbList', itemListElement: Array.from({ length: 5000 }, (_, i) => ({ position: i + 1, name: `Level ${i} ${'w'.repeat(1000)}`, item: `/l${i}` })) };
    const longTrail = trail(page(`<script type="application/ld+json">${JSON.stringify(long).slice(0, MAX_JSON_LD_CHARS)}</script>`, ''));
    expect(longTrail).toEqual([]); // cut short: not JSON
    const capped = trail(page(`<script type="application/ld+json">${JSON.stringify({ ...long, itemListElement: long.itemListElement.slice(0, 150) })}</script>`, ''));
    expect(capped).toHaveLength(MAX_CRUMBS);
    expect(capped.every((crumb) => crumb.name.length <= MAX_CRUMB_NAME)).toBe(true);
    expect(capped[0]).toEqual({ name: `Level 0 ${'w'.repeat(MAX_CRUMB_NAME - 8)}`, url: 'https://example.com/l0' });
    // Markup: a thousand crumbs of a megabyte of text.
    const crumbs = Array.from({ length: 1000 }, (_, i) => `<li><a href="/c${i}">${'n'.repeat(1000)}</a></li>`).join('');
    const markup = trail(page('', `<ol class="breadcrumb">${crumbs}</ol>`));
    expect(markup).toHaveLength(MAX_CRUMBS);
    expect(markup.every((crumb) => crumb.name.length <= MAX_CRUMB_NAME)).toBe(true);
  });
});

describe('the section a trail names', () => {
  it('is the first crumb below the home, never the page itself', () => {
    const home = { name: 'Home', url: 'https://example.com/' };
    expect(breadcrumbSection([home, { name: 'Physics', url: 'https://example.com/s/4.html' }, { name: 'The atom' }], PAGE)).toBe('physics');
    // Home and page only: no section from the trail.
    expect(breadcrumbSection([home, { name: 'About us' }], PAGE)).toBeUndefined();
    expect(breadcrumbSection([home, { name: 'About us', url: PAGE }], PAGE)).toBeUndefined();
    expect(breadcrumbSection([home, { name: 'About us', url: 'https://example.com/x' }], PAGE, 'About us | Example')).toBeUndefined();
    // A trail without the page: its last crumb is a section.
    expect(breadcrumbSection([home, { name: 'Library', url: 'https://example.com/s/9.html' }], PAGE, 'Library opening hours')).toBe('library');
    // Homes: a language's root, an icon link, a name in another language; several of them.
    expect(breadcrumbSection([{ name: 'Startseite', url: 'https://example.com/start.html' }, { name: 'Forschung', url: 'https://example.com/s/1' }, { name: 'x' }], PAGE)).toBe('forschung');
    expect(breadcrumbSection([{ name: '', url: 'https://example.com/de/index.html' }, { name: '  Lehre  und Studium ', url: 'https://example.com/s/2' }, { name: 'x' }], PAGE, undefined, 'de')).toBe('lehre und studium');
    expect(breadcrumbSection([{ name: 'University', url: 'https://www.example.edu/' }, home, { name: 'News' }, { name: 'x' }], PAGE)).toBe('news');
    expect(breadcrumbSection([], PAGE)).toBeUndefined();
    expect(breadcrumbSection(undefined, PAGE)).toBeUndefined();
  });

  it('is the facet section of a page with a trail, else the URL rule', () => {
    const record: PageRecord = { url: PAGE, host: 'example.com', role: 'local', state: 'fetched', status: 200, fetchedAt: 0, depth: 1, visits: 1, changes: 0, title: 'The atom' };
    const urlOf = () => undefined;
    expect(pageFact({ ...record, breadcrumb: [{ name: 'Home', url: 'https://example.com/' }, { name: 'Physics', url: 'https://example.com/s/4' }, { name: 'The atom' }] }, urlOf)?.section).toBe('physics');
    expect(pageFact({ ...record, breadcrumb: [{ name: 'Home', url: 'https://example.com/' }, { name: 'The atom' }] }, urlOf)?.section).toBe('p');
    expect(pageFact(record, urlOf)?.section).toBe('p');
  });
});
