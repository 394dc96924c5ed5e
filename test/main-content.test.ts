import { describe, expect, it } from 'vitest';
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
    expect(result).toEqual({ text: 'Title body text', headings: ['Title'], sections: [{ heading: 'Title', anchor: 't', start: 0 }] });
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
