/**
 * A file of named columns — string arrays and typed arrays — with a JSON header, for data the
 * server loads at start instead of computing it from every page (the page facts). Layout: a 4-byte
 * little-endian header length, the header (format, key, each section's name, kind and byte
 * length), then the sections: strings as a UTF-8 JSON array, numbers as raw little-endian arrays.
 */
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../text-index/atomic-file.ts';

export type NumberColumn = Float64Array | Int32Array | Uint16Array | Uint8Array;
export type Column = string[] | NumberColumn;

const KINDS = { f64: Float64Array, i32: Int32Array, u16: Uint16Array, u8: Uint8Array } as const;
type Kind = keyof typeof KINDS | 'strings';

interface Header {
  format: string;
  key: unknown;
  sections: Array<[string, Kind, number]>;
}

function kindOf(column: Column): Kind {
  if (Array.isArray(column)) return 'strings';
  if (column instanceof Float64Array) return 'f64';
  if (column instanceof Int32Array) return 'i32';
  if (column instanceof Uint16Array) return 'u16';
  return 'u8';
}

export async function writeColumnFile(path: string, format: string, key: unknown, columns: Record<string, Column>): Promise<void> {
  const sections = Object.entries(columns).map(([name, column]): [string, Kind, Uint8Array] => {
    const kind = kindOf(column);
    const bytes = Array.isArray(column) ? Buffer.from(JSON.stringify(column), 'utf8') : new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
    return [name, kind, bytes];
  });
  const header: Header = { format, key, sections: sections.map(([name, kind, bytes]) => [name, kind, bytes.byteLength]) };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.byteLength);
  await mkdir(dirname(path), { recursive: true });
  // Written part by part: one concatenated copy of a million pages' columns held the event loop 110 ms.
  await writeFileAtomic(path, [length, headerBytes, ...sections.map(([, , bytes]) => bytes)]);
}

/**
 * The columns of a file written with `format` whatever its key, and that key; otherwise why not.
 * Each section is read straight into its own array: reading the whole file and copying the
 * sections out (the file's bytes are not aligned for typed arrays) held the event loop 79 ms for
 * a 53 MB file.
 */
export async function readColumnFileAnyKey(path: string, format: string): Promise<{ columns?: Map<string, Column>; key?: unknown; reason: string }> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    return { reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none saved' : `cannot read it: ${(error as Error).message}` };
  }
  try {
    const size = (await file.stat()).size;
    const headerLength = (await readBytes(file, new Uint8Array(4), 0, size)).readUInt32LE(0);
    checkWithin(4, headerLength, size);
    const header = JSON.parse((await readBytes(file, new Uint8Array(headerLength), 4, size)).toString('utf8')) as Header;
    if (header.format !== format) return { reason: `format ${String(header.format)}` };
    const columns = new Map<string, Column>();
    let offset = 4 + headerLength;
    for (const [name, kind, length] of header.sections) {
      checkWithin(offset, length, size);
      if (kind === 'strings') {
        columns.set(name, JSON.parse((await readBytes(file, new Uint8Array(length), offset, size)).toString('utf8')) as string[]);
      } else {
        const ArrayType = KINDS[kind];
        if (!ArrayType || length % ArrayType.BYTES_PER_ELEMENT !== 0) throw new Error(`${name}: ${length} bytes of ${kind}`);
        const column = new ArrayType(length / ArrayType.BYTES_PER_ELEMENT);
        await readBytes(file, new Uint8Array(column.buffer), offset, size);
        columns.set(name, column);
      }
      offset += length;
    }
    return { columns, key: header.key, reason: 'saved' };
  } catch (error) {
    return { reason: `cannot read it: ${(error as Error).message}` };
  } finally {
    await file.close();
  }
}

/** Checked before an array is made for them: a damaged length must not allocate gigabytes. */
function checkWithin(position: number, length: number, size: number): void {
  if (!(Number.isInteger(length) && length >= 0 && position + length <= size)) throw new Error('truncated');
}

/** Fills `into` with the file's bytes from `position`: an error when the file ends first. */
async function readBytes(file: FileHandle, into: Uint8Array, position: number, size: number): Promise<Buffer> {
  checkWithin(position, into.byteLength, size);
  for (let done = 0; done < into.byteLength; ) {
    const { bytesRead } = await file.read(into, done, into.byteLength - done, position + done);
    if (bytesRead === 0) throw new Error('truncated');
    done += bytesRead;
  }
  return Buffer.from(into.buffer, into.byteOffset, into.byteLength);
}
