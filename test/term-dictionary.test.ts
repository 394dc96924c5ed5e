/**
 * The byte dictionary of a segment's terms answers as the sorted string list it replaced: same
 * order (JS `<`, UTF-16 code units), same finds, bounds and prefix ranges, and the term walks
 * visit the same entries, on real multilingual words and on the characters whose UTF-8 order
 * differs from their UTF-16 order.
 */
import { describe, expect, it } from 'vitest';
import { debianCorpus } from '../bench/multilingual-recall.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { isMarkedTerm } from '../indexer/text-index/exact-name.ts';
import { QueryBudget } from '../indexer/text-index/query-budget.ts';
import { analyzeDocument } from '../indexer/text-index/segment-analysis.ts';
import { lowerBound } from '../indexer/text-index/sorted-strings.ts';
import { DictionaryBuilder, TermDictionary } from '../indexer/text-index/term-dictionary.ts';
import { encodeKey } from '../indexer/text-index/unit-encoding.ts';
import { forEachTermMatchingGlob, forEachTermWithinEdits, withinEdits } from '../indexer/text-index/term-walk.ts';
import { debianDocs } from './helpers/debian-docs.ts';

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Strings where UTF-8 byte order and UTF-16 order part (above U+FFFF vs U+E000–U+FFFF), and other awkward ones. */
const TRICKY = [
  '\u{1f600}', // 😀 as a surrogate pair
  '\u{1f600}x',
  'a\u{10000}',
  'a\ue000',
  'a\uffff',
  'a\uff21', // Ａ fullwidth
  '\ue000',
  '\ufffd',
  '\ud7ff',
  '\ud800', // lone surrogates survive too
  'x\udfff',
  '中文',
  '中',
  '日本語',
  '한국어',
  'é',
  'e\u0301',
  'école',
  'ecole',
  'straße',
  'de:paket',
  'de:pakete',
  'da:pakke',
  'de:',
  'de;',
  'zh:中文',
  '=os.path.join',
  '>format file',
  '',
  'a',
  'ab',
  'abc',
];

/** Words of real pages (Debian documentation in 11 languages) as the analysis makes them terms. */
function realTerms(): string[] {
  if (debianDocs().length === 0) return [];
  const terms = new Set<string>();
  for (const doc of debianCorpus().docs.filter((_, i) => i % 9 === 0)) for (const field of analyzeDocument(doc)) for (const term of field.terms) terms.add(term);
  return [...terms];
}

function referenceBounds(sorted: readonly string[], key: string): { lower: number; prefix: [number, number] } {
  const start = lowerBound(sorted, key);
  let end = start;
  while (end < sorted.length && sorted[end].startsWith(key)) end++;
  return { lower: start, prefix: [start, end] };
}

describe('term dictionary', () => {
  const real = realTerms();
  const words = [...new Set([...real, ...TRICKY])].sort(byCodeUnits);
  const dictionary = TermDictionary.fromSorted(words);

  it('keeps JS string order where UTF-8 would not', () => {
    // The premise: plain UTF-8 puts an emoji after U+E000, JS strings before it.
    expect('\u{1f600}' < '\ue000').toBe(true);
    expect(Buffer.compare(Buffer.from('\u{1f600}'), Buffer.from('\ue000'))).toBe(1);
    const tricky = [...TRICKY].sort(byCodeUnits);
    const small = TermDictionary.fromSorted(tricky);
    expect(small.toArray()).toEqual(tricky);
    for (let i = 1; i < tricky.length; i++) expect(small.compareWith(i - 1, small, i), `${tricky[i - 1]} < ${tricky[i]}`).toBeLessThan(0);
    expect(TermDictionary.problemWith(small.bytes, small.offsets)).toBeNull();
  });

  it('holds real multilingual terms (CJK, accents, namespaced) and gives each back whole', () => {
    if (debianDocs().length > 0) {
      expect(real.length).toBeGreaterThan(5_000);
      expect(real.some((t) => /[\u4e00-\u9fff]/.test(t))).toBe(true);
      expect(real.some((t) => /^[a-z]{2}:/.test(t))).toBe(true);
    }
    expect(dictionary.length).toBe(words.length);
    words.forEach((word, i) => expect(dictionary.at(i)).toBe(word));
  });

  it('finds each term at its index, and nothing for absent ones', () => {
    words.forEach((word, i) => expect(dictionary.find(word)).toBe(i));
    for (const absent of ['\u{1f601}', 'de:pak', 'zz\u{10ffff}', 'a\ue001', '\udbff', 'ecolf', 'e\u0300']) {
      if (!words.includes(absent)) expect(dictionary.find(absent), absent).toBe(-1);
    }
  });

  it('gives the lower bounds and prefix ranges of the sorted strings', () => {
    const random = seededRandom(7);
    const keys = [...TRICKY, 'de:', 'de:p', 'zh:', '中', '\ud83d', 'a\ud800', 'é', 'e', 'st', 'pa', '\uffff', 'a\uffff'];
    for (let k = 0; k < 400; k++) {
      const word = words[Math.floor(random() * words.length)];
      keys.push(word.slice(0, Math.floor(random() * (word.length + 1))));
    }
    for (const key of keys) {
      const { lower, prefix } = referenceBounds(words, key);
      expect(dictionary.lowerBound(key), key).toBe(lower);
      expect(dictionary.prefixRange(key), key).toEqual(prefix);
      const from = Math.min(lower, 3);
      expect(dictionary.lowerBound(key, from)).toBe(lowerBound(words, key, from));
    }
  });

  it('walks the same terms within an edit distance and matching a wildcard as a full comparison finds', () => {
    const queries = ['中文', '日本', 'ecole', 'straße', '\u{1f600}', 'a\ue000', 'paket', 'de:paket', ...words.filter((_, i) => i % 997 === 0)];
    for (const query of queries) {
      for (const distance of [1, 2]) {
        const found: number[] = [];
        forEachTermWithinEdits(dictionary, 0, dictionary.length, query, distance, false, new QueryBudget(1e9), (t) => found.push(t));
        const expected = words.flatMap((word, t) => (!isMarkedTerm(word) && withinEdits(query, word, distance) ? [t] : []));
        expect(found, `${query}~${distance}`).toEqual(expected);
      }
    }
    for (const pattern of ['中*', '*文', 'é*', 'de:pak*', '*\u{1f600}*', 'a*']) {
      const found: number[] = [];
      forEachTermMatchingGlob(dictionary, pattern, false, new QueryBudget(1e9), (t) => found.push(t));
      const regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^]*')}$`);
      expect(found, pattern).toEqual(words.flatMap((word, t) => (!isMarkedTerm(word) && regex.test(word) ? [t] : [])));
    }
  });

  it('builds from another dictionary entry by entry, and compares across dictionaries', () => {
    const builder = new DictionaryBuilder();
    for (let i = 0; i < dictionary.length; i += 2) builder.addEntry(dictionary, i);
    const half = builder.done();
    expect(half.toArray()).toEqual(words.filter((_, i) => i % 2 === 0));
    for (let i = 0; i + 1 < half.length; i++) expect(Math.sign(half.compareWith(i, dictionary, 2 * i + 1))).toBe(-1);
    expect(half.compareAt(0, encodeKey(words[0]))).toBe(0);
  });

  it('names what is wrong with damaged arrays', () => {
    const small = TermDictionary.fromSorted(['abc', 'abd', 'é']);
    const copy = () => ({ bytes: small.bytes.slice(), offsets: small.offsets.slice() });
    const unordered = copy();
    [unordered.bytes[2], unordered.bytes[5]] = [unordered.bytes[5], unordered.bytes[2]];
    expect(TermDictionary.problemWith(unordered.bytes, unordered.offsets)).toMatch(/out of order/);
    const notText = copy();
    notText.bytes[6] = 0xff;
    expect(TermDictionary.problemWith(notText.bytes, notText.offsets)).toMatch(/not text/);
    const decreasing = copy();
    decreasing.offsets[1] = 5;
    decreasing.offsets[2] = 4;
    expect(TermDictionary.problemWith(decreasing.bytes, decreasing.offsets)).toMatch(/decrease/);
    const short = copy();
    expect(TermDictionary.problemWith(short.bytes.subarray(0, 7), short.offsets)).toMatch(/do not fit/);
  });
});
