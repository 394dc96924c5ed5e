/**
 * Decompression bombs, generated in a few MB of memory: deflate streams of zeros that inflate to
 * gigabytes, as a PDF content stream and as zip entries whose headers understate their size.
 * The stream is one compressed MiB of zeros repeated: each copy is a self-contained run of
 * non-final deflate blocks ending byte-aligned (a sync flush), so copies simply concatenate.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

const MIB = 1024 * 1024;
const ZEROS = Buffer.alloc(MIB);
const ZERO_MIB = deflateRawSync(ZEROS, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
/** An empty final block (fixed Huffman: BFINAL=1, BTYPE=01, end-of-block). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** A raw deflate stream that inflates to `mib` MiB of zero bytes. */
export function zeroDeflateRaw(mib: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < mib; i++) parts.push(ZERO_MIB);
  parts.push(FINAL_BLOCK);
  return Buffer.concat(parts);
}

/** The CRC-32 of `mib` MiB of zeros, computed a MiB at a time. */
function zeroCrc(mib: number): number {
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(ZEROS, crc);
  return crc;
}

/** A one-page PDF whose content stream (FlateDecode) inflates to `mib` MiB of zeros. */
export function pdfBomb(mib: number): Buffer {
  const total = mib * MIB;
  // zlib wrapper: header, raw deflate, Adler-32 (of zeros: a = 1, b = n mod 65521).
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0);
  const stream = Buffer.concat([Buffer.from([0x78, 0xda]), zeroDeflateRaw(mib), adler]);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0].length;
  const push = (buffer: Buffer) => {
    parts.push(buffer);
    length += buffer.length;
  };
  objects.forEach((body, index) => {
    offsets.push(length);
    push(Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(length);
  push(Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`));
  push(stream);
  push(Buffer.from('\nendstream\nendobj\n'));
  const xref = length;
  const rows = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  push(Buffer.from(`xref\n0 5\n0000000000 65535 f \n${rows}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return Buffer.concat(parts);
}

export interface ZipBombEntry {
  name: string;
  /** Small entries, stored as they are. */
  data?: Uint8Array;
  /** A deflated entry of this many MiB of zeros... */
  zeroMib?: number;
  /** ...whose headers claim this uncompressed size. */
  claimedSize?: number;
}

/** A zip (DOCX, ODT) with the given entries; bomb entries understate their size in both headers. */
export function zipBomb(entries: readonly ZipBombEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const bomb = entry.zeroMib !== undefined;
    const data = bomb ? zeroDeflateRaw(entry.zeroMib!) : Buffer.from(entry.data ?? new Uint8Array());
    const crc = bomb ? zeroCrc(entry.zeroMib!) : crc32(data);
    const size = bomb ? (entry.claimedSize ?? 4096) : data.length;
    const method = bomb ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
