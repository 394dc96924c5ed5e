/**
 * The tokeniser finds plain ASCII words by hand and leaves every other chunk to the expression
 * that defines chunks. The chunks it finds must be the definition's, and its token stream what
 * analysing each chunk of the definition on its own gives.
 */
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { analyzeText, ChunkScanner, forEachToken, type AnalyzedToken } from '../indexer/text-index/analysis.ts';
import { analysisLanguage } from '../indexer/text-index/languages.ts';
import { debianDocs, readDoc } from './helpers/debian-docs.ts';

/** Runs of letters, digits, marks and `_`, joined by `.`, `::`, `:`, `/` or `#` (analysis.ts's definition). */
const CHUNK = /[\p{L}\p{N}\p{M}_]+(?:(?:\.|::|:|\/|#)[\p{L}\p{N}\p{M}_]+)*/gu;

function tokensOf(text: string, lang: string, from = 0, firstIndex = 0): AnalyzedToken[] {
  const tokens: AnalyzedToken[] = [];
  forEachToken(text, lang, (term, start, length, index) => tokens.push({ term, start, length, index }), { from, firstIndex, until: Infinity });
  return tokens;
}

/** The reference: every chunk of the definition analysed alone, shifted to where it stands. */
function tokensChunkByChunk(text: string, lang: string, from = 0, firstIndex = 0): AnalyzedToken[] {
  const tokens: AnalyzedToken[] = [];
  let index = firstIndex;
  CHUNK.lastIndex = from;
  for (let match = CHUNK.exec(text); match !== null; match = CHUNK.exec(text)) {
    const own = analyzeText(match[0], lang);
    for (const token of own) tokens.push({ ...token, start: token.start + match.index, index: token.index + index });
    if (own.length > 0) index += own[own.length - 1].index + 1;
  }
  return tokens;
}

const EDGES = [
  'plain words, Capitalised Words and ALLCAPS; digits 42 and x86 64bit.',
  'os.path.join gen_server:call/3 std::vector Date#parse mod_rewrite __init__ a_b',
  'end of a sentence. Then: a colon, a/ slash, a # hash, trailing.dot. and a.b. a:: b a::b a:é a.é a/_ a#1 a.',
  'camelCase XMLHttpRequest iPhone 3D a1B HTTPServer',
  'naïve café résumé e\u0301 Ærø straße ß İstanbul',
  'mixed ascii日本語テキストと한국어 and Thai ภาษาไทยง่าย here',
  '—dashes— “quotes” «guillemets» ‹x› emoji 😀word word😀 x\u200by',
  'under_ _score_ a..b a::::b a:/b 1.2.3 v2.0-beta foo-bar',
  'ǅemal ﬁnance Ⅻ ٣٤ १२३ ＡＢＣ ｆｕｌｌ',
];

/** [start, end] of every chunk from `from`, as the scanner finds them; each one it calls plain must be. */
function scannedChunks(text: string, from = 0): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const scanner = new ChunkScanner(text, from);
  while (scanner.next()) {
    const chunk = text.slice(scanner.start, scanner.end);
    if (scanner.plain) expect(chunk).toMatch(/^[A-Za-z0-9][a-z0-9]*$/);
    expect(scanner.capitalised).toBe(scanner.plain && /^[A-Z]/.test(chunk));
    found.push([scanner.start, scanner.end]);
  }
  return found;
}

/** The definition's chunks. */
function definedChunks(text: string, from = 0): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  CHUNK.lastIndex = from;
  for (let match = CHUNK.exec(text); match !== null; match = CHUNK.exec(text)) found.push([match.index, match.index + match[0].length]);
  return found;
}

describe('the tokeniser cuts texts into chunks as the definition does', () => {
  it('finds the chunks of the definition, from any position', () => {
    const text = EDGES.join(' ');
    for (let from = 0; from < text.length; from++) expect(scannedChunks(text, from), `from ${from}`).toEqual(definedChunks(text, from));
    for (const edge of EDGES) expect(scannedChunks(edge), edge).toEqual(definedChunks(edge));
  });

  it('gives the tokens of each chunk analysed alone, on edge cases of ASCII next to joiners, capitals, marks and other scripts', () => {
    for (const text of EDGES) {
      for (const lang of ['en', 'de', 'ja', 'neutral']) {
        const analysis = analysisLanguage(lang);
        expect(tokensOf(text, analysis), `${lang}: ${text}`).toEqual(tokensChunkByChunk(text, analysis));
      }
    }
  });

  it('from a checkpoint in the middle of a text, as snippets start', () => {
    const text = EDGES.join(' ');
    for (let from = 0; from < text.length; from += 7) {
      expect(tokensOf(text, 'en', from, 100), `from ${from}`).toEqual(tokensChunkByChunk(text, 'en', from, 100));
    }
  });

  const docs = debianDocs();
  it.skipIf(docs.length === 0)("on Debian's documentation in every language it ships", () => {
    const seen = new Set<string>();
    for (const doc of docs) {
      if (seen.has(doc.fileLang)) continue;
      seen.add(doc.fileLang);
      const text = cheerio.load(readDoc(doc))('body').text();
      const lang = analysisLanguage(doc.lang);
      expect(scannedChunks(text), doc.path).toEqual(definedChunks(text));
      const tokens = tokensOf(text, lang);
      expect(tokens.length, doc.path).toBeGreaterThan(100);
      expect(tokens, doc.path).toEqual(tokensChunkByChunk(text, lang));
    }
    expect(seen.size).toBeGreaterThanOrEqual(8);
  });
});
