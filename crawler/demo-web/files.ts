/**
 * Bytes of the demo web's non-HTML files and legacy-charset pages. Pure and deterministic.
 */
import { seededRandom } from '../../indexer/seeded-random.ts';

/** A PDF-like binary: a real `%PDF-1.4` header and trailer around seeded binary noise. */
export function pdfLikeBytes(seed: number, size = 6_000): Uint8Array {
  const random = seededRandom(seed);
  const head = latin1('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog >>\nendobj\nstream\n');
  const tail = latin1('\nendstream\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
  const bytes = new Uint8Array(size);
  bytes.set(head, 0);
  for (let i = head.length; i < size - tail.length; i++) bytes[i] = Math.floor(random() * 256);
  bytes.set(tail, size - tail.length);
  return bytes;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i++) {
    a = (a + bytes[i]) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function u32(value: number): Uint8Array {
  return new Uint8Array([(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([latin1(type), data]);
  return concat([u32(data.length), typed, u32(crc32(typed))]);
}

/**
 * A valid RGB PNG (a seeded colour gradient). The image data is stored in uncompressed deflate
 * blocks, which every decoder accepts and which needs no compressor here.
 */
export function pngBytes(width: number, height: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const base = [random() * 255, random() * 255, random() * 255];
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) raw[row + 1 + x * 3 + c] = (base[c] + (x + y) * 4 * (c + 1)) & 0xff;
    }
  }
  const blocks: Uint8Array[] = [new Uint8Array([0x78, 0x01])];
  for (let at = 0; at < raw.length; at += 65535) {
    const piece = raw.subarray(at, Math.min(raw.length, at + 65535));
    const last = at + 65535 >= raw.length ? 1 : 0;
    const len = piece.length;
    blocks.push(new Uint8Array([last, len & 0xff, len >>> 8, ~len & 0xff, (~len >>> 8) & 0xff]), piece);
  }
  blocks.push(u32(adler32(raw)));
  const header = concat([u32(width), u32(height), new Uint8Array([8, 2, 0, 0, 0])]);
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', concat(blocks)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

function latin1(text: string): Uint8Array {
  return encodeLegacy(text, 'iso-8859-1');
}

/** Windows-1252 bytes above 0x7f that differ from ISO-8859-1 (the C1 range), by code point. */
const CP1252_EXTRAS = new Map<number, number>([
  [0x20ac, 0x80], [0x201a, 0x82], [0x0192, 0x83], [0x201e, 0x84], [0x2026, 0x85], [0x2020, 0x86], [0x2021, 0x87],
  [0x02c6, 0x88], [0x2030, 0x89], [0x0160, 0x8a], [0x2039, 0x8b], [0x0152, 0x8c], [0x017d, 0x8e], [0x2018, 0x91],
  [0x2019, 0x92], [0x201c, 0x93], [0x201d, 0x94], [0x2022, 0x95], [0x2013, 0x96], [0x2014, 0x97], [0x02dc, 0x98],
  [0x2122, 0x99], [0x0161, 0x9a], [0x203a, 0x9b], [0x0153, 0x9c], [0x017e, 0x9e], [0x0178, 0x9f],
]);

export type LegacyCharset = 'windows-1252' | 'iso-8859-1';

/** Encodes text in a single-byte legacy charset; characters it cannot represent become `?`. */
export function encodeLegacy(text: string, charset: LegacyCharset): Uint8Array {
  const out = new Uint8Array(text.length);
  let n = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0x3f;
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) out[n++] = code;
    else if (charset === 'iso-8859-1' && code < 0xa0) out[n++] = code; // C1 controls map to themselves
    else out[n++] = (charset === 'windows-1252' ? CP1252_EXTRAS.get(code) : undefined) ?? 0x3f;
  }
  return out.subarray(0, n);
}
