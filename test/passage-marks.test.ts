/**
 * A passage marks the words its postings point at. Given those positions, the words between them
 * are counted but not analysed; the passage must be the one that analysing every word gives, on
 * real text in every language Debian's documentation ships and on identifiers.
 */
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { analyzeText, forEachToken, type AnalyzedToken } from '../indexer/text-index/analysis.ts';
import { analysisLanguage } from '../indexer/text-index/languages.ts';
import { bestPosition, hitPassage } from '../indexer/text-index/passage.ts';
import type { BodyWindow, DocumentHead } from '../indexer/text-index/stored-documents.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { debianDocs, docLanguages, readDoc } from './helpers/debian-docs.ts';

const IDENTIFIERS = 'Call os.path.join before gen_server:call/3; std::vector and Date#parse differ from mod_rewrite. The XMLHttpRequest in iPhone apps calls HTTPServer a.b a:b twice. Cafés naïve straße 日本語テキスト here.';

function tokens(text: string, lang: string, termAt?: (index: number) => boolean): AnalyzedToken[] {
  const found: AnalyzedToken[] = [];
  forEachToken(text, lang, (term, start, length, index) => found.push({ term, start, length, index }), { from: 0, firstIndex: 0, until: Infinity, termAt });
  return found;
}

/** The body positions of `terms` as the index records them: every token's index under its term. */
function positionsOf(text: string, lang: string, terms: readonly string[]): Array<{ position: number; term: string }> {
  const wanted = new Set(terms);
  return analyzeText(text, lang)
    .filter((token) => token.term !== null && wanted.has(token.term))
    .map((token) => ({ position: token.index, term: token.term! }));
}

/** A page of each language (its first 40,000 characters), the longest English page whole, and identifiers. */
function texts(): Array<{ text: string; lang: string }> {
  const docs = debianDocs();
  const bodyOf = (doc: (typeof docs)[number]) => cheerio.load(readDoc(doc))('body').text();
  const found = docLanguages(docs).map((lang) => ({ text: bodyOf(docs.find((d) => d.lang === lang)!).slice(0, 40_000), lang }));
  const english = docs.filter((d) => d.lang === 'en').map(bodyOf);
  const longest = english.reduce((a, b) => (b.length > a.length ? b : a), '');
  return [...found, ...(longest.length > 0 ? [{ text: longest, lang: 'en' }] : []), { text: IDENTIFIERS.repeat(3), lang: 'en' }];
}

describe('passages mark the words their postings point at', () => {
  it('counts refused words and leaves every other token as it was', () => {
    for (const { text, lang } of texts()) {
      const analysis = analysisLanguage(lang);
      const all = tokens(text, analysis);
      const even = tokens(text, analysis, (index) => index % 2 === 0);
      expect(even.map(({ start, length, index }) => [start, length, index])).toEqual(all.map(({ start, length, index }) => [start, length, index]));
      // A refused word is visited without its term; identifiers and segmented scripts keep theirs.
      even.forEach((token, i) => expect(token.term === all[i].term || (token.term === null && all[i].index % 2 === 1)).toBe(true));
      expect(even.filter((token, i) => token.term === null && all[i].term !== null).length).toBeGreaterThan(0);
    }
  });

  it('gives the passage that analysing every word gives', () => {
    const random = seededRandom(5);
    let marked = 0;
    for (const { text, lang } of texts()) {
      const analysis = analysisLanguage(lang);
      const words = analyzeText(text, analysis).filter((token) => token.term !== null);
      for (let q = 0; q < 40; q++) {
        const terms = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => words[Math.floor(random() * words.length)].term!))];
        const positions = positionsOf(text, analysis, terms);
        const best = bestPosition(positions);
        const head = { id: 1, url: 'http://docs.test/a', host: 'docs.test', title: 'A page', headings: [], lang } as unknown as DocumentHead;
        const window: BodyWindow = { text, charStart: 0, firstIndex: 0, bodyChars: text.length };
        const lazy = hitPassage(head, window, terms, best, {}, positions);
        expect(lazy).toEqual(hitPassage(head, window, terms, best, {}));
        marked += (lazy.snippet.match(/<mark>/g) ?? []).length;
      }
    }
    expect(marked).toBeGreaterThan(100);
  });
});
