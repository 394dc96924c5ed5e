/**
 * How a rank vector is stored: a small JSON row (name, version, time, info, entry count) in the
 * `ranks` sublevel, and its arrays as raw bytes under the same key in `rank-data` (ids, then
 * values; little-endian, as the machines that run lse are). At a million pages the arrays were
 * base64 inside the JSON row: 16 MB of text, about 56 ms to write and 25 ms to read on the thread
 * that answers searches; raw bytes are copied in a few ms. Rows written before carry the base64
 * arrays themselves and are read as they are.
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
  /** Rows written before the bytes moved to `rank-data`: the arrays in base64. */
  ids?: string;
  values?: string;
}

/** The row and the bytes of a rank vector. */
export function encodeRanks(version: RankVersion): { row: RankRow; bytes: Uint8Array } {
  const { ids, values } = version;
  if (ids.length !== values.length) throw new StoreError('rank vector: ids and values differ in length');
  const bytes = new Uint8Array(ids.byteLength + values.byteLength);
  bytes.set(new Uint8Array(ids.buffer, ids.byteOffset, ids.byteLength), 0);
  bytes.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), ids.byteLength);
  const row: RankRow = { name: version.name, version: version.version, createdAt: version.createdAt, count: ids.length };
  if (version.info !== undefined) row.info = version.info;
  return { row, bytes };
}

/** Whether the row's arrays are in `rank-data` (else in the row). */
export const rowHasBytes = (row: RankRow): boolean => row.ids === undefined;

/** The rank vector of a row, with its bytes from `rank-data` when it has them there. */
export function decodeRanks(row: RankRow, bytes: Uint8Array | undefined): RankVersion {
  const base = { name: row.name, version: row.version, createdAt: row.createdAt, info: row.info };
  if (!rowHasBytes(row)) {
    const ids = new Int32Array(new Uint8Array(Buffer.from(row.ids!, 'base64')).buffer);
    const values = new Float64Array(new Uint8Array(Buffer.from(row.values ?? '', 'base64')).buffer);
    return { ...base, ids, values };
  }
  const count = row.count ?? -1;
  if (bytes === undefined || !Number.isSafeInteger(count) || count < 0 || bytes.byteLength !== count * 12) {
    throw new StoreError(`rank vector ${row.name}/${row.version}: its data is missing or not ${count} entries long`);
  }
  // Copies of their own: aligned, and not views of a buffer LevelDB handed over.
  const ids = new Int32Array(count);
  const values = new Float64Array(count);
  new Uint8Array(ids.buffer).set(bytes.subarray(0, count * 4));
  new Uint8Array(values.buffer).set(bytes.subarray(count * 4));
  return { ...base, ids, values };
}
