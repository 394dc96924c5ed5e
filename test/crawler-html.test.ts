import { describe, expect, it } from 'vitest';
import { charsetOfContentType, charsetOfMeta, decodeBody, encodingOf } from '../crawler/charset.ts';
import { contentVersion, generateDemoWeb, type DemoPage } from '../crawler/demo-web/generate.ts';
import { renderDemoPage } from '../crawler/demo-web/render.ts';
import { collapse, CollapsedText, parseHtml } from '../crawler/html.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { parseHtml as parseHtmlWithDom } from './helpers/html-dom-reference.ts';

/**
 * The DOM reference extracts what a reader sees; the main content and the breadcrumb trail are
 * tested on their own (main-content.test.ts, crawler-breadcrumb.test.ts).
 */
function withoutContent<T extends { content: unknown; breadcrumb: unknown }>(page: T): Omit<T, 'content' | 'breadcrumb'> {
  const { content: _content, breadcrumb: _breadcrumb, ...rest } = page;
  return rest;
}

const PAGE = 'http://site.test/dir/page.html';

describe('parseHtml: text', () => {
  it('extracts title, headings and visible body text with collapsed whitespace', () => {
    const page = parseHtml(
      `<!doctype html><html><head><title>  The
        Title </title><style>body{color:red}</style><script>var hidden = 1;</script></head>
      <body><h1>Main <em>heading</em></h1><p>First   paragraph.</p><p>Second&nbsp;paragraph</p>
      <h2>Sub</h2><h3>Subsub</h3><h4>Too deep</h4><h2>   </h2>
      <div>Inline<b>bold</b><i>italic</i> text</div><ul><li>one</li><li>two</li></ul>
      <table><tr><td>cell1</td><td>cell2</td></tr></table>line<br>break
      <noscript>enable js</noscript><template><p>tpl</p></template><script>document.write('x')</script>
      <style>.x{}</style><!-- a comment --><div hidden>hidden div</div><span style="display: none">nope</span>
      <input type="hidden" value="v"><svg><text>svg text</text></svg></body></html>`,
      PAGE,
    );
    expect(page.title).toBe('The Title');
    expect(page.headings).toEqual([
      { level: 1, text: 'Main heading' },
      { level: 2, text: 'Sub' },
      { level: 3, text: 'Subsub' },
    ]);
    expect(page.text).toBe(
      'Main heading First paragraph. Second paragraph Sub Subsub Too deep Inlinebolditalic text one two cell1 cell2 line break',
    );
  });

  it('never puts head content or scripts into the text', () => {
    const page = parseHtml('<title>T</title><script>alert(1)</script><p>body</p>', PAGE);
    expect(page.text).toBe('body');
    expect(page.title).toBe('T');
  });

  it('copes with an empty document and with deep nesting', () => {
    expect(parseHtml('', PAGE)).toMatchObject({ title: '', text: '', links: [], headings: [], canonical: null, language: null });
    const deep = `${'<div>'.repeat(20_000)}deep${'</div>'.repeat(20_000)}`;
    expect(parseHtml(deep, PAGE).text).toBe('deep');
  });
});

describe('parseHtml: links', () => {
  it('resolves links against the page, keeps anchor text and rel', () => {
    const page = parseHtml(
      `<a href="a.html">Alpha</a> <a href="/b" rel="NoFollow ugc">Beta</a> <a href="https://other.test/c#frag">  Gamma
       link </a> <a href="#top">top</a> <a href="">self</a> <a href="mailto:x@y.z">mail</a>
       <a href="javascript:void(0)">js</a> <a href="d.html"><img src="i.png" alt="Delta image"></a>
       <map><area href="e.html" alt="Epsilon area"></map> <a name="anchor-only">no href</a>`,
      PAGE,
    );
    expect(page.links).toEqual([
      { href: 'a.html', url: 'http://site.test/dir/a.html', text: 'Alpha', rel: [], nofollow: false },
      { href: '/b', url: 'http://site.test/b', text: 'Beta', rel: ['nofollow', 'ugc'], nofollow: true },
      { href: 'https://other.test/c#frag', url: 'https://other.test/c', text: 'Gamma link', rel: [], nofollow: false },
      { href: 'mailto:x@y.z', url: null, text: 'mail', rel: [], nofollow: false },
      { href: 'javascript:void(0)', url: null, text: 'js', rel: [], nofollow: false },
      { href: 'd.html', url: 'http://site.test/dir/d.html', text: 'Delta image', rel: [], nofollow: false },
      { href: 'e.html', url: 'http://site.test/dir/e.html', text: 'Epsilon area', rel: [], nofollow: false },
    ]);
  });

  it('resolves against <base href> (the first one), itself relative to the page', () => {
    const page = parseHtml('<head><base href="/other/"><base href="http://ignored.test/"></head><a href="x.html">x</a>', PAGE);
    expect(page.baseHref).toBe('http://site.test/other/');
    expect(page.links[0].url).toBe('http://site.test/other/x.html');
    const absolute = parseHtml('<base href="https://cdn.test/root/"><a href="../y">y</a>', PAGE);
    expect(absolute.links[0].url).toBe('https://cdn.test/y');
    expect(parseHtml('<base target="_blank"><a href="z">z</a>', PAGE)).toMatchObject({ baseHref: null, links: [{ url: 'http://site.test/dir/z' }] });
  });
});

describe('parseHtml: metadata', () => {
  it('reads canonical, description and language', () => {
    const page = parseHtml(
      `<html lang="en-GB"><head><link rel="stylesheet" href="s.css"><link rel="Canonical" href="/canonical.html">
       <meta name="Description" content="  A   page about things. "></head></html>`,
      PAGE,
    );
    expect(page.canonical).toBe('http://site.test/canonical.html');
    expect(page.description).toBe('A page about things.');
    expect(page.language).toBe('en-gb');
  });

  it('falls back to http-equiv content-language', () => {
    expect(parseHtml('<meta http-equiv="Content-Language" content="de, en">', PAGE).language).toBe('de');
    expect(parseHtml('<p>x</p>', PAGE).language).toBeNull();
  });

  it.each([
    ['noindex', { noindex: true, nofollow: false }],
    ['NOFOLLOW', { noindex: false, nofollow: true }],
    ['noindex, nofollow', { noindex: true, nofollow: true }],
    ['none', { noindex: true, nofollow: true }],
    ['index, follow, noarchive', { noindex: false, nofollow: false }],
  ])('meta robots "%s"', (content, expected) => {
    expect(parseHtml(`<meta name="robots" content="${content}">`, PAGE).robots).toMatchObject(expected);
  });

  it('combines several robots tags, including one addressed to our bot by name', () => {
    const html = '<meta name="robots" content="noarchive"><meta name="lse-bot" content="noindex"><meta name="otherbot" content="nofollow">';
    expect(parseHtml(html, PAGE).robots).toEqual({ noindex: false, nofollow: false, directives: ['noarchive'] });
    expect(parseHtml(html, PAGE, { robotsName: 'LSE-Bot' }).robots).toEqual({ noindex: true, nofollow: false, directives: ['noarchive', 'noindex'] });
  });
});

describe('parseHtml: one streaming pass, the same extraction as a DOM (parse5 through cheerio)', () => {
  const options = { robotsName: 'lse-bot' };

  it('extracts from the demo web pages exactly what the DOM parser extracts', () => {
    const web = generateDemoWeb({ seed: 7, hosts: 40, pages: 3000 });
    const pages = web.resources.filter((r): r is DemoPage => r.kind === 'page' && r.body !== 'huge').filter((_, i) => i % 5 === 0);
    expect(pages.length).toBeGreaterThan(300);
    for (const page of pages) {
      const html = renderDemoPage(web, page, contentVersion(page, web.epochMs));
      expect(withoutContent(parseHtml(html, page.url, options)), page.url).toEqual(parseHtmlWithDom(html, page.url, options));
    }
  });

  it.each([
    ['template content: links and headings count, text does not', '<template><a href="t">x</a><h1>th</h1>tt</template><p>b</p>'],
    ['noscript and iframe are raw text', '<noscript><a href="n">nn</a></noscript><iframe><a href="i">ii</a></iframe><p>b</p>'],
    ['svg: links count, the first title is the title', '<svg><a href="s">svga</a><title>svgt</title><path/><a href="p"/></svg><title>T2</title>'],
    ['a new anchor closes the open one', '<a href="a1">one<a href="a2">two</a></a>'],
    ['a hidden anchor still takes its images\' alt text', '<a href="a1" hidden>one<img alt="IMG"></a><a href="a2"><span hidden>h</span><img alt="A"> <img alt="B"></a>'],
    ['nested and implied headings, in document order', '<h1><div><h2>inner</h2></div>outer</h1><h1>a<h2>b</h1>c<h3 hidden>x</h3>'],
    ['text before the head, a title in the body', 'x<head><title>late</title></head><body><p>y</p><title>t2</title>'],
    ['entities', '<title>a &amp; b</title><p>c &lt; d&nbsp;e &eacute;</p><a href="?a=1&amp;b=2">q</a>'],
    ['a block closes a hidden paragraph; a span stays open', '<p hidden>foo<div>bar</div><span hidden>foo<div>bar</div></span>baz'],
    ['navigation text is not content', '<nav>menu<p>in nav</p></nav><p>out</p>'],
    ['a late hidden body hides all of it', 'before<p>x</p><body hidden>after'],
    ['hidden by style, input type=hidden', '<div style="display:none">dn</div><div style="color:red;display : none !important">dn2</div><input type="HIDDEN">ok'],
    ['implied ends of list items, cells, options', '<ul><li>a<li>b</ul><dl><dt>t<dd>d</dl><table><tr><td>c1<td hidden>c2<tr><td>c3</table><select><option>o1<option>o2</select>s'],
    ['inside a select only options count', '<select><option>o<a href="x">x</a><h1>h</h1></select><p>after</p>'],
    ['cells outside a table are ignored', '<div hidden><td>cell</div>visible'],
    ['end tags close within their scope', '<div><span>a</div>b</span>c<p>x</b>y</p></p>z<li>i</li><a href="a">x</b>y</a>z'],
    ['an HTML element breaks out of svg and math', '<svg><g>x<p>seen</p></svg><math><mi>m</mi><wbr>w</math>after'],
    ['base, canonical, meta, language: the first one wins', '<html lang="FR"><html lang="de"><base href="http://b.test/"><base href="http://c.test/"><link rel="alternate canonical" href="c1"><link rel=canonical href="c2"><link rel="Alternate" HREFLANG=" DE " href=" /de/ "><link rel=alternate hreflang="" href="none"><meta name=description content=" d1 "><meta name=description content="d2"><meta name=ROBOTS content="NOINDEX,,"><meta name="lse-bot" content="nofollow"><a href="k">k</a>'],
    ['comments, CDATA and processing instructions are not text', '<!-- c --><![CDATA[cd]]>t<?pi?><script>document.write("<a href=x>")</script>'],
  ])('%s', (_name, html) => {
    expect(withoutContent(parseHtml(html, PAGE, options))).toEqual(parseHtmlWithDom(html, PAGE, options));
  });

  it('does not render <noembed> content as text (parse5 keeps it as raw text; a browser shows neither)', () => {
    expect(parseHtml('<noembed><p>x</p></noembed>y', PAGE).text).toBe('y');
  });

  it('stays linear on hostile nesting (the DOM parser takes minutes on these)', () => {
    const n = 50_000;
    const started = performance.now();
    expect(parseHtml(`${'<span>'.repeat(n)}x${'</div>'.repeat(n)}`, PAGE).text).toBe('x');
    expect(parseHtml(`${'<x-a>'.repeat(n)}y${'</x-b>'.repeat(n)}`, PAGE).text).toBe('y');
    expect(parseHtml(`<ul>${'<b>'.repeat(n)}z${'</ul>'.repeat(n)}`, PAGE).text).toBe('z');
    expect(parseHtml(`${'<a href=a>'.repeat(n)}w`, PAGE, { maxLinks: n }).links).toHaveLength(n);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('decodeBody', () => {
  const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]); // "café €" in windows-1252

  it('uses the Content-Type charset', () => {
    expect(decodeBody(latin1, 'text/html; charset=ISO-8859-1')).toEqual({ text: 'café €', charset: 'windows-1252', source: 'header', fallback: false });
    expect(decodeBody(latin1, 'text/html;charset="windows-1252"').text).toBe('café €');
  });

  it('decodes the whole windows-1252 upper range (Node 20 decodes it as ISO-8859-1; repaired)', () => {
    const bytes = Buffer.from([0x80, 0x85, 0x8a, 0x93, 0x94, 0x96, 0x99, 0x9f, 0x81, 0xa0, 0xff]);
    expect(decodeBody(bytes, 'text/html; charset=windows-1252').text).toBe('€…Š“”–™Ÿ\u0081\u00a0ÿ');
    expect(decodeBody(bytes, 'text/html; charset=us-ascii').text).toBe('€…Š“”–™Ÿ\u0081\u00a0ÿ');
  });

  it('decodes multibyte encodings with full ICU', () => {
    const shiftJis = Buffer.from([0x93, 0xfa, 0x96, 0x7b]); // 日本
    expect(decodeBody(shiftJis, 'text/html; charset=Shift_JIS').text).toBe('日本');
    const gb18030 = Buffer.from([0xd6, 0xd0, 0xce, 0xc4]); // 中文
    expect(decodeBody(gb18030, 'text/html; charset=gb2312')).toMatchObject({ text: '中文', charset: 'gbk' });
    const koi8 = Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]); // Привет
    expect(decodeBody(koi8, 'text/html; charset=koi8-r').text).toBe('Привет');
    const latin2 = Buffer.from([0xb1, 0xe6]); // ąć
    expect(decodeBody(latin2, 'text/html; charset=iso-8859-2').text).toBe('ąć');
  });

  it('lets a byte-order mark outrank the header (HTML encoding sniffing)', () => {
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('café', 'utf8')]);
    expect(decodeBody(utf8, 'text/html; charset=iso-8859-1')).toMatchObject({ text: 'café', charset: 'utf-8', source: 'bom' });
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé', 'utf16le')]);
    expect(decodeBody(utf16le)).toMatchObject({ text: 'hé', charset: 'utf-16le', source: 'bom' });
    const utf16be = Buffer.from([0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9]);
    expect(decodeBody(utf16be)).toMatchObject({ text: 'hé', charset: 'utf-16be', source: 'bom' });
  });

  it('reads <meta charset> and http-equiv in the first 1024 bytes', () => {
    const withMeta = Buffer.concat([Buffer.from('<html><head><meta charset="windows-1252"></head><body>'), latin1]);
    expect(decodeBody(withMeta, 'text/html')).toMatchObject({ source: 'meta', charset: 'windows-1252' });
    expect(decodeBody(withMeta).text.endsWith('café €')).toBe(true);
    const httpEquiv = Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'), latin1]);
    expect(decodeBody(httpEquiv)).toMatchObject({ source: 'meta', charset: 'windows-1252' });
    const late = Buffer.concat([Buffer.from(' '.repeat(1100)), Buffer.from('<meta charset="windows-1252">'), latin1]);
    expect(decodeBody(late)).toMatchObject({ source: 'default', charset: 'utf-8' });
  });

  it('treats a meta UTF-16 declaration as UTF-8', () => {
    expect(decodeBody(Buffer.from('<meta charset="utf-16"><p>ok</p>'))).toMatchObject({ charset: 'utf-8', source: 'meta' });
  });

  it('defaults to UTF-8 and replaces malformed bytes', () => {
    expect(decodeBody(Buffer.from('naïve ✓', 'utf8'))).toEqual({ text: 'naïve ✓', charset: 'utf-8', source: 'default', fallback: false });
    expect(decodeBody(Buffer.from([0x61, 0xff, 0x62])).text).toBe('a\uFFFDb');
  });

  it('falls back to UTF-8 with a flag for unknown labels', () => {
    expect(decodeBody(Buffer.from('ok'), 'text/html; charset=klingon-8')).toEqual({ text: 'ok', charset: 'utf-8', source: 'header', fallback: true });
    expect(decodeBody(Buffer.from('<meta charset="bogus">ok'))).toMatchObject({ charset: 'utf-8', source: 'meta', fallback: true });
  });

  it('helpers parse labels', () => {
    expect(charsetOfContentType('text/html')).toBeNull();
    expect(charsetOfContentType('text/html; Charset = UTF-8 ; q=1')).toBe('UTF-8');
    expect(charsetOfContentType("text/html; charset='koi8-r'")).toBe('koi8-r');
    expect(charsetOfMeta(Buffer.from('<meta name="x" content="charset=foo"><META CHARSET=EUC-JP>'))).toBe('EUC-JP');
    expect(charsetOfMeta(Buffer.from('<meta content="text/html; charset=big5" http-equiv="content-type">'))).toBe('big5');
    expect(encodingOf('latin1')).toBe('windows-1252');
    expect(encodingOf('x-user-defined')).toBe('windows-1252');
    expect(encodingOf('nope')).toBeNull();
  });
});

describe('whitespace collapsing (the regex-free text builder)', () => {
  const regexCollapse = (text: string) => text.replace(/\s+/g, ' ').trim();
  // Every kind of JavaScript whitespace, and characters next to them that are not.
  const alphabet = ['a', 'b', 'Z', '.', ' ', ' ', '\n', '\t', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', 'é', '字'];

  it('equals replace(/\\s+/g, " ").trim() of the joined pieces, on random pieces', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 3000; trial++) {
      const pieces: string[] = [];
      const count = Math.floor(random() * 6);
      for (let p = 0; p < count; p++) {
        let piece = '';
        const length = Math.floor(random() * 12);
        for (let c = 0; c < length; c++) piece += alphabet[Math.floor(random() * alphabet.length)];
        pieces.push(piece);
      }
      const text = new CollapsedText();
      for (const piece of pieces) text.add(piece);
      expect(text.toString()).toBe(regexCollapse(pieces.join('')));
      expect(collapse(pieces.join(''))).toBe(regexCollapse(pieces.join('')));
    }
  });

  it('gives back a piece that needs no change without copying it', () => {
    const piece = 'already collapsed text';
    const text = new CollapsedText();
    text.add(piece);
    expect(text.toString()).toBe(piece);
    expect(collapse(piece)).toBe(piece);
    expect(collapse('')).toBe('');
    expect(collapse(' ')).toBe('');
  });
});
