import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eld } from 'eld/small';
import { parseHtml } from '../crawler/html.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { detectNgramLanguage } from '../indexer/text-index/language-ngrams/index.ts';
import { AVERAGE_SCORES, HIGH_BYTE_SYMBOLS, SEPARATORS } from '../indexer/text-index/language-ngrams/eld-constants.ts';
import { eldSourcePath, findKey, MAX_KEY_LENGTH, packKeyHigh, packKeyLow, parseNgramTable, readEldSmallSource } from '../indexer/text-index/language-ngrams/table.ts';
import { debianDocs, readDoc } from './helpers/debian-docs.ts';

/** eld's own modules, for the tables copied from them. */
async function eldModule(file: string): Promise<Record<string, unknown>> {
  return import(pathToFileURL(eldSourcePath(file)).href);
}

/** How our result differs from eld's for the text, or null: language, reliability, scores in order, bit for bit. */
function difference(text: string): string | null {
  const want = eld.detect(text);
  const got = detectNgramLanguage(text);
  if (got.language !== want.language) return `language ${got.language} ≠ ${want.language}`;
  // eld's typings omit the threshold its isReliable takes.
  const wantReliable = want.isReliable as (thresholdRatio?: number) => boolean;
  for (const ratio of [undefined, 0.5, 1]) {
    if (got.isReliable(ratio) !== wantReliable(ratio)) return `isReliable(${ratio}) ${got.isReliable(ratio)} ≠ ${wantReliable(ratio)}`;
  }
  const gotScores = Object.entries(got.getScores());
  const wantScores = Object.entries(want.getScores() as Record<string, number>);
  if (gotScores.length !== wantScores.length) return `${gotScores.length} scores ≠ ${wantScores.length}`;
  for (let i = 0; i < gotScores.length; i++) {
    if (gotScores[i][0] !== wantScores[i][0] || !Object.is(gotScores[i][1], wantScores[i][1])) {
      return `score ${i}: ${gotScores[i].join('=')} ≠ ${wantScores[i].join('=')}`;
    }
  }
  return null;
}

function expectSameAsEld(texts: readonly string[]): void {
  const differences: string[] = [];
  for (const text of texts) {
    const d = difference(text);
    if (d !== null) differences.push(`${JSON.stringify(text.slice(0, 80))}: ${d}`);
  }
  expect(differences.slice(0, 10)).toEqual([]);
}

const HOSTILE = [
  '',
  ' ',
  '   \t\n  ',
  '0123456789',
  '42',
  '3.14159 2.71828 1.41421',
  '😀',
  '😀😀😀 👍🏽 🇩🇪',
  'grüße 😀 aus Köln',
  '\uD800abc',
  'abc\uD800',
  '\uDC00abc',
  'abc\uDBFF\uDBFF def',
  '\uD83D',
  '日本語の文章とドイツ語の文章が混ざっています。Die Katze sitzt auf der Matte und schläft.',
  'Die Katze sitzt auf der Matte. 猫はマットの上に座っています。',
  'https://www.example.com/path/to/page?query=value&other=1',
  'mailto:someone@example.org',
  'Schreiben Sie an info@beispiel.de oder besuchen Sie https://beispiel.de/kontakt',
  'www.debian.org/doc/manuals/debian-reference',
  "don't won't isn't l'homme aujourd'hui dell'anno",
  "' ` ’ '' ``",
  'a',
  'ab',
  'abc',
  'abcd',
  'abcde',
  'İstanbul İzmir ıIiİ',
  'ΣΊΣΥΦΟΣ Ὀδυσσεύς',
  'ǅemal ǈubljana',
  'ß ẞ ﬁ ﬂ',
  'e\u0301te\u0301 cafe\u0301',
  'Ⅻ ⅻ ⓐⓑⓒ',
  'שלום עולם, זה טקסט בעברית',
  'مرحبا بالعالم هذا نص باللغة العربية',
  'नमस्ते दुनिया यह हिंदी में लिखा गया है',
  'สวัสดีชาวโลก นี่คือข้อความภาษาไทย',
  '안녕하세요 세계 이것은 한국어 문장입니다',
  'Γεια σου κόσμε, αυτό είναι ελληνικό κείμενο',
  'Привет, мир! Это русский текст.',
  'Bună ziua, lume! Acesta este un text în limba română.',
  'Xin chào thế giới, đây là văn bản tiếng Việt',
  '\u0000\u0001\u007f\u0080\u009f\u00a0',
  '\ufeffhello\u200bworld\u00adsoft',
  'ǀǁǂǃ ꟊꟋꟌ Ᲊᲊ',
  ...['a', 'é', 'ж', '日', '😀', ' ', '1', "'", '\uD800', 'ab', 'ei', 'ßa'].flatMap((c) => [c.repeat(3), c.repeat(70), c.repeat(200), c.repeat(2000)]),
  // Words past 70 bytes end in a long n-gram; equal tails are one n-gram.
  `b${'a'.repeat(79)} c${'a'.repeat(79)} d${'a'.repeat(80)}`,
  `${'é'.repeat(36)} ${'é'.repeat(36)} ${'é'.repeat(37)}x`,
  // eld cuts at the first space past 350 bytes, and anywhere past 380.
  ...Array.from({ length: 40 }, (_, i) => `${'word '.repeat(68 + (i >> 2))}${'x'.repeat(i)} tail`),
  ...Array.from({ length: 20 }, (_, i) => `${'ü'.repeat(170 + i)} hier`),
  'Das ist ein sehr langer deutscher Text über die Einrichtung eines Systems. '.repeat(4_000),
  '日本語の長い文章です。'.repeat(30_000),
];

describe('detectNgramLanguage', () => {
  it('reads every n-gram and score of eld\'s table', async () => {
    const { ngramsData } = (await eldModule('ngrams/small.js')) as { ngramsData: { languages: Record<number, string>; ngrams: Record<string, Record<number, number>> } };
    const table = parseNgramTable(readEldSmallSource());
    expect(table.languages).toEqual(Object.values(ngramsData.languages));
    const chars = new Uint8Array(MAX_KEY_LENGTH);
    let keys = 0;
    const wrong: string[] = [];
    for (const [key, scores] of Object.entries(ngramsData.ngrams)) {
      keys++;
      for (let i = 0; i < key.length; i++) chars[i] = key.charCodeAt(i);
      const slot = findKey(table, packKeyLow(chars, 0, key.length), packKeyHigh(chars, 0, key.length));
      const got: Record<number, number> = {};
      if (slot >= 0) for (let i = table.pairStart[slot]; i < table.pairStart[slot] + table.pairCount[slot]; i++) got[table.pairLanguage[i]] = table.pairScore[i];
      if (JSON.stringify(got) !== JSON.stringify(scores)) wrong.push(key);
    }
    expect(wrong).toEqual([]);
    expect(table.keyHigh.filter((h) => h !== 0).length).toBe(keys);
    expect(table.pairLanguage.length).toBe(Object.values(ngramsData.ngrams).reduce((n, s) => n + Object.keys(s).length, 0));
  });

  it('uses eld\'s letters, byte characters and average scores', async () => {
    const { separators } = (await eldModule('regexPatterns.js')) as { separators: RegExp };
    const { dictionary } = (await eldModule('dictionary.js')) as { dictionary: string[] };
    const { avgScore } = (await eldModule('avgScore.js')) as { avgScore: Record<string, number> };
    expect(SEPARATORS.source).toBe(separators.source);
    expect(SEPARATORS.flags).toBe(separators.flags);
    expect([...HIGH_BYTE_SYMBOLS].map((c) => String.fromCharCode(c))).toEqual(dictionary.slice(0x80));
    expect(AVERAGE_SCORES).toEqual(avgScore);
  });

  it('gives what eld gives for empty, odd and hostile texts', () => {
    expectSameAsEld(HOSTILE);
  });

  it('gives what eld gives for random strings of letters, marks, digits and surrogates', () => {
    const random = seededRandom(7);
    const alphabet = [...'abcdefghijklmnopqrstuvwxyzäöüßéèçñøåłžščğışÄÖÜÉİΣσςжЖдяїґ日本語のテキスト한국어ไทยעבעربيनमस्ते0123456789 .,;:!?\'`’-_/@#\u0301\u0300\u200d\u00a0\uD83D\uDE00\uD800\uDC00'];
    const texts: string[] = [];
    for (let n = 0; n < 1_500; n++) {
      const length = Math.floor(random() ** 2 * 600);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      texts.push(text);
    }
    expectSameAsEld(texts);
  });

  const docs = debianDocs();
  it.skipIf(docs.length === 0)('gives what eld gives for Debian\'s documentation: pages, passages and queries', () => {
    const random = seededRandom(3);
    const pages = docs.map((doc) => parseHtml(readDoc(doc), `http://docs.test/${doc.key}`).content.text);
    const passages: string[] = [];
    const queries: string[] = [];
    for (const text of pages) {
      for (let n = 0; n < 12 && text.length > 0; n++) {
        const at = Math.floor(random() * text.length);
        passages.push(text.slice(at, at + 300));
        // Passages of every length, across eld's cuts at 350 and 380 bytes and 1,000 units.
        passages.push(text.slice(at, at + Math.floor(random() * 1_200)));
        const words = text.slice(at, at + 300).split(/\s+/).filter(Boolean);
        const start = Math.floor(random() * words.length);
        queries.push(words.slice(start, start + 1 + Math.floor(random() * 4)).join(' '));
      }
    }
    const cases = [...pages, ...passages, ...queries];
    expect(cases.length).toBeGreaterThan(3_000);
    expectSameAsEld(cases);
  });
});
