/**
 * The URL table's snapshot, `url-table.bin` in the data directory: what lets the store open
 * without reading every entry of its `urls` sublevel. It is a cache, never the truth — the store
 * checks it against the sublevels at open and ignores it when it does not fit.
 *
 * Layout (little-endian): magic `LSEURLS1`, u32 count, u32 byte length of the URLs, u32 CRC-32 of
 * everything after the header, u32 reserved; then count + 1 u32 offsets, count u32 hashes
 * (url-table.ts), and the URLs' UTF-8 bytes. Written whole to a temporary file, fsynced, renamed.
 */
import { open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { writeFileAtomic } from '../text-index/atomic-file.ts';
import { UrlTable, type UrlTableParts } from './url-table.ts';

export const URL_TABLE_FILE = 'url-table.bin';
const MAGIC = 'LSEURLS1';
const HEADER_BYTES = 24;

/** The snapshot of a data directory, or why it cannot be used (`missing` when there is none). */
export async function readUrlTableFile(directory: string): Promise<{ table: UrlTable } | { problem: string; missing?: true }> {
  let handle: FileHandle;
  try {
    handle = await open(join(directory, URL_TABLE_FILE), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { problem: 'no snapshot', missing: true };
    return { problem: `cannot read it: ${(error as Error).message}` };
  }
  try {
    return await readOpenFile(handle);
  } catch (error) {
    return { problem: `cannot read it: ${(error as Error).message}` };
  } finally {
    await handle.close();
  }
}

/** Reads the sections straight into the table's own arrays (no second copy of a 100 MB file). */
async function readOpenFile(handle: FileHandle): Promise<{ table: UrlTable } | { problem: string }> {
  const size = (await handle.stat()).size;
  const header = Buffer.alloc(HEADER_BYTES);
  if (size < HEADER_BYTES || (await readFully(handle, header, 0)) || header.toString('latin1', 0, 8) !== MAGIC) return { problem: 'not a URL table snapshot' };
  const count = header.readUInt32LE(8);
  const byteLength = header.readUInt32LE(12);
  const expected = HEADER_BYTES + (count + 1) * 4 + count * 4 + byteLength;
  if (size !== expected) return { problem: `${size} bytes where its header promises ${expected} (truncated?)` };
  // Room for the URLs a session adds before the arrays must grow.
  const room = Math.ceil(count * 1.25) + 16;
  const offsets = new Uint32Array(room + 1);
  const hashes = new Uint32Array(room);
  const bytes = Buffer.allocUnsafeSlow(Math.min(0xffffffff, Math.ceil(byteLength * 1.25) + 1024));
  const sections = [
    new Uint8Array(offsets.buffer, 0, (count + 1) * 4),
    new Uint8Array(hashes.buffer, 0, count * 4),
    bytes.subarray(0, byteLength),
  ];
  let at = HEADER_BYTES;
  let crc = 0;
  for (const section of sections) {
    if (await readFully(handle, section, at)) return { problem: 'shorter than its header promises' };
    crc = crc32(section, crc);
    at += section.byteLength;
  }
  if (crc !== header.readUInt32LE(16)) return { problem: 'checksum mismatch' };
  if (offsets[0] !== 0 || offsets[count] !== byteLength) return { problem: 'offsets do not span the URLs' };
  for (let id = 0; id < count; id++) if (offsets[id + 1] < offsets[id]) return { problem: `offsets decrease at id ${id}` };
  return { table: UrlTable.adopt({ count, offsets, hashes, bytes }) };
}

/** Fills `target` from `position`; true when the file ends first. */
async function readFully(handle: FileHandle, target: Uint8Array, position: number): Promise<boolean> {
  for (let done = 0; done < target.byteLength; ) {
    const { bytesRead } = await handle.read(target, done, target.byteLength - done, position + done);
    if (bytesRead === 0) return true;
    done += bytesRead;
  }
  return false;
}

const temporaryName = (name: string) => name.startsWith(`.${URL_TABLE_FILE}.`) && name.endsWith('.tmp');

/**
 * Removes snapshot files a killed process left half-written (up to 100 MB each at a million URLs).
 * Called at open, when this process holds the data directory's lock: no other writer is running.
 */
export async function removeUnfinishedUrlTableFiles(directory: string): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  await Promise.all(names.filter(temporaryName).map((name) => rm(join(directory, name), { force: true })));
}

/** Writes the snapshot atomically: a reader sees the old file or the whole new one. */
export async function writeUrlTableFile(directory: string, parts: UrlTableParts): Promise<void> {
  const offsets = new Uint8Array(parts.offsets.buffer, parts.offsets.byteOffset, parts.offsets.byteLength);
  const hashes = new Uint8Array(parts.hashes.buffer, parts.hashes.byteOffset, parts.hashes.byteLength);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(parts.count, 8);
  header.writeUInt32LE(parts.bytes.byteLength, 12);
  header.writeUInt32LE(crc32(parts.bytes, crc32(hashes, crc32(offsets))), 16);
  await writeFileAtomic(join(directory, URL_TABLE_FILE), [header, offsets, hashes, parts.bytes]);
}
