/**
 * One id's value in every version of a rank vector (CrawlStore.rankValueHistory, rank-rows.ts
 * readRankValue) is what the whole vectors hold, read without them: a piece at a time up to the
 * one holding the id, the piece that held it in the version before first.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { describe, expect, it } from 'vitest';
import { CrawlStore, StoreError, type RankVersion } from '../indexer/store/crawl-store.ts';
import { encodeRankPiece, RANK_PIECE_ENTRIES, rankPieceKey, rankRow, readRankPieces, readRankValue, type RankRow } from '../indexer/store/rank-rows.ts';

const freshDir = () => mkdtempSync(join(tmpdir(), 'lse-rank-value-'));

/** Three pieces, the last of 5 entries; ids ascend in steps of 3, so ids between them are absent. */
const COUNT = 2 * RANK_PIECE_ENTRIES + 5;
const ascendingIds = () => Int32Array.from({ length: COUNT }, (_, i) => 3 * i + 2);

/** The same ids in a fixed random order (as the URL order the rounds write scatters them). */
function shuffledIds(): Int32Array {
  const ids = ascendingIds();
  let seed = 12_345;
  for (let i = ids.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  return ids;
}

const valuesFor = (count: number, version: number) => Float64Array.from({ length: count }, (_, i) => version / (i + 3));

/** Ids to look up in a vector of `ids`: the first, either side of the first piece's end, in the last partial piece, the last, and absent ones. */
function probesOf(ids: Int32Array): number[] {
  const absent = [0, 1, 3 * COUNT + 2, -7, 2 ** 31 - 1];
  return [ids[0], ids[RANK_PIECE_ENTRIES - 1], ids[RANK_PIECE_ENTRIES], ids[ids.length - 5], ids[ids.length - 1], ...absent];
}

/** Each probe's values by rankValueHistory equal those of the whole vectors by rankHistory. */
async function expectSameAsWholeVectors(store: CrawlStore, name: string, probes: number[]): Promise<void> {
  const whole = await store.rankHistory(name);
  expect(whole.length).toBeGreaterThan(0);
  for (const id of probes) {
    const expected = whole.map((version) => {
      const at = version.ids.indexOf(id);
      return { version: version.version, createdAt: version.createdAt, value: at >= 0 ? version.values[at] : null };
    });
    expect(await store.rankValueHistory(name, id), `id ${id}`).toEqual(expected);
  }
}

/** A row in pieces, as putRanks writes it, and a `get` of its pieces that counts its reads. */
function piecesOf(version: RankVersion): { row: RankRow; key: string; get: (key: string) => Promise<Uint8Array | undefined>; reads: string[]; data: Map<string, Uint8Array> } {
  const row = rankRow(version);
  const key = 'estimate/00000001';
  const data = new Map<string, Uint8Array>();
  for (let piece = 0; piece < row.pieces!; piece++) data.set(rankPieceKey(key, piece), encodeRankPiece(version, piece));
  const reads: string[] = [];
  const get = async (read: string) => {
    reads.push(read);
    return data.get(read);
  };
  return { row, key, get, reads, data };
}

const versionOf = (ids: Int32Array): RankVersion => ({ name: 'estimate', version: 1, createdAt: 1, ids, values: valuesFor(ids.length, 1) });

describe('one id in every version of a rank vector', () => {
  it('reads what the whole vectors hold: one value, pieces with ascending and with shuffled ids, base64 rows', async () => {
    const dir = freshDir();
    // A row as the first versions wrote it: the arrays in base64 inside the JSON.
    const legacy = new Level<string, unknown>(dir, { valueEncoding: 'json' });
    const base64 = (array: Int32Array | Float64Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
    await legacy.sublevel<string, unknown>('ranks', { valueEncoding: 'json' }).put('estimate/00000001', { name: 'estimate', version: 1, createdAt: 7, ids: base64(Int32Array.from([6, 2])), values: base64(Float64Array.from([0.75, 0.25])) });
    await legacy.close();

    const ascending = ascendingIds();
    const shuffled = shuffledIds();
    let store = await CrawlStore.open(dir);
    try {
      const batch = store.batch();
      batch.putRanks({ name: 'estimate', version: 2, createdAt: 20, ids: Int32Array.from([ascending[3], 6, ascending[COUNT - 1]]), values: Float64Array.from([0.5, 0.25, 0.25]) });
      batch.putRanks({ name: 'estimate', version: 3, createdAt: 30, ids: ascending, values: valuesFor(COUNT, 3) });
      batch.putRanks({ name: 'estimate', version: 4, createdAt: 40, ids: shuffled, values: valuesFor(COUNT, 4) });
      batch.putRanks({ name: 'estimate', version: 5, createdAt: 50, ids: ascending, values: valuesFor(COUNT, 5) });
      batch.putRanks({ name: 'local', version: 1, createdAt: 10, ids: shuffled, values: valuesFor(COUNT, 6) });
      await batch.commit();
    } finally {
      await store.close();
    }
    store = await CrawlStore.open(dir);
    try {
      await expectSameAsWholeVectors(store, 'estimate', [...probesOf(ascending), ...probesOf(shuffled), 2, 6]);
      await expectSameAsWholeVectors(store, 'local', probesOf(shuffled));
      expect((await store.rankValueHistory('estimate', 6)).map((entry) => entry.value)).toEqual([0.75, 0.25, null, null, null]);
      expect(await store.rankValueHistory('local-current', 5)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('reads one piece a version in the store once the id is found, where a vector\'s ids keep their order', async () => {
    const store = await CrawlStore.open(freshDir());
    try {
      const shuffled = shuffledIds();
      for (const version of [1, 2, 3]) await store.batch().putRanks({ name: 'estimate', version, ids: shuffled, values: valuesFor(COUNT, version) }).commit();
      const data = store.sublevels.rankData;
      const reads: string[] = [];
      const get = data.get.bind(data);
      data.get = ((key: string) => {
        reads.push(key);
        return get(key);
      }) as typeof data.get;
      const position = COUNT - 3;
      expect((await store.rankValueHistory('estimate', shuffled[position])).map((entry) => entry.value)).toEqual([1, 2, 3].map((version) => version / (position + 3)));
      expect(reads).toEqual(['estimate/00000001:0', 'estimate/00000001:1', 'estimate/00000001:2', 'estimate/00000002:2', 'estimate/00000003:2']);
    } finally {
      await store.close();
    }
  });

  it('reads the pieces in order until the one holding the id, and every piece for an id not in the vector', async () => {
    const pieces = piecesOf(versionOf(ascendingIds()));
    const row = pieces.row;
    const id = ascendingIds()[RANK_PIECE_ENTRIES + 7];
    expect(await readRankValue(row, pieces.key, id, pieces.get)).toEqual({ value: 1 / (RANK_PIECE_ENTRIES + 10), position: RANK_PIECE_ENTRIES + 7 });
    expect(pieces.reads).toEqual([0, 1].map((piece) => rankPieceKey(pieces.key, piece)));
    pieces.reads.length = 0;
    expect(await readRankValue(row, pieces.key, 1, pieces.get)).toEqual({ value: null, position: -1 });
    expect(pieces.reads).toEqual([0, 1, 2].map((piece) => rankPieceKey(pieces.key, piece)));
    // The whole vector: every piece too.
    pieces.reads.length = 0;
    await readRankPieces(row, pieces.key, pieces.get);
    expect(pieces.reads).toHaveLength(3);
  });

  it('reads first the piece where the id was in the version before', async () => {
    const shuffled = shuffledIds();
    const pieces = piecesOf(versionOf(shuffled));
    const position = COUNT - 3;
    expect(await readRankValue(pieces.row, pieces.key, shuffled[position], pieces.get)).toEqual({ value: 1 / (position + 3), position });
    expect(pieces.reads).toEqual([0, 1, 2].map((piece) => rankPieceKey(pieces.key, piece)));
    pieces.reads.length = 0;
    expect(await readRankValue(pieces.row, pieces.key, shuffled[position], pieces.get, position)).toEqual({ value: 1 / (position + 3), position });
    expect(pieces.reads).toEqual([rankPieceKey(pieces.key, 2)]);
    // A hint that misses: the other pieces still read, nearest first.
    pieces.reads.length = 0;
    expect((await readRankValue(pieces.row, pieces.key, shuffled[3], pieces.get, RANK_PIECE_ENTRIES)).position).toBe(3);
    expect(pieces.reads).toEqual([1, 0].map((piece) => rankPieceKey(pieces.key, piece)));
  });

  it('refuses a missing or short piece and a short value, naming the vector', async () => {
    const pieces = piecesOf(versionOf(ascendingIds()));
    const id = ascendingIds()[RANK_PIECE_ENTRIES];
    pieces.data.delete(rankPieceKey(pieces.key, 1));
    await expect(readRankValue(pieces.row, pieces.key, id, pieces.get)).rejects.toThrow(/estimate\/1: piece 1 is missing or not 65536 entries long/);
    pieces.data.set(rankPieceKey(pieces.key, 2), new Uint8Array(4 * 12));
    // Piece 2 read first (where the id was before): its short bytes refused.
    await expect(readRankValue(pieces.row, pieces.key, ascendingIds()[COUNT - 1], pieces.get, COUNT - 1)).rejects.toThrow(/piece 2 is missing or not 5 entries long/);
    const small = rankRow(versionOf(Int32Array.from([4, 2])));
    await expect(readRankValue(small, 'estimate/00000001', 2, async () => new Uint8Array(23))).rejects.toThrow(/estimate\/1: its data is missing or not 2 entries long/);
    await expect(readRankValue(small, 'estimate/00000001', 2, async () => undefined)).rejects.toThrow(StoreError);
  });

  it('reads a value from Buffers that are views into a larger one, aligned or not, as LevelDB hands them over', async () => {
    const version = versionOf(Int32Array.from([4, 2, 9]));
    const row = rankRow(version);
    const bytes = Buffer.concat([Buffer.from(version.ids.buffer), Buffer.from(version.values.buffer)]);
    for (const offset of [8, 1]) {
      const pooled = Buffer.concat([Buffer.alloc(offset, 0xff), bytes, Buffer.alloc(16, 0xff)]).subarray(offset, offset + bytes.byteLength);
      expect(await readRankValue(row, 'estimate/00000001', 9, async () => pooled)).toEqual({ value: 1 / 5, position: 2 });
      expect(await readRankValue(row, 'estimate/00000001', 7, async () => pooled)).toEqual({ value: null, position: -1 });
    }
  });
});
