/**
 * Rank vectors are stored as a JSON row and raw bytes (indexer/store/rank-rows.ts); rows written
 * before, with their arrays in base64 inside the JSON, are read as they are.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { describe, expect, it } from 'vitest';
import { CrawlStore, StoreError } from '../indexer/store/crawl-store.ts';
import { decodeRanks, encodeRanks, RANK_PIECE_ENTRIES } from '../indexer/store/rank-rows.ts';

const freshDir = () => mkdtempSync(join(tmpdir(), 'lse-rank-rows-'));

describe('rank vectors as bytes', () => {
  it('keeps every id and value exactly, from arrays that are views into larger buffers', () => {
    const idsBuffer = new Int32Array(1 + 1000);
    const valuesBuffer = new Float64Array(3 + 1000);
    const ids = idsBuffer.subarray(1);
    const values = valuesBuffer.subarray(3);
    for (let i = 0; i < 1000; i++) {
      ids[i] = (i * 7919) % 1_000_003;
      values[i] = i === 0 ? Number.MIN_VALUE : 1 / (i + 1);
    }
    const { row, bytes } = encodeRanks({ name: 'estimate', version: 3, createdAt: 5, ids, values, info: { round: 'r' } });
    expect(row).toEqual({ name: 'estimate', version: 3, createdAt: 5, count: 1000, info: { round: 'r' } });
    expect(bytes.byteLength).toBe(12_000);
    // Unaligned bytes, as a read may hand them over.
    const unaligned = new Uint8Array(bytes.byteLength + 1).subarray(1);
    unaligned.set(bytes);
    const decoded = decodeRanks(row, unaligned);
    expect([...decoded.ids]).toEqual([...ids]);
    expect([...decoded.values]).toEqual([...values]);
    expect(decoded).toMatchObject({ name: 'estimate', version: 3, createdAt: 5, info: { round: 'r' } });
  });

  it('refuses a row whose bytes are missing or of the wrong length, naming the vector', () => {
    const { row, bytes } = encodeRanks({ name: 'local', version: 1, createdAt: 0, ids: Int32Array.from([1, 2]), values: Float64Array.from([0.5, 0.5]) });
    expect(() => decodeRanks(row, undefined)).toThrow(StoreError);
    expect(() => decodeRanks(row, bytes.subarray(1))).toThrow(/local\/1: its data is missing or not 2 entries long/);
  });

  it('reads rows written before, with base64 arrays in the JSON, beside rows written now', async () => {
    const dir = freshDir();
    // A store as an earlier version wrote it: the arrays inside the row.
    const legacy = new Level<string, unknown>(dir, { valueEncoding: 'json' });
    const ranks = legacy.sublevel<string, unknown>('ranks', { valueEncoding: 'json' });
    const base64 = (array: Int32Array | Float64Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
    await ranks.put('estimate/00000001', { name: 'estimate', version: 1, createdAt: 7, ids: base64(Int32Array.from([4, 2])), values: base64(Float64Array.from([0.75, 0.25])), info: { selector: 'sc' } });
    await legacy.close();

    const store = await CrawlStore.open(dir);
    try {
      const old = await store.latestRanks('estimate');
      expect(old).toMatchObject({ name: 'estimate', version: 1, createdAt: 7, info: { selector: 'sc' } });
      expect([...old!.ids]).toEqual([4, 2]);
      expect([...old!.values]).toEqual([0.75, 0.25]);
      await store.batch().putRanks({ name: 'estimate', version: 2, ids: Int32Array.from([4, 2, 9]), values: Float64Array.from([0.5, 0.25, 0.25]) }).commit();
      const history = await store.rankHistory('estimate');
      expect(history.map((r) => [r.version, [...r.ids], [...r.values]])).toEqual([
        [1, [4, 2], [0.75, 0.25]],
        [2, [4, 2, 9], [0.5, 0.25, 0.25]],
      ]);
      expect([...(await store.getRanks('estimate', 2))!.ids]).toEqual([4, 2, 9]);
      expect(await store.rankHistory('local')).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('stores a vector of more than a piece in pieces, read back exactly beside vectors in one value', async () => {
    const dir = freshDir();
    const count = 2 * RANK_PIECE_ENTRIES + 5;
    const ids = Int32Array.from({ length: count }, (_, i) => (i * 7919) % 1_000_003);
    const values = Float64Array.from({ length: count }, (_, i) => 1 / (i + 3));
    let store = await CrawlStore.open(dir);
    try {
      await store.batch().putRanks({ name: 'estimate', version: 1, ids: Int32Array.from([3]), values: Float64Array.from([1]) }).commit();
      await store.batch().putRanks({ name: 'estimate', version: 2, ids, values, info: { round: 'r2' } }).commit();
      const read = (await store.latestRanks('estimate'))!;
      expect(read).toMatchObject({ name: 'estimate', version: 2, info: { round: 'r2' } });
      expect(Buffer.from(read.ids.buffer).equals(Buffer.from(ids.buffer))).toBe(true);
      expect(Buffer.from(read.values.buffer).equals(Buffer.from(values.buffer))).toBe(true);
      const history = await store.rankHistory('estimate');
      expect(history.map((r) => [r.version, r.ids.length, r.values[r.values.length - 1]])).toEqual([
        [1, 1, 1],
        [2, count, 1 / (count + 2)],
      ]);
    } finally {
      await store.close();
    }
    // On disk: three pieces under keys of their own, none under the row's key.
    const raw = new Level<string, Uint8Array>(dir, { valueEncoding: 'view' });
    const data = raw.sublevel<string, Uint8Array>('rank-data', { valueEncoding: 'view' });
    const keys: string[] = [];
    for await (const key of data.keys()) keys.push(key);
    expect(keys).toEqual(['estimate/00000001', 'estimate/00000002:0', 'estimate/00000002:1', 'estimate/00000002:2']);
    expect((await data.get('estimate/00000002:2'))!.byteLength).toBe(5 * 12);
    // A piece lost: the vector is refused, naming the piece; the others still read.
    await data.del('estimate/00000002:1');
    await raw.close();
    store = await CrawlStore.open(dir);
    try {
      await expect(store.getRanks('estimate', 2)).rejects.toThrow(/estimate\/2: piece 1 is missing or not 65536 entries long/);
      expect([...(await store.getRanks('estimate', 1))!.ids]).toEqual([3]);
      // Written again, smaller: one value again, and the pieces left behind are not read.
      await store.batch().putRanks({ name: 'estimate', version: 2, ids: Int32Array.from([5, 6]), values: Float64Array.from([0.5, 0.5]) }).commit();
      expect([...(await store.getRanks('estimate', 2))!.ids]).toEqual([5, 6]);
    } finally {
      await store.close();
    }
  });

  it('writes a vector in pieces in the same commit as the rows beside it, and not at all when that commit fails', async () => {
    const dir = freshDir();
    const count = RANK_PIECE_ENTRIES + 1;
    const ids = Int32Array.from({ length: count }, (_, i) => i);
    const values = new Float64Array(count).fill(1 / count);
    const store = await CrawlStore.open(dir);
    try {
      await store.batch().putRanks({ name: 'local', version: 1, ids, values }).putMeta('round', { name: 'one' }).commit();
      expect((await store.getRanks('local', 1))!.ids.length).toBe(count);
      expect(await store.getMeta('round')).toEqual({ name: 'one' });
      expect(encodeRanks.bind(null, { name: 'local', version: 1, createdAt: 0, ids, values })).toThrow(/65537 entries take 2 pieces/);
    } finally {
      await store.close();
    }
    // A closed store refuses the commit: no row, so no vector.
    await expect(store.batch().putRanks({ name: 'local', version: 2, ids, values }).commit()).rejects.toThrow(StoreError);
    const again = await CrawlStore.open(dir);
    try {
      expect(await again.getRanks('local', 2)).toBeUndefined();
      expect((await again.latestRanks('local'))!.version).toBe(1);
    } finally {
      await again.close();
    }
  });
});
