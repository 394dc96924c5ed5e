import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHtml } from '../crawler/html.ts';
import { mainContent } from '../crawler/main-content.ts';
import { debianDocs, readDoc } from './helpers/debian-docs.ts';

const PAGE = 'http://site.test/en/guide.html';
const menu = (n: number) => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/p${i}">Page ${i}</a></li>`).join('')}</ul>`;

describe('main content', () => {
  it('takes <main> and leaves the header, navigation, sidebar and footer out', () => {
    const html = `<header><a href="/">Example Site</a> ${menu(5)}</header><nav>${menu(20)}</nav>
      <main><h1 id="intro">Introduction</h1><p>The real text of the page.</p><h2><a id="setup"></a>Setup</h2><p>Install it first.</p></main>
      <aside>${menu(30)}</aside><footer>Copyright Example</footer>`;
    const { content } = parseHtml(html, PAGE);
    expect(content.text).toBe('Introduction The real text of the page. Setup Install it first.');
    expect(content.headings).toEqual(['Introduction', 'Setup']);
    expect(content.sections).toEqual([
      { heading: 'Introduction', anchor: 'intro', start: 0 },
      { heading: 'Setup', anchor: 'setup', start: content.text.indexOf('Setup') },
    ]);
  });

  it('uses role=main, then articles; headers and footers inside them are content', () => {
    expect(parseHtml(`<div>Site name</div><div role="main"><p>Body text here that is long enough to be the main part of the page, more than the rest.</p></div>`, PAGE).content.text).toBe(
      'Body text here that is long enough to be the main part of the page, more than the rest.',
    );
    const article = parseHtml(`<div>Site</div><article><header><h1>Post title</h1></header><p>${'Post text. '.repeat(30)}</p><footer>By Ann</footer></article>`, PAGE).content;
    expect(article.text.startsWith('Post title Post text.')).toBe(true);
    expect(article.text.endsWith('By Ann')).toBe(true);
  });

  it('without landmarks, drops link lists, cookie banners and navigation by class', () => {
    const html = `<div class="navheader"><a href="/prev">Prev</a> Chapter 3 <a href="/next">Next</a></div>
      <div id="cookie-banner">We use cookies. <button>Accept</button></div>
      <div class="toc">${menu(120)}</div>
      <div><h1 id="c3">Chapter 3</h1><p>Text of the chapter, with <a href="/x">one link</a> in it.</p></div>`;
    const { content, text } = parseHtml(html, PAGE);
    expect(text).toContain('Page 119');
    expect(content.text).toBe('Chapter 3 Text of the chapter, with one link in it.');
    expect(content.sections).toEqual([{ heading: 'Chapter 3', anchor: 'c3', start: 0 }]);
  });

  it('takes the section a heading opens as its anchor', () => {
    const { content } = parseHtml(`<main><section id="install"><h2>Installing</h2><p>Run the installer.</p></section></main>`, PAGE);
    expect(content.sections).toEqual([{ heading: 'Installing', anchor: 'install', start: 0 }]);
  });

  it('falls back to the whole page when the main region is nearly empty (built by scripts)', () => {
    const html = `<main></main><div><p>${'Visible text of a page whose main element stays empty. '.repeat(10)}</p></div>`;
    expect(parseHtml(html, PAGE).content.text).toContain('Visible text of a page');
  });

  it('merges regions and maps heading offsets (pure function)', () => {
    const full = 'MENU Title body text FOOT';
    const result = mainContent(full, [{ kind: 'boilerplate', start: 0, end: 5 }, { kind: 'boilerplate', start: 21, end: 25 }], [{ text: 'Title', start: 5, anchor: 't' }, { text: 'Menu', start: 0 }]);
    expect(result).toEqual({ text: 'Title body text', headings: ['Title'], sections: [{ heading: 'Title', anchor: 't', start: 0 }], definitions: [] });
  });
});

const debian = debianDocs().filter((doc) => doc.key.startsWith('reference/ch'));
describe.skipIf(debian.length === 0)('main content of the Debian Reference', () => {
  it('starts with the chapter, not the navigation header, and has anchored sections', () => {
    for (const doc of debian.slice(0, 12)) {
      const { content, title } = parseHtml(readDoc(doc), `http://docs.test/${doc.key}`);
      expect(content.text.startsWith(title), `${doc.path}: ${content.text.slice(0, 80)}`).toBe(true);
      expect(content.sections.length, doc.path).toBeGreaterThan(3);
      for (const section of content.sections) {
        expect(content.text.slice(section.start, section.start + section.heading.length), doc.path).toBe(section.heading);
        expect(section.anchor, `${doc.path}: ${section.heading}`).toBeTruthy();
      }
    }
  });
});

// Shapes where the old rules dropped real content: names taken as verdicts, articles taken as the page.
describe('main content that keeps content', () => {
  const prose = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `The ${topic} paragraph ${i} explains how the program behaves.`).join(' ');

  it('keeps a documentation section whose id names menus (a hint weighed against its prose)', () => {
    const html = `<div class="document"><div class="body" role="main"><section id="usage"><h1>Usage</h1><p>${prose('usage', 4)}</p>
      <section id="menus"><h2>Menus</h2><p>The File menu opens and saves documents. ${prose('menu', 8)}</p><p>See <a href="/edit">Edit</a>.</p></section>
      <section id="keys"><h2>Keys</h2><p>${prose('keys', 3)}</p></section></section></div></div>
      <div class="sphinxsidebar" role="navigation">${menu(15)}</div>`;
    const { content } = parseHtml(html, PAGE);
    expect(content.text).toContain('The File menu opens and saves documents.');
    expect(content.headings).toEqual(['Usage', 'Menus', 'Keys']);
    expect(content.sections.map((s) => s.anchor)).toEqual(['usage', 'menus', 'keys']);
    expect(content.text).not.toContain('Page 3');
  });

  it('still drops short or link-made blocks named like chrome (footer, menu, cookie notice)', () => {
    const html = `<div id="main-menu"><a href="/a">Home</a> <a href="/b">Docs</a></div><div class="cookie-notice">We use cookies to improve the site.</div>
      <div class="content"><h1>Title</h1><p>${prose('body', 5)}</p></div><div class="site-footer">© Example 2024 · <a href="/legal">Legal</a></div>`;
    const { content } = parseHtml(html, PAGE);
    expect(content.text.startsWith('Title The body paragraph 0')).toBe(true);
    expect(content.text).not.toMatch(/cookies|Legal|Docs/);
  });

  it('keeps the module summary and description around several <article> entries (no <main>)', () => {
    const fn = (name: string) => `<article class="function"><h3 id="${name}-2">${name}(Tab, Key)</h3><p>${prose(name, 2)}</p></article>`;
    const html = `<div id="leftnav">${menu(30)}</div><div id="content"><h1>ets</h1><p class="summary">Built-in term storage.</p>
      <h2 id="description">Description</h2><p>This module is an interface to the Erlang built-in term storage BIFs. ${prose('description', 3)}</p>
      <h2 id="exports">Exports</h2>${fn('insert')}${fn('lookup')}${fn('select_replace')}</div>`;
    const { content } = parseHtml(html, PAGE);
    expect(content.text).toContain('Built-in term storage.');
    expect(content.text).toContain('This module is an interface to the Erlang built-in term storage BIFs.');
    expect(content.text).toContain('select_replace(Tab, Key)');
    expect(content.headings).toEqual(['ets', 'Description', 'Exports', 'insert(Tab, Key)', 'lookup(Tab, Key)', 'select_replace(Tab, Key)']);
    expect(content.text).not.toContain('Page 3');
  });

  it('keeps signature blocks of links that carry headings (rustdoc), not only their descriptions', () => {
    const link = (t: string) => `<a href="/${t}">${t}</a>`;
    const sig = (name: string) => `<section id="method.${name}" class="method"><a href="#method.${name}" class="anchor"></a><h4 class="code-header">pub fn ${link(name)}(${link('a')}: ${link('usize')}, ${link('b')}: ${link('Vec')}&lt;${link('T')}, ${link('Global')}&gt;) -&gt; ${link('Option')}&lt;${link('Ordering')}&gt; ${link('source')}</h4></section><div class="docblock"><p>${prose(name, 1)}</p></div>`;
    const { content } = parseHtml(`<main><h1>Struct Vec</h1>${sig('with_capacity')}${sig('push')}</main>`, PAGE);
    expect(content.text).toContain('pub fn with_capacity(a: usize');
    // The page itself defines its item (no anchor), then its members.
    expect((content.definitions ?? []).map((d) => d.anchor)).toEqual(['', 'method.with_capacity', 'method.push']);
  });
});

const DOC = '/usr/share/doc';
// Every heading of a page's body stays in its main text, on real documentation of several generators.
describe.skipIf(!existsSync(`${DOC}/sphinx-doc/html`) || !existsSync(`${DOC}/postgresql-doc-15/html`) || !existsSync(`${DOC}/rust-doc/html`))('no section of real documentation is lost', () => {
  it.each([
    'sphinx-doc/html/usage/configuration.html',
    'sphinx-doc/html/usage/restructuredtext/directives.html',
    'python-django-doc/html/ref/settings.html',
    'python-django-doc/html/topics/db/queries.html',
    'postgresql-doc-15/html/runtime-config-resource.html',
    'postgresql-doc-15/html/sql-createtable.html',
    'postgresql-doc-15/html/functions-string.html',
    'postgresql-doc-15/html/app-psql.html',
    'postgresql-doc-15/html/libpq-envars.html',
    'rust-doc/html/std/vec/struct.Vec.html',
    'rust-doc/html/std/iter/trait.Iterator.html',
    'rust-doc/html/std/primitive.i16.html',
    'rust-doc/html/std/collections/index.html',
    'rust-doc/html/book/ch08-01-vectors.html',
  ])('%s keeps every heading and definition of its body', (path) => {
    const page = parseHtml(readFileSync(join(DOC, path), 'utf8'), `http://docs.test/${path}`);
    const main = page.content;
    // Headings outside the main text may only be chrome: navigation, sidebars, "Table of Contents".
    // Headings the page's text never shows (rustdoc's sidebar) are not the body's: a heading is lost when its text is.
    const lost = page.headings.filter((h) => !main.headings.includes(h.text) && !main.text.includes(h.text) && !/contents|navigation|this page|search|quick search|related|previous|next|settings|help|keyboard|last update|^the rust programming language$|^in std\b|^module \w+$|^methods( from deref.*)?$|^associated constants$/i.test(h.text));
    expect(lost, lost.map((h) => h.text).join(' | ')).toEqual([]);
    expect(main.text.length / page.text.length).toBeGreaterThan(0.9);
  });
});

// Generated pages in the markup MkDocs (Material theme) and Docusaurus (classic theme) write: their
// chrome (header, tabs, navigation and table-of-contents sidebars, footer with previous/next),
// and a body whose sections carry names a chrome filter might take for chrome.
const prose = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `The ${topic} part ${i} explains what to configure and why it matters for the build of the site.`).join(' ');
const SECTIONS = ['Navigation', 'Sidebar', 'Footer', 'Menus', 'Search', 'Header and banner', 'Table of contents'];
const navList = (prefix: string, n: number) => `<ul class="${prefix}__list">${Array.from({ length: n }, (_, i) => `<li class="${prefix}__item"><a href="/docs/page-${i}/" class="${prefix}__link">Page ${i}</a></li>`).join('')}</ul>`;
const slug = (heading: string) => heading.toLowerCase().replace(/\W+/g, '-');

function mkdocsMaterialPage(): string {
  const body = SECTIONS.map((h) => `<h2 id="${slug(h)}">${h}<a class="headerlink" href="#${slug(h)}" title="Permanent link">¶</a></h2><p>${prose(h, 3)}</p>
    <div class="admonition note"><p class="admonition-title">Note</p><p>${prose(`${h} note`, 1)}</p></div>
    <div class="highlight"><pre><span></span><code><span class="nt">${slug(h)}</span><span class="p">:</span> <span class="l l-Scalar">true</span></code></pre></div>`).join('\n');
  return `<!doctype html><html lang="en"><head><title>Customization - Example Docs</title></head><body dir="ltr">
<input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer" autocomplete="off"><label class="md-overlay" for="__drawer"></label>
<div data-md-component="skip"><a href="#customization" class="md-skip">Skip to content</a></div>
<header class="md-header" data-md-component="header"><nav class="md-header__inner md-grid" aria-label="Header"><a href="/" title="Example Docs" class="md-header__button md-logo">Example Docs</a>
<div class="md-search" data-md-component="search" role="dialog"><label class="md-search__overlay" for="__search"></label><form class="md-search__form" name="search"><input type="text" class="md-search__input" name="query" aria-label="Search" placeholder="Search"></form></div></nav></header>
<div class="md-container" data-md-component="container"><nav class="md-tabs" aria-label="Tabs" data-md-component="tabs">${navList('md-tabs', 6)}</nav>
<main class="md-main" data-md-component="main"><div class="md-main__inner md-grid">
<div class="md-sidebar md-sidebar--primary" data-md-component="sidebar" data-md-type="navigation"><div class="md-sidebar__scrollwrap"><div class="md-sidebar__inner"><nav class="md-nav md-nav--primary" aria-label="Navigation" data-md-level="0">${navList('md-nav', 40)}</nav></div></div></div>
<div class="md-sidebar md-sidebar--secondary" data-md-component="sidebar" data-md-type="toc"><div class="md-sidebar__scrollwrap"><div class="md-sidebar__inner"><nav class="md-nav md-nav--secondary" aria-label="Table of contents"><label class="md-nav__title" for="__toc">Table of contents</label>${navList('md-nav', SECTIONS.length)}</nav></div></div></div>
<div class="md-content" data-md-component="content"><article class="md-content__inner md-typeset">
<h1 id="customization">Customization</h1><p>${prose('introduction', 2)}</p>
${body}
<aside class="md-source-file"><span class="md-source-file__fact">Last update: 2024-01-01</span></aside>
</article></div></div></main>
<footer class="md-footer"><nav class="md-footer__inner md-grid" aria-label="Footer"><a href="../setup/" class="md-footer__link md-footer__link--prev" aria-label="Previous: Setup"><div class="md-footer__title"><span class="md-footer__direction">Previous</span><div class="md-ellipsis">Setup</div></div></a></nav>
<div class="md-footer-meta md-typeset"><div class="md-footer-meta__inner md-grid"><div class="md-copyright">Made with <a href="https://squidfunk.github.io/mkdocs-material/">Material for MkDocs</a></div></div></div></footer></div></body></html>`;
}

function docusaurusPage(): string {
  const body = SECTIONS.map((h) => `<h2 class="anchor anchorWithStickyNavbar_LWe7" id="${slug(h)}">${h}<a href="#${slug(h)}" class="hash-link" aria-label="Direct link to ${h}" title="Direct link to ${h}">​</a></h2><p>${prose(h, 3)}</p>
    <div class="theme-admonition theme-admonition-tip admonition_xJq3 alert alert--success"><div class="admonitionHeading_Gvgb">tip</div><div class="admonitionContent_BuS1"><p>${prose(`${h} tip`, 1)}</p></div></div>
    <div class="language-js codeBlockContainer_Ckt0 theme-code-block"><div class="codeBlockContent_biex"><pre tabindex="0" class="prism-code language-js codeBlock_bY9V"><code class="codeBlockLines_e6Vv"><span class="token-line">module.exports = { ${slug(h).replace(/-/g, '_')}: true };</span></code></pre></div></div>`).join('\n');
  return `<!doctype html><html lang="en" dir="ltr" class="docs-wrapper plugin-docs"><head><title>Customization | Example Docs</title></head><body class="navigation-with-keyboard">
<div id="__docusaurus"><div role="region" aria-label="Skip to main content"><a class="skipToContent_fXgn" href="#__docusaurus_skipToContent_fallback">Skip to main content</a></div>
<nav aria-label="Main" class="navbar navbar--fixed-top"><div class="navbar__inner"><div class="navbar__items"><a class="navbar__brand" href="/"><b class="navbar__title text--truncate">Example Docs</b></a><a class="navbar__item navbar__link" href="/docs/intro">Docs</a><a class="navbar__item navbar__link" href="/blog">Blog</a></div><div class="navbar__items navbar__items--right"><div class="navbarSearchContainer_Bca1"><button type="button" class="DocSearch DocSearch-Button" aria-label="Search"><span class="DocSearch-Button-Placeholder">Search</span></button></div></div></div></nav>
<div id="__docusaurus_skipToContent_fallback" class="main-wrapper mainWrapper_z2l0"><div class="docsWrapper_hBAB"><div class="docRoot_UBD9">
<aside class="theme-doc-sidebar-container docSidebarContainer_YfHR"><div class="sidebarViewport_aRkj"><div class="sidebar_njMd"><nav aria-label="Docs sidebar" class="menu thin-scrollbar menu_SIkG">${navList('menu', 40)}</nav></div></div></aside>
<main class="docMainContainer_TBSr"><div class="container padding-top--md padding-bottom--lg"><div class="row"><div class="col docItemCol_VOVn"><div class="docItemContainer_Djhp"><article>
<nav class="theme-doc-breadcrumbs breadcrumbsContainer_Z_bl" aria-label="Breadcrumbs"><ul class="breadcrumbs"><li class="breadcrumbs__item"><a class="breadcrumbs__link" href="/">Home</a></li><li class="breadcrumbs__item breadcrumbs__item--active"><span class="breadcrumbs__link">Customization</span></li></ul></nav>
<div class="tocCollapsible_ETCw theme-doc-toc-mobile tocMobile_ITEo"><button type="button" class="clean-btn tocCollapsibleButton_TO0P">On this page</button></div>
<div class="theme-doc-markdown markdown"><header><h1>Customization</h1></header><p>${prose('introduction', 2)}</p>
${body}
</div><footer class="theme-doc-footer docusaurus-mt-lg"><div class="theme-doc-footer-edit-meta-row row"><div class="col"><a href="https://github.com/example/docs/edit/main/customization.md" target="_blank" class="theme-edit-this-page">Edit this page</a></div></div></footer></article>
<nav class="pagination-nav docusaurus-mt-lg" aria-label="Docs pages"><a class="pagination-nav__link pagination-nav__link--prev" href="/docs/setup"><div class="pagination-nav__sublabel">Previous</div><div class="pagination-nav__label">Setup</div></a></nav></div></div>
<div class="col col--3"><div class="tableOfContents_bqdL thin-scrollbar theme-doc-toc-desktop"><ul class="table-of-contents table-of-contents__left-border">${SECTIONS.map((h) => `<li><a href="#${slug(h)}" class="table-of-contents__link toc-highlight">${h}</a></li>`).join('')}</ul></div></div></div></div></main></div></div></div>
<footer class="footer footer--dark"><div class="container container-fluid"><div class="row footer__links"><div class="col footer__col"><div class="footer__title">Docs</div>${navList('footer', 4)}</div></div><div class="footer__bottom text--center"><div class="footer__copyright">Copyright © 2024 Example. Built with Docusaurus.</div></div></div></footer></div></body></html>`;
}

describe('headings of the main text', () => {
  it('leaves out headings the page text does not show (rustdoc sidebar), so pages open with their own heading', () => {
    const path = `${DOC}/rust-doc/html/std/collections/hash_set/struct.Union.html`;
    if (!existsSync(path)) return;
    const { content } = parseHtml(readFileSync(path, 'utf8'), PAGE);
    expect(content.headings[0]).toBe('Struct std::collections::hash_set::Union');
    expect(content.headings).not.toContain('In std::collections::hash_set');
    expect(content.sections[0]).toMatchObject({ heading: 'Struct std::collections::hash_set::Union', start: 0 });
  });
});

describe('no section of MkDocs or Docusaurus pages is lost', () => {
  it.each([
    ['MkDocs Material', mkdocsMaterialPage()],
    ['Docusaurus', docusaurusPage()],
  ])('%s keeps every section, its prose, notes and code, and leaves the chrome out', (_, html) => {
    const { content } = parseHtml(html, PAGE);
    // Headings keep the generators' permalink marks (¶, a zero-width space).
    const headings = content.headings.map((h) => h.replace(/[¶\u200b]/g, '').trim());
    expect(headings).toEqual(['Customization', ...SECTIONS]);
    for (const h of SECTIONS) {
      expect(content.text).toContain(prose(h, 3));
      expect(content.text).toContain(prose(`${h} ${html.includes('md-typeset') ? 'note' : 'tip'}`, 1));
      expect(content.text).toContain(slug(h).replace(/-/g, html.includes('md-typeset') ? '-' : '_'));
    }
    expect(content.sections.filter((s) => SECTIONS.includes(s.heading.replace(/[¶\u200b]/g, ''))).map((s) => s.anchor)).toEqual(SECTIONS.map(slug));
    // Chrome: navigation lists, search, previous/next, copyright.
    for (const chrome of ['Page 39', 'Made with', 'Built with Docusaurus', 'Skip to content', 'Skip to main content']) expect(content.text).not.toContain(chrome);
  });
});
