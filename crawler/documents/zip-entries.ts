/**
 * Reading the entries of an office file's zip under a byte budget. The central directory says
 * where each entry is; an entry is inflated with its declared size as the ceiling, so a header
 * that understates what its data inflates to is caught after at most a chunk past the declared
 * size, never after gigabytes (a zip reader that trusts the header inflates all of it first).
 */
import { inflateRawSync } from 'node:zlib';
import { DocumentError } from './types.ts';

export interface ZipBudget {
  /** Largest uncompressed size an entry may have (declared or actual). */
  maxEntryBytes: number;
  /** Largest uncompressed size of all the entries read. */
  maxTotalBytes: number;
}

interface CentralEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const MAX_32 = 0xffffffff;

const formatError = (message: string) => new DocumentError('ELSE_DOCUMENT_FORMAT', `not a readable zip: ${message}`);

/** The entries of the central directory. */
function centralDirectory(zip: Buffer): CentralEntry[] {
  // The end record is in the last 64 KiB + 22 bytes (its comment is at most 65,535 bytes).
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw formatError('no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: CentralEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_HEADER) throw formatError('broken central directory');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const entry: CentralEntry = {
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
    };
    readZip64(zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Sizes and offset too large for 32 bits are in the zip64 extra field, in this order. */
function readZip64(extra: Buffer, entry: CentralEntry): void {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA) {
      let field = at + 4;
      const next = () => {
        const value = field + 8 <= at + 4 + length ? Number(extra.readBigUInt64LE(field)) : MAX_32;
        field += 8;
        return value;
      };
      if (entry.size === MAX_32) entry.size = next();
      if (entry.compressedSize === MAX_32) entry.compressedSize = next();
      if (entry.localOffset === MAX_32) entry.localOffset = next();
      return;
    }
    at += 4 + length;
  }
}

/** The compressed bytes of an entry (after its local header). */
function dataOf(zip: Buffer, entry: CentralEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_HEADER) throw formatError(`no local header for ${entry.name}`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.length) throw formatError(`${entry.name} runs past the end of the file`);
  return zip.subarray(start, start + entry.compressedSize);
}

const bomb = (name: string, message: string) => new DocumentError('ELSE_DOCUMENT_TOO_LARGE', `zip entry ${name} ${message}: refused as a zip bomb`);

/**
 * The wanted entries, inflated. Every entry's declared size is checked first (an honest bomb is
 * refused by its header); then each wanted entry is inflated with no more output allowed than it
 * declared, so one that lies is refused as soon as it inflates past its claim.
 */
export function readZipEntries(bytes: Uint8Array, wanted: (name: string) => boolean, budget: ZipBudget): Map<string, Uint8Array> {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = centralDirectory(zip);
  let declared = 0;
  for (const entry of entries) {
    declared += entry.size;
    if (entry.size > budget.maxEntryBytes || declared > budget.maxTotalBytes) {
      throw bomb(entry.name, `inflates to ${entry.size} bytes (limit ${budget.maxEntryBytes})`);
    }
  }
  const out = new Map<string, Uint8Array>();
  for (const entry of entries) {
    if (!wanted(entry.name) || entry.name.endsWith('/')) continue;
    const data = dataOf(zip, entry);
    if (entry.method === 0) {
      if (data.length !== entry.size) throw bomb(entry.name, `stores ${data.length} bytes but declares ${entry.size}`);
      out.set(entry.name, data);
      continue;
    }
    if (entry.method !== 8) throw formatError(`${entry.name} uses compression method ${entry.method}`);
    let inflated: Buffer;
    try {
      inflated = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw bomb(entry.name, `inflates past the ${entry.size} bytes its header declares`);
      throw formatError(`${entry.name}: ${(error as Error).message}`);
    }
    if (inflated.length !== entry.size) throw formatError(`${entry.name} inflates to ${inflated.length} bytes, not the ${entry.size} declared`);
    out.set(entry.name, inflated);
  }
  return out;
}
