/**
 * How a rank vector is stored: a small JSON row (name, version, time, info, entry count) in the
 * `ranks` sublevel, and its arrays as raw bytes under the same key in `rank-data` (ids, then
 * values; little-endian, as the machines that run lse are). At a million pages the arrays were
 * base64 inside the JSON row: 16 MB of text, about 56 ms to write and 25 ms to read on the thread
 * that answers searches; raw bytes are copied in a few ms. Rows written before carry the base64
 * arrays themselves and are read as they are.
 *
 * A vector of more than {@link RANK_PIECE_ENTRIES} entries is stored in pieces of that many, each
 * under a key of its own (`key:i`, ids then values of its entries), written one commit each before
 * the row and read one at a time. LevelDB copies a value on the thread that writes or reads it: a
 * million entries in one value held the thread that answers searches 3-18 ms on a quiet machine
 * and about 40 ms beside an update's other work; a piece is 768 KB. Pieces written for a row that
 * never got written (a commit that failed half-way) are never read, and are overwritten with the
 * next vector of the same name and version.
 *
 * The value of one id is read without the whole vector ({@link readRankValue}): a piece at a time,
 * until the one holding it. A vector's ids keep their order from one version to the next (the
 * rounds write them in URL order), so the piece that held the id in the version before is read
 * first, and is most often the only one read.
 */
import { StoreError } from './errors.ts';
import type { RankVersion } from './records.ts';

export interface RankRow {
  name: string;
  version: number;
  createdAt: number;
  info?: Record<string, unknown>;
  /** Entries in the row's bytes in `rank-data`. */
  count?: number;
  /** Pieces of {@link RANK_PIECE_ENTRIES} entries its bytes take in `rank-data` (`key:i`); absent, all under the row's key. */
  pieces?: number;
  /** Rows written before the bytes moved to `rank-data`: the arrays in base64. */
  ids?: string;
  values?: string;
}

/** Entries in a piece of a rank vector's bytes (768 KB). */
export const RANK_PIECE_ENTRIES = 65_536;

/** The `rank-data` key of piece `piece` of the vector under `key`. */
export const rankPieceKey = (key: string, piece: number): string => `${key}:${piece}`;

/** The row of a rank vector: with `pieces` when its bytes take more than one. */
export function rankRow(version: RankVersion): RankRow {
  const { ids, values } = version;
  if (ids.length !== values.length) throw new StoreError('rank vector: ids and values differ in length');
  const row: RankRow = { name: version.name, version: version.version, createdAt: version.createdAt, count: ids.length };
  if (ids.length > RANK_PIECE_ENTRIES) row.pieces = Math.ceil(ids.length / RANK_PIECE_ENTRIES);
  if (version.info !== undefined) row.info = version.info;
  return row;
}

/** The bytes of piece `piece` of a vector in pieces: its entries' ids, then their values. */
export function encodeRankPiece(version: RankVersion, piece: number): Uint8Array {
  const from = piece * RANK_PIECE_ENTRIES;
  const to = Math.min(version.ids.length, from + RANK_PIECE_ENTRIES);
  return bytesOf(version.ids.subarray(from, to), version.values.subarray(from, to));
}

/** The row and the bytes of a rank vector of at most {@link RANK_PIECE_ENTRIES} entries (one value). */
export function encodeRanks(version: RankVersion): { row: RankRow; bytes: Uint8Array } {
  const row = rankRow(version);
  if (row.pieces !== undefined) throw new StoreError(`rank vector ${row.name}/${row.version}: ${row.count} entries take ${row.pieces} pieces`);
  return { row, bytes: bytesOf(version.ids, version.values) };
}

function bytesOf(ids: Int32Array, values: Float64Array): Uint8Array {
  const bytes = new Uint8Array(ids.byteLength + values.byteLength);
  bytes.set(new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength), 0);
  bytes.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), ids.byteLength);
  return bytes;
}

/** Whether the row's arrays are in `rank-data` (else in the row). */
export const rowHasBytes = (row: RankRow): boolean => row.ids === undefined;

/** The rank vector of a row, with its bytes from `rank-data` when it has them there. */
export function decodeRanks(row: RankRow, read: Uint8Array | undefined): RankVersion {
  const base = { name: row.name, version: row.version, createdAt: row.createdAt, info: row.info };
  if (!rowHasBytes(row)) {
    const ids = new Int32Array(new Uint8Array(Buffer.from(row.ids!, 'base64')).buffer);
    const values = new Float64Array(new Uint8Array(Buffer.from(row.values ?? '', 'base64')).buffer);
    return { ...base, ids, values };
  }
  const { bytes, count } = checkBytes(row, read);
  // Copies of their own: aligned, and not views of a buffer LevelDB handed over.
  const ids = new Int32Array(count);
  const values = new Float64Array(count);
  new Uint8Array(ids.buffer).set(bytes.subarray(0, count * 4));
  new Uint8Array(values.buffer).set(bytes.subarray(count * 4));
  return { ...base, ids, values };
}

/** The entries of a row's bytes in one value, checked against its count. */
function checkBytes(row: RankRow, bytes: Uint8Array | undefined): { bytes: Uint8Array; count: number } {
  const count = row.count ?? -1;
  if (bytes === undefined || !Number.isSafeInteger(count) || count < 0 || bytes.byteLength !== count * 12) {
    throw new StoreError(`rank vector ${row.name}/${row.version}: its data is missing or not ${count} entries long`);
  }
  return { bytes, count };
}

/** The vector of a row in pieces, reading them one at a time with `get` (a piece's key: its bytes as stored). */
export async function readRankPieces(row: RankRow, key: string, get: (key: string) => Promise<Uint8Array | undefined>): Promise<RankVersion> {
  const { count, pieces } = checkPieces(row);
  const ids = new Int32Array(count);
  const values = new Float64Array(count);
  for (let piece = 0; piece < pieces; piece++) decodeRankPiece(row, piece, await get(rankPieceKey(key, piece)), ids, values);
  return { name: row.name, version: row.version, createdAt: row.createdAt, info: row.info, ids, values };
}

/** Checks a row in pieces: its count and its number of pieces agree. */
function checkPieces(row: RankRow): { count: number; pieces: number } {
  const count = row.count ?? -1;
  const pieces = row.pieces ?? -1;
  if (!Number.isSafeInteger(count) || count <= RANK_PIECE_ENTRIES || pieces !== Math.ceil(count / RANK_PIECE_ENTRIES)) {
    throw new StoreError(`rank vector ${row.name}/${row.version}: ${row.pieces} pieces cannot hold ${row.count} entries`);
  }
  return { count, pieces };
}

/** Copies piece `piece`'s entries (its bytes as read) into `ids` and `values`, the vector's whole arrays. */
function decodeRankPiece(row: RankRow, piece: number, read: Uint8Array | undefined, ids: Int32Array, values: Float64Array): void {
  const from = piece * RANK_PIECE_ENTRIES;
  const { bytes, entries } = checkPiece(row, piece, read, ids.length);
  new Uint8Array(ids.buffer, from * 4, entries * 4).set(bytes.subarray(0, entries * 4));
  new Uint8Array(values.buffer, from * 8, entries * 8).set(bytes.subarray(entries * 4));
}

/** The entries of piece `piece` (its bytes as read) of a vector of `count`, checked against its length. */
function checkPiece(row: RankRow, piece: number, bytes: Uint8Array | undefined, count: number): { bytes: Uint8Array; entries: number } {
  const entries = Math.min(count, (piece + 1) * RANK_PIECE_ENTRIES) - piece * RANK_PIECE_ENTRIES;
  if (bytes === undefined || bytes.byteLength !== entries * 12) {
    throw new StoreError(`rank vector ${row.name}/${row.version}: piece ${piece} is missing or not ${entries} entries long`);
  }
  return { bytes, entries };
}

/** One id in one version of a rank vector: its value and its entry's place (null and -1: not in it). */
export interface RankValue {
  value: number | null;
  position: number;
}

/** One id's value in one version of a rank vector (null: not in it). */
export interface RankVersionValue {
  version: number;
  createdAt: number;
  value: number | null;
}

const ABSENT: RankValue = { value: null, position: -1 };

/**
 * The value of `id` in the vector of a row, reading with `get` only what may hold it: the row's
 * bytes when in one value; when in pieces, one piece at a time until the one holding it, the piece
 * of entry `near` and its neighbours first. A row with base64 arrays is decoded whole: they were
 * read with the row.
 */
export async function readRankValue(row: RankRow, key: string, id: number, get: (key: string) => Promise<Uint8Array | undefined>, near = -1): Promise<RankValue> {
  if (!rowHasBytes(row)) return valueInVector(decodeRanks(row, undefined), id);
  if (row.pieces === undefined) {
    const { bytes, count } = checkBytes(row, await get(key));
    return valueInBytes(bytes, count, 0, id);
  }
  const { count, pieces } = checkPieces(row);
  for (const piece of piecesNearestFirst(pieces, near)) {
    const { bytes, entries } = checkPiece(row, piece, await get(rankPieceKey(key, piece)), count);
    const found = valueInBytes(bytes, entries, piece * RANK_PIECE_ENTRIES, id);
    if (found.position >= 0) return found;
  }
  return ABSENT;
}

/** The pieces in order, or nearest to the piece of entry `near` first when it is one. */
function piecesNearestFirst(pieces: number, near: number): number[] {
  const order = Array.from({ length: pieces }, (_, piece) => piece);
  if (near < 0) return order;
  const nearPiece = Math.floor(near / RANK_PIECE_ENTRIES);
  return order.sort((a, b) => Math.abs(a - nearPiece) - Math.abs(b - nearPiece));
}

/** `id` among the `entries` entries of checked bytes (ids, then values), the first of them entry `first` of the vector. */
function valueInBytes(bytes: Uint8Array, entries: number, first: number, id: number): RankValue {
  // A view when the bytes LevelDB handed over are aligned for one, else a copy of the ids.
  const ids = bytes.byteOffset % 4 === 0 ? new Int32Array(bytes.buffer, bytes.byteOffset, entries) : new Int32Array(copyOf(bytes, 0, entries * 4).buffer);
  const at = ids.indexOf(id);
  if (at < 0) return ABSENT;
  const offset = entries * 4 + at * 8;
  return { value: new Float64Array(copyOf(bytes, offset, offset + 8).buffer)[0], position: first + at };
}

/** Bytes `from` to `to` in a buffer of their own (a Buffer's `slice` is a view into its pool). */
function copyOf(bytes: Uint8Array, from: number, to: number): Uint8Array {
  const copy = new Uint8Array(to - from);
  copy.set(bytes.subarray(from, to));
  return copy;
}

function valueInVector(version: RankVersion, id: number): RankValue {
  const at = version.ids.indexOf(id);
  return at < 0 ? ABSENT : { value: version.values[at], position: at };
}
