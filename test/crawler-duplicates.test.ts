import { describe, expect, it } from 'vitest';
import {
  findNearDuplicates,
  fingerprintHex,
  NearDuplicateIndex,
  normalizeText,
  resemblance,
  shingleHashes,
  shingleResemblance,
  SketchOptionError,
  sketchText,
  textFingerprint,
  words,
} from '../crawler/duplicates.ts';
import { seededRandom } from '../indexer/seeded-random.ts';

const VOCABULARY = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);

function randomWords(count: number, random: () => number): string[] {
  return Array.from({ length: count }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]);
}

/** `text` with about `fraction` of its words replaced at random. */
function mutate(text: string[], fraction: number, random: () => number): string[] {
  return text.map((word) => (random() < fraction ? VOCABULARY[Math.floor(random() * VOCABULARY.length)] : word));
}

describe('exact duplicates', () => {
  it('ignores case, spacing, punctuation and Unicode compatibility forms', () => {
    const a = textFingerprint('Hello,   World! Ｃａｆé');
    expect(textFingerprint('hello world café')).toBe(a);
    expect(textFingerprint('hello world cafe')).not.toBe(a);
    expect(normalizeText('  Hello,\n\tWORLD!! ')).toBe('hello world');
    expect(words('a-b c')).toEqual(['a', 'b', 'c']);
    expect(words(' … ')).toEqual([]);
  });

  it('normalises exactly as the Unicode regular expression on the NFKC lower-cased text, on random texts', () => {
    const reference = (text: string) => text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    // ASCII of every class, Latin-1 and compatibility forms, Greek final sigma, CJK, astral
    // letters and symbols, lone surrogates, combining marks and spaces of every kind.
    const alphabet = ['a', 'Z', 'q', '0', '9', ' ', '-', '.', '\n', '\t', '_', 'é', 'E\u0301', 'ª', '½', '²', 'ß', 'İ', 'K', 'Σ', 'ΑΣ', 'ς', '字', 'ｶ', 'Ａ',
      '\u00a0', '\u2028', '\u3000', '\ufeff', '’', '—', '😀', '𝐀', '𐐀', '\ud800', '\udc00', '\u0301', '٣', 'ǅ'];
    const random = seededRandom(11);
    for (let trial = 0; trial < 5000; trial++) {
      let text = '';
      const length = Math.floor(random() * 16);
      for (let c = 0; c < length; c++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(normalizeText(text)).toBe(reference(text));
    }
    const long = Array.from({ length: 20_000 }, (_, i) => (i % 7 === 0 ? 'Ünïcödé—' : `Word${i} `)).join('');
    expect(normalizeText(long)).toBe(reference(long));
  });

  it('prints 16 hex digits', () => {
    expect(fingerprintHex(0x1fn)).toBe('000000000000001f');
    expect(fingerprintHex(textFingerprint('x'))).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('shingles and sketches', () => {
  it('hashes each distinct w-shingle once, order-sensitively', () => {
    expect(shingleHashes('a rose is a rose is a rose', 4)).toHaveLength(3);
    expect(shingleHashes('one two three', 5)).toHaveLength(1);
    expect(shingleHashes('', 5)).toHaveLength(0);
    expect(shingleHashes('a b c d e', 5)[0]).not.toBe(shingleHashes('e d c b a', 5)[0]);
    const hashes = shingleHashes(randomWords(500, seededRandom(1)).join(' '));
    for (let i = 1; i < hashes.length; i++) expect(hashes[i] > hashes[i - 1]).toBe(true);
  });

  it('keeps the s smallest hashes', () => {
    const text = randomWords(400, seededRandom(2)).join(' ');
    const sketch = sketchText(text, { sketchSize: 50 });
    expect(Array.from(sketch.minima)).toEqual(Array.from(shingleHashes(text).slice(0, 50)));
    expect(sketch.shingleCount).toBe(396);
    expect(sketch.bins).toHaveLength(128);
  });

  it('rejects bad options', () => {
    expect(() => sketchText('x', { sketchSize: 0 })).toThrow(SketchOptionError);
    expect(() => new NearDuplicateIndex({ bands: 1.5 })).toThrow(SketchOptionError);
    expect(() => new NearDuplicateIndex({ bands: 4 }).add(0, sketchText('a b c'))).toThrow(SketchOptionError);
  });
});

describe('resemblance', () => {
  const random = seededRandom(7);
  const base = randomWords(600, random);

  it('is 1 for identical texts and for the same words in another layout', () => {
    const a = sketchText(base.join(' '));
    expect(resemblance(a, a)).toBe(1);
    expect(resemblance(a, sketchText(base.join('\n').toUpperCase()))).toBe(1);
  });

  it('is about 0 for disjoint texts', () => {
    const other = randomWords(600, seededRandom(8));
    expect(resemblance(sketchText(base.join(' ')), sketchText(other.join(' ')))).toBeLessThan(0.02);
    expect(shingleResemblance(base.join(' '), other.join(' '))).toBeLessThan(0.01);
  });

  it('stays high after a small edit', () => {
    const edited = [...base];
    edited[300] = 'changed';
    edited.splice(100, 0, 'inserted');
    const r = resemblance(sketchText(base.join(' ')), sketchText(edited.join(' ')));
    expect(r).toBeGreaterThan(0.9);
    expect(shingleResemblance(base.join(' '), edited.join(' '))).toBeCloseTo(590 / 606, 2);
  });

  it('handles empty and tiny texts', () => {
    expect(resemblance(sketchText(''), sketchText(''))).toBe(1);
    expect(resemblance(sketchText(''), sketchText('some words here'))).toBe(0);
    expect(resemblance(sketchText('tiny text'), sketchText('Tiny, text!'))).toBe(1);
  });

  it('is exact when both texts have fewer shingles than s', () => {
    const a = randomWords(60, seededRandom(3));
    const b = mutate(a, 0.1, seededRandom(4));
    expect(resemblance(sketchText(a.join(' ')), sketchText(b.join(' ')))).toBeCloseTo(shingleResemblance(a.join(' '), b.join(' ')), 12);
  });

  it('estimates the exact Jaccard resemblance on random texts', () => {
    const errors: number[] = [];
    for (let trial = 0; trial < 60; trial++) {
      const rnd = seededRandom(100 + trial);
      const a = randomWords(400 + Math.floor(rnd() * 800), rnd);
      const b = mutate(a, [0.005, 0.02, 0.05, 0.1, 0.2][trial % 5], rnd);
      const exact = shingleResemblance(a.join(' '), b.join(' '));
      const estimate = resemblance(sketchText(a.join(' ')), sketchText(b.join(' ')));
      errors.push(Math.abs(estimate - exact));
      // s = 128: standard error ≤ 0.045; 3.5σ.
      expect(Math.abs(estimate - exact), `trial ${trial}: exact ${exact}`).toBeLessThan(0.16);
    }
    const meanError = errors.reduce((sum, e) => sum + e, 0) / errors.length;
    expect(meanError).toBeLessThan(0.04);
  });
});

describe('LSH banding', () => {
  it('makes near duplicates candidates and leaves unrelated pages apart', () => {
    const index = new NearDuplicateIndex();
    const originals = Array.from({ length: 40 }, (_, i) => randomWords(500, seededRandom(1000 + i)));
    originals.forEach((text, id) => expect(index.add(id, sketchText(text.join(' ')))).toEqual([]));
    let found = 0;
    originals.forEach((text, id) => {
      const copy = mutate(text, 0.01, seededRandom(2000 + id)).join(' ');
      if (index.candidates(sketchText(copy)).includes(id)) found++;
      // Unrelated pages: no false candidates.
      expect(index.candidates(sketchText(copy)).filter((other) => other !== id)).toEqual([]);
    });
    expect(found).toBeGreaterThanOrEqual(39);
    expect(index.size).toBe(40);
  });

  it('candidate probability follows 1 − (1 − J^r)^b', () => {
    // Replacing a fraction f of the words keeps (1 − f)^5 of the 5-shingles: J = k / (2 − k).
    // f = 0.07 → J ≈ 0.53, a candidate with probability ≈ 10%; f = 0.01 → J ≈ 0.91, ≈ 100%.
    let low = 0;
    let high = 0;
    const trials = 60;
    for (let t = 0; t < trials; t++) {
      const a = randomWords(800, seededRandom(5000 + t));
      const far = mutate(a, 0.07, seededRandom(6000 + t));
      const near = mutate(a, 0.01, seededRandom(7000 + t));
      const index = new NearDuplicateIndex();
      index.add(0, sketchText(a.join(' ')));
      if (index.candidates(sketchText(far.join(' '))).length > 0) low++;
      if (index.candidates(sketchText(near.join(' '))).length > 0) high++;
    }
    expect(low / trials).toBeLessThan(0.25);
    expect(high / trials).toBeGreaterThan(0.9);
  });

  it('findNearDuplicates agrees with brute force over all pairs', () => {
    const texts: string[] = [];
    for (let family = 0; family < 15; family++) {
      const original = randomWords(300, seededRandom(9000 + family));
      texts.push(original.join(' '));
      for (let copy = 0; copy < family % 3; copy++) texts.push(mutate(original, 0.004 * (copy + 1), seededRandom(9100 + family * 7 + copy)).join(' '));
    }
    const sketches = texts.map((text) => sketchText(text));
    const threshold = 0.8;
    const brute: string[] = [];
    for (let a = 0; a < sketches.length; a++) {
      for (let b = a + 1; b < sketches.length; b++) if (resemblance(sketches[a], sketches[b]) >= threshold) brute.push(`${a}-${b}`);
    }
    const found = findNearDuplicates(sketches, threshold);
    expect(found.map((pair) => `${pair.a}-${pair.b}`)).toEqual(brute);
    expect(brute.length).toBeGreaterThanOrEqual(15);
    for (const pair of found) expect(pair.resemblance).toBeGreaterThanOrEqual(threshold);
    expect(findNearDuplicates([])).toEqual([]);
  });

  it('ignores empty texts', () => {
    const index = new NearDuplicateIndex();
    expect(index.add(0, sketchText(''))).toEqual([]);
    expect(index.add(1, sketchText(''))).toEqual([]);
  });
});
