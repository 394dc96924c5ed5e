import { describe, expect, it } from 'vitest';
import { parseHtml } from '../crawler/html.ts';
import { languageFields } from '../crawler/page-language-fields.ts';
import { detectLanguage, pageLanguage, primaryLanguage } from '../indexer/text-index/language-detection.ts';
import { debianDocs, docLanguages, readDoc } from './helpers/debian-docs.ts';

const docs = debianDocs();
const ENGLISH = 'The package manager keeps a list of installed packages and their versions. When a new release comes out, it downloads the newer versions and replaces the old files, keeping your configuration files unless you ask for the new ones.';

describe('primaryLanguage', () => {
  it('keeps the primary subtag, lower-cased', () => {
    expect(primaryLanguage('zh-Hans-CN')).toBe('zh');
    expect(primaryLanguage('pt_BR')).toBe('pt');
    expect(primaryLanguage(' DE, en ')).toBe('de');
    expect(primaryLanguage('iw')).toBe('he');
  });
  it('refuses what is not a language', () => {
    for (const tag of ['x-default', '', '*', 'und', 'english', null, undefined]) expect(primaryLanguage(tag)).toBeNull();
  });
});

describe('pageLanguage', () => {
  it('takes the page at its word when the text agrees', () => {
    expect(pageLanguage({ declared: 'en-GB', text: ENGLISH })).toEqual({ lang: 'en', source: 'declared' });
    expect(pageLanguage({ header: 'en', text: ENGLISH })).toEqual({ lang: 'en', source: 'header' });
    expect(pageLanguage({ hreflang: 'en-us', text: ENGLISH })).toEqual({ lang: 'en', source: 'hreflang' });
  });
  it('lets the text overrule a declaration it plainly contradicts (an English page under a Danish template)', () => {
    expect(pageLanguage({ declared: 'da', text: ENGLISH.repeat(2) })).toEqual({ lang: 'en', source: 'detected', overruled: 'da' });
  });
  it('keeps a declaration when the text is too short to contradict it', () => {
    expect(pageLanguage({ declared: 'da', text: 'apt-get install foo' })).toEqual({ lang: 'da', source: 'declared' });
  });
  it('detects the language when none is declared, and says und when it cannot', () => {
    expect(pageLanguage({ text: ENGLISH })).toEqual({ lang: 'en', source: 'detected' });
    expect(pageLanguage({ text: 'ls -la /etc' })).toEqual({ lang: 'und', source: 'none' });
    expect(pageLanguage({ text: '' })).toEqual({ lang: 'und', source: 'none' });
  });
});

describe('languageFields', () => {
  it('stores the translations, and reads the page own hreflang as a signal', () => {
    const html = `<link rel="alternate" hreflang="en" href="/en/a.html"><link rel="alternate" hreflang="de-DE" href="/de/a.html">
      <link rel="alternate" hreflang="x-default" href="/a.html"><link rel="alternate stylesheet" href="x.css"><p>${ENGLISH}</p>`;
    const page = parseHtml(html, 'http://site.test/en/a.html');
    expect(page.alternates).toEqual([
      { url: 'http://site.test/en/a.html', hreflang: 'en' },
      { url: 'http://site.test/de/a.html', hreflang: 'de-de' },
      { url: 'http://site.test/a.html', hreflang: 'x-default' },
    ]);
    expect(languageFields(page, 'http://site.test/en/a.html', undefined)).toEqual({ lang: 'en', alternates: [{ url: 'http://site.test/de/a.html', lang: 'de' }] });
  });
  it('uses the Content-Language header when the page declares nothing', () => {
    const page = parseHtml(`<p>${ENGLISH}</p>`, 'http://site.test/a');
    expect(languageFields(page, 'http://site.test/a', 'en-US')).toEqual({ lang: 'en' });
  });
});

describe.skipIf(docs.length === 0)('on the Debian documentation in several languages', () => {
  it('tells the language of nearly every page from its text alone', () => {
    const wrong: string[] = [];
    for (const doc of docs) {
      const page = parseHtml(readDoc(doc), `http://docs.test/${doc.key}`);
      const detected = detectLanguage(page.text)?.lang ?? 'und';
      if (detected !== doc.lang) wrong.push(`${doc.path}: ${detected}`);
    }
    expect(docLanguages(docs).length).toBeGreaterThanOrEqual(8);
    expect(wrong.length / docs.length, wrong.join('\n')).toBeLessThan(0.05);
  });
});
