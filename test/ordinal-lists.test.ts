/**
 * The sorted-list and bitmap operations on document ordinals against Set arithmetic, on random
 * lists of every density (a rare word to nearly every document).
 */
import { describe, expect, it } from 'vitest';
import { countBits, emptyBits, intersectSorted, keepSetBits, ordinalsOfBits, scratchOrdinals, scratchWords, setBits, unionSorted } from '../indexer/text-index/ordinal-lists.ts';
import { seededRandom } from '../indexer/seeded-random.ts';

function randomList(random: () => number, documents: number, density: number): Int32Array {
  const out: number[] = [];
  for (let d = 0; d < documents; d++) if (random() < density) out.push(d);
  return Int32Array.from(out);
}

const sorted = (values: Iterable<number>) => [...values].sort((a, b) => a - b);

describe('ordinal lists', () => {
  it('unite and intersect as sets do, by merge, by gallop and by bitmap', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 200; round++) {
      // Around the 32-bit word edges, and segment sizes of every kind.
      const documents = 1 + Math.floor(random() * (round % 4 === 0 ? 70 : 3000));
      const lists = Array.from({ length: 1 + Math.floor(random() * 4) }, () => randomList(random, documents, random() ** 3));
      const union = sorted(new Set(lists.flatMap((list) => [...list])));
      expect([...unionSorted(lists)]).toEqual(union);
      const bits = emptyBits(documents);
      setBits(bits, lists);
      const ordinals = ordinalsOfBits(bits);
      expect([...ordinals]).toEqual(union);
      // Counted first: an array of their number, not of the lists' postings.
      expect(ordinals.buffer.byteLength).toBe(union.length * 4);
      expect(countBits(bits)).toBe([...bits].reduce((n, word) => n + word.toString(2).replaceAll('0', '').length, 0));
      const candidates = randomList(random, documents, random() ** 2);
      const held = new Set(union);
      const kept = [...candidates].filter((d) => held.has(d));
      expect([...keepSetBits(candidates, bits)]).toEqual(kept);
      const other = new Set(lists[0]);
      expect([...intersectSorted(candidates, lists[0])]).toEqual([...candidates].filter((d) => other.has(d)));
    }
  });

  it('reads the top bit of a word as an ordinal, not a negative number', () => {
    const bits = emptyBits(64);
    setBits(bits, [Int32Array.of(0, 31, 32, 63)]);
    expect([...ordinalsOfBits(bits)]).toEqual([0, 31, 32, 63]);
    expect([...keepSetBits(Int32Array.of(1, 31, 62, 63), bits)]).toEqual([31, 63]);
  });

  it('lends the same working memory at every call, grown when asked for more', () => {
    const words = scratchWords(10);
    words.fill(7);
    expect(scratchWords(10).buffer).toBe(words.buffer);
    expect([...scratchWords(3)]).toEqual([7, 7, 7]);
    const larger = scratchWords(100_000);
    expect(larger.length).toBe(100_000);
    expect(scratchWords(5).buffer).toBe(larger.buffer);
    const ordinals = scratchOrdinals(70_000);
    expect(ordinals.length).toBe(70_000);
    expect(scratchOrdinals(1).buffer).toBe(ordinals.buffer);
  });
});
