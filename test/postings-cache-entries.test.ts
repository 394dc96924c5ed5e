/**
 * The postings cache's entry table (postings-cache-entries.ts) against a Map kept in
 * least-recently-used order: the same keys found, with the same numbers, evicted in the same
 * order, through growth and deletions that shift entries back in the probe sequences.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../indexer/seeded-random.ts';
import { CacheEntries } from '../indexer/text-index/postings-cache-entries.ts';

describe('CacheEntries', () => {
  it('finds, touches and evicts as a Map in recency order does', () => {
    const random = seededRandom(11);
    const entries = new CacheEntries();
    const model = new Map<number, { address: number; size: number; counted: number; shape: number }>();
    // Keys as the cache makes them: a file's number times 2^27 plus a term, some past 2^32.
    const keyOf = () => (1 + Math.floor(random() * 300)) * 2 ** 27 + Math.floor(random() * 3_000) + (random() < 0.2 ? 2 ** 40 : 0);
    for (let step = 0; step < 60_000; step++) {
      const key = keyOf();
      const found = entries.find(key);
      const expected = model.get(key);
      if (expected === undefined) {
        expect(found).toBe(-1);
        const numbers = { address: step * 64, size: 1 + (step % 500), counted: 64 + step, shape: step % 1000 };
        entries.add(key, numbers.address, numbers.size, numbers.counted, numbers.shape);
        model.set(key, numbers);
      } else {
        expect([entries.address(found), entries.size(found), entries.countedBytes(found), entries.shape(found)]).toEqual([expected.address, expected.size, expected.counted, expected.shape]);
        entries.touch(found);
        model.delete(key);
        model.set(key, expected);
      }
      // Keep between 2,000 and 4,000 entries: evict the least recently used, as the budget does.
      while (model.size > 2_000 + Math.floor(random() * 2_000)) {
        const [oldestKey, numbers] = model.entries().next().value!;
        const oldest = entries.oldest;
        expect(entries.address(oldest)).toBe(numbers.address);
        entries.remove(oldest);
        model.delete(oldestKey);
        expect(entries.find(oldestKey)).toBe(-1);
      }
      expect(entries.count).toBe(model.size);
    }
    for (const [key, numbers] of model) expect(entries.address(entries.find(key))).toBe(numbers.address);
    // Emptied, then filled again.
    while (entries.oldest !== -1) entries.remove(entries.oldest);
    expect(entries.count).toBe(0);
    for (const key of model.keys()) expect(entries.find(key)).toBe(-1);
    entries.add(5, 1, 2, 3, 4);
    expect(entries.shape(entries.find(5))).toBe(4);
  });
});
