/**
 * The index's table of page versions against a Map of the same operations: random sets,
 * overwrites and deletes of ids as a store gives them (consecutive, then scattered), through
 * growth, an update's deletes and sets over a million pages, and versions that are not 12 hex
 * digits kept as they are.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../indexer/seeded-random.ts';
import { VersionTable, versionsJson } from '../indexer/text-index/version-table.ts';

const hexVersion = (random: () => number) => Array.from({ length: 12 }, () => Math.floor(random() * 16).toString(16)).join('');

describe('the version table', () => {
  it('answers as a Map of the same sets and deletes', () => {
    const random = seededRandom(42);
    const table = new VersionTable();
    const reference = new Map<number, string>();
    const idOf = (step: number) => (step < 30_000 ? Math.floor(random() * 20_000) : Math.floor(random() * 2 ** 31));
    for (let step = 0; step < 60_000; step++) {
      const id = idOf(step);
      const roll = random();
      if (roll < 0.6) {
        const version = roll < 0.01 ? `old-${step}` : hexVersion(random);
        table.set(id, version);
        reference.set(id, version);
      } else if (roll < 0.9) {
        expect(table.delete(id)).toBe(reference.delete(id));
      } else {
        expect(table.get(id)).toBe(reference.get(id));
      }
    }
    expect(table.size).toBe(reference.size);
    for (const [id, version] of reference) expect(table.get(id)).toBe(version);
    for (let id = 0; id < 20_000; id++) expect(table.get(id)).toBe(reference.get(id));
  });

  it('keeps a million consecutive ids, versions with leading zeros, and ids that are not keys', () => {
    const random = seededRandom(7);
    const table = new VersionTable();
    const versions: string[] = [];
    for (let id = 0; id < 1_000_000; id++) {
      const version = id % 1_000 === 0 ? '000000000000' : id % 1_001 === 0 ? '00000000000f' : hexVersion(random);
      versions.push(version);
      table.set(id, version);
    }
    expect(table.size).toBe(1_000_000);
    for (let id = 0; id < 1_000_000; id += 97) expect(table.get(id)).toBe(versions[id]);
    expect(table.get(0)).toBe('000000000000');
    expect(table.get(1_001)).toBe('00000000000f');
    expect(table.get(1_000_000)).toBeUndefined();
    for (const odd of [-1, 2 ** 31, 1.5]) {
      table.set(odd, 'ffffffffffff');
      expect(table.get(odd)).toBe('ffffffffffff');
      expect(table.delete(odd)).toBe(true);
      expect(table.get(odd)).toBeUndefined();
    }
    // A page whose version changes form moves between the two stores, never in both.
    table.set(5, 'not-hex');
    expect(table.get(5)).toBe('not-hex');
    table.set(5, 'abcdefabcdef');
    expect(table.get(5)).toBe('abcdefabcdef');
    for (const kept of ['ABCDEFABCDEF', 'abcdefabcde', 'abcdefabcdefa', 'abcdefabcdeg']) {
      table.set(6, kept);
      expect(table.get(6)).toBe(kept);
    }
    // Sized ahead for what it will hold, it answers the same.
    const sized = new VersionTable(3);
    sized.set(1, '0123456789ab');
    expect([sized.get(1), sized.get(2), sized.size]).toEqual(['0123456789ab', undefined, 1]);
    expect(table.size).toBe(1_000_000);
  });
});

describe('the version table at a million pages', () => {
  it("takes an update's pages deleted then set again, anywhere in the ids", () => {
    // An open-addressing table with ids as their own home slots looked for each of these through
    // the run of consecutive ids after it: hundreds of thousands of slots per page.
    const random = seededRandom(11);
    const table = new VersionTable(1_000_000);
    const reference = new Map<number, string>();
    for (let id = 0; id < 1_000_000; id++) {
      const version = hexVersion(random);
      table.set(id, version);
      reference.set(id, version);
    }
    const changed = [...new Set(Array.from({ length: 10_000 }, () => Math.floor(random() * 1_000_000)))];
    for (const id of changed) {
      table.delete(id);
      reference.delete(id);
    }
    for (const id of changed) {
      expect(table.get(id)).toBeUndefined();
      const version = hexVersion(random);
      table.set(id, version);
      reference.set(id, version);
    }
    expect(table.size).toBe(reference.size);
    for (let id = 0; id < 1_000_000; id += 13) expect(table.get(id)).toBe(reference.get(id));
    for (const id of changed) expect(table.get(id)).toBe(reference.get(id));
    expect(table.slots).toBe(1_000_000);
  });

  it('holds dense ids in a slot each, in any order, and far ids beside', () => {
    const ascending = new VersionTable();
    for (let id = 0; id < 1_000_000; id++) ascending.set(id, '0123456789ab');
    expect(ascending.slots).toBeLessThanOrEqual(1_500_000);
    const descending = new VersionTable(1_000_000);
    for (let id = 1_000_099; id >= 100; id--) descending.set(id, '0123456789ab');
    expect([descending.size, descending.get(1_000_099), descending.get(99)]).toEqual([1_000_000, '0123456789ab', undefined]);
    expect(descending.slots).toBeLessThanOrEqual(1_500_100);
    // Unsized, the first pages of a store opened from its highest id: beside first, moved in as it fills.
    const unsized = new VersionTable();
    for (let id = 2_000; id >= 0; id--) unsized.set(id, id.toString(16).padStart(12, '0'));
    for (let id = 0; id <= 2_000; id += 7) expect(unsized.get(id)).toBe(id.toString(16).padStart(12, '0'));
    expect([unsized.size, unsized.slots >= 2_001]).toEqual([2_001, true]);
    // An id far beyond the others takes no array of its size.
    const sparse = new VersionTable();
    sparse.set(2 ** 31 - 1, 'abcdefabcdef');
    sparse.set(3, 'abcdefabcdef');
    expect([sparse.get(2 ** 31 - 1), sparse.get(3), sparse.size]).toEqual(['abcdefabcdef', 'abcdefabcdef', 2]);
    expect(sparse.slots).toBeLessThan(1_000);
  });
});

describe("the versions' JSON in the manifest", () => {
  it('equals the JSON of the versions as strings, deleted pages and pages without one as ""', () => {
    const random = seededRandom(3);
    const table = new VersionTable();
    const ids = Int32Array.from({ length: 5_000 }, (_, i) => i * 3);
    const deleted = Uint8Array.from(ids, () => (random() < 0.1 ? 1 : 0));
    for (const id of ids) {
      const roll = random();
      if (roll < 0.8) table.set(id, hexVersion(random));
      else if (roll < 0.85) table.set(id, `old "${id}" é`);
    }
    const expected = JSON.stringify(Array.from(ids, (id, i) => (deleted[i] ? '' : (table.get(id) ?? ''))));
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    expect(text(versionsJson(ids, deleted, table))).toBe(expected);
    expect(JSON.parse(text(versionsJson(ids, null, table)))).toEqual(Array.from(ids, (id) => table.get(id) ?? ''));
    expect(text(versionsJson(new Int32Array(0), null, table))).toBe('[]');
    // Changes over the table: the source's own answer where it writes none.
    const changes = { get: (id: number) => (id === 3 ? 'changed' : table.get(id)), writeHex: (id: number, out: Uint8Array, at: number) => id !== 3 && table.writeHex(id, out, at) };
    expect(JSON.parse(text(versionsJson(ids.subarray(0, 3), null, changes)))).toEqual([table.get(0) ?? '', 'changed', table.get(6) ?? '']);
  });
});
