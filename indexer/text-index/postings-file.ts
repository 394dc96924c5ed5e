/**
 * Binary form of a segment's postings (`<name>.postings.bin`), so that opening an index maps
 * arrays instead of re-analysing text or parsing lunr JSON:
 *   magic "LSEP" · u32 header length · header JSON (name, terms, array lengths, document offsets)
 *   · zero padding to 8 bytes · the typed arrays, each padded to 8 bytes.
 * Arrays are little-endian (checked on write and read).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { noSurfaceWords, type CompactSegment, type FieldPostings, type SurfaceWords } from './compact-segment.ts';
import { FIELD_NAMES } from './document.ts';
import { IndexCorruptError } from './errors.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import type { PostingsCache } from './postings-cache.ts';
import { PostingsFile } from './paged-postings.ts';

const MAGIC = 0x5045534c; // "LSEP" little-endian
const FIELD_ARRAYS = ['offsets', 'docs', 'tf', 'positionOffsets', 'positions', 'lengths'] as const;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

interface PostingsHeader {
  name: string;
  terms: string[];
  docCount: number;
  docOffsets: number[];
  /** Lengths of each field's arrays, in FIELD_ARRAYS order. */
  fields: number[][];
  /** Each document's language (files written before languages: all English). */
  docLangs?: string[];
  /** Written words whose terms differ (files written before them: none; prefixes then match terms only). */
  surfaces?: string[];
  surfaceTermCount?: number;
  /** Bytes per position of each field (files written before 32-bit positions: 2). */
  positionBytes?: number[];
}

type FieldArray = FieldPostings[(typeof FIELD_ARRAYS)[number]];

export const pad8 = (n: number) => (n + 7) & ~7;

export function encodePostings(segment: CompactSegment, docOffsets: readonly number[]): Uint8Array {
  const parts = postingsFileParts(segment, docOffsets);
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/**
 * The file's bytes in parts, in order: the magic and header, then each array as a view of its
 * own memory (no copy: a merge writes a segment of 100k pages without a second copy of it) and
 * its padding.
 */
export function postingsFileParts(segment: CompactSegment, docOffsets: readonly number[]): Uint8Array[] {
  const start = postingsFileHead(
    { ...segment, fields: segment.fields.map((field) => ({ lengths: FIELD_ARRAYS.map((key) => field[key].length), positionBytes: field.positions.BYTES_PER_ELEMENT })) },
    docOffsets,
  );
  const arrays: ArrayBufferView[] = [
    segment.docIds,
    ...segment.fields.flatMap((field) => FIELD_ARRAYS.map((key) => field[key])),
    segment.surfaces.offsets,
    segment.surfaces.termIds,
  ];
  const parts: Uint8Array[] = [start];
  for (const array of arrays) {
    parts.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    const padding = pad8(array.byteLength) - array.byteLength;
    if (padding > 0) parts.push(new Uint8Array(padding));
  }
  return parts;
}

/** A segment as its postings file's header describes it: each field's arrays by their lengths (FIELD_ARRAYS order). */
export interface PostingsShape {
  name: string;
  terms: string[];
  docIds: Int32Array;
  docLangs: string[];
  surfaces: SurfaceWords;
  fields: Array<{ lengths: number[]; positionBytes: number }>;
}

/**
 * The file's first part: the magic, the header and its padding. The arrays follow in the order
 * {@link postingsFileParts} lists them, each padded to 8 bytes (a merge writes them as it goes).
 */
export function postingsFileHead(shape: PostingsShape, docOffsets: readonly number[]): Uint8Array {
  if (!LITTLE_ENDIAN) throw new IndexCorruptError('postings files are little-endian; this machine is not');
  const header: PostingsHeader = {
    name: shape.name,
    terms: shape.terms,
    docCount: shape.docIds.length,
    docOffsets: [...docOffsets],
    fields: shape.fields.map((field) => field.lengths),
    docLangs: shape.docLangs,
    surfaces: shape.surfaces.words,
    surfaceTermCount: shape.surfaces.termIds.length,
    positionBytes: shape.fields.map((field) => field.positionBytes),
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const start = new Uint8Array(pad8(8 + headerBytes.length));
  const view = new DataView(start.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, headerBytes.length, true);
  start.set(headerBytes, 8);
  return start;
}

export function decodePostings(bytes: Uint8Array, source: string): { postings: CompactSegment; docOffsets: Float64Array } {
  if (!LITTLE_ENDIAN) throw new IndexCorruptError('postings files are little-endian; this machine is not');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8 || view.getUint32(0, true) !== MAGIC) throw new IndexCorruptError(`${source} is not a postings file`);
  const headerLength = view.getUint32(4, true);
  const header = parseHeader(bytes.subarray(8, 8 + headerLength), source);
  // Views need the arrays aligned: a Buffer may be a view into a larger, pooled one, and is then
  // copied into an aligned buffer of our own (readSegment reads into one, and is not).
  const bodyStart = pad8(8 + headerLength);
  const body = (bytes.byteOffset + bodyStart) % 8 === 0 ? bytes.subarray(bodyStart) : new Uint8Array(bytes.subarray(bodyStart));
  let at = 0;
  const take = <T extends FieldArray | Int32Array>(Type: { new (buffer: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number }, length: number): T => {
    const byteLength = length * Type.BYTES_PER_ELEMENT;
    if (at + byteLength > body.byteLength) throw new IndexCorruptError(`${source} is truncated`);
    const array = new Type(body.buffer as ArrayBuffer, body.byteOffset + at, length);
    at += pad8(byteLength);
    return array;
  };
  const docIds = take(Int32Array, header.docCount);
  const fields: FieldPostings[] = header.fields.map(([offsets, docs, tf, positionOffsets, positions, lengths], f) => ({
    offsets: take(Int32Array, offsets),
    docs: take(Int32Array, docs),
    tf: take(Uint16Array, tf),
    positionOffsets: take(Int32Array, positionOffsets),
    positions: header.positionBytes?.[f] === 4 ? take(Uint32Array, positions) : take(Uint16Array, positions),
    lengths: take(Uint32Array, lengths),
  }));
  return segmentOf(header, docIds, fields, (length) => take(Int32Array, length));
}

/** The segment of a header, its page ids and fields; the written words' arrays come last in the file. */
function segmentOf(header: PostingsHeader, docIds: Int32Array, fields: FieldPostings[], nextInt32s: (length: number) => Int32Array): { postings: CompactSegment; docOffsets: Float64Array } {
  // Files written before a field existed (`definitions`): that field is empty.
  while (fields.length < FIELD_NAMES.length) fields.push(emptyField(header.terms.length, header.docCount));
  let surfaces = noSurfaceWords();
  if (Array.isArray(header.surfaces) && typeof header.surfaceTermCount === 'number') {
    const offsets = nextInt32s(header.surfaces.length + 1);
    const termIds = nextInt32s(header.surfaceTermCount);
    surfaces = { words: header.surfaces.map(String), offsets, termIds };
  }
  const docLangs = Array.isArray(header.docLangs) && header.docLangs.length === header.docCount ? header.docLangs.map(String) : new Array<string>(header.docCount).fill(DEFAULT_LANGUAGE);
  return { postings: { name: header.name, docIds, terms: header.terms, fields, docLangs, surfaces }, docOffsets: Float64Array.from(header.docOffsets) };
}

/**
 * Opens a postings file with its postings left on disk (paged-postings.ts): reads the header, the
 * page ids, each field's term offsets and lengths and the written words, and notes where each
 * field's documents, frequencies and positions lie. The file stays open for the segment's reads.
 */
export function openPostings(path: string, cache: PostingsCache): { postings: CompactSegment; docOffsets: Float64Array } {
  if (!LITTLE_ENDIAN) throw new IndexCorruptError('postings files are little-endian; this machine is not');
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new IndexCorruptError(`cannot read segment ${path}: ${(error as Error).message}`, { cause: error });
  }
  let file: PostingsFile | undefined;
  try {
    const size = fstatSync(fd).size;
    const start = new Uint8Array(8);
    if (size < 8 || readSync(fd, start, 0, 8, 0) !== 8) throw new IndexCorruptError(`${path} is not a postings file`);
    const view = new DataView(start.buffer);
    if (view.getUint32(0, true) !== MAGIC) throw new IndexCorruptError(`${path} is not a postings file`);
    const headerLength = view.getUint32(4, true);
    if (8 + headerLength > size) throw new IndexCorruptError(`${path} is truncated`);
    const headerBytes = new Uint8Array(headerLength);
    readSync(fd, headerBytes, 0, headerLength, 8);
    const header = parseHeader(headerBytes, path);
    file = new PostingsFile(fd, path, cache);
    let at = pad8(8 + headerLength);
    // Each array's place in the file, in the order encodePostings writes them.
    const place = (bytesPerElement: number, length: number) => {
      const position = at;
      at += pad8(length * bytesPerElement);
      if (at > size) throw new IndexCorruptError(`${path} is truncated`);
      return position;
    };
    const read = <T extends Int32Array | Uint16Array | Uint32Array>(Type: { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number }, length: number) => file!.read(Type, place(Type.BYTES_PER_ELEMENT, length), length);
    const docIds = read(Int32Array, header.docCount);
    const fields: FieldPostings[] = header.fields.map(([offsets, docs, tf, positionOffsets, positions, lengths], f) => {
      const positionBytes = header.positionBytes?.[f] === 4 ? 4 : 2;
      const field = {
        offsets: read(Int32Array, offsets),
        docsAt: place(4, docs),
        tfAt: place(2, tf),
        positionOffsetsAt: place(4, positionOffsets),
        positionsAt: place(positionBytes, positions),
        lengths: read(Uint32Array, lengths),
      };
      // Reads go where these offsets say: checked once here, so a damaged file is refused at open
      // rather than answering from the wrong bytes.
      if (!termOffsetsFit(field.offsets, header.terms.length, docs) || tf !== docs || positionOffsets !== docs + 1 || lengths !== header.docCount) {
        throw new IndexCorruptError(`${path} has postings that do not fit its header`);
      }
      return {
        offsets: field.offsets,
        docs: new Int32Array(0),
        tf: new Uint16Array(0),
        positionOffsets: new Int32Array(0),
        positions: positionBytes === 4 ? new Uint32Array(0) : new Uint16Array(0),
        lengths: field.lengths,
        paged: { file: file!, field: f, docsAt: field.docsAt, tfAt: field.tfAt, positionOffsetsAt: field.positionOffsetsAt, positionsAt: field.positionsAt, positionBytes },
      };
    });
    return segmentOf(header, docIds, fields, (length) => read(Int32Array, length));
  } catch (error) {
    // Once a PostingsFile holds it, the descriptor is closed when that is collected.
    if (file === undefined) closeSync(fd);
    throw error;
  }
}

/** Term offsets start at 0, never decrease, and end at the field's postings count. */
function termOffsetsFit(offsets: Int32Array, terms: number, postings: number): boolean {
  if (offsets.length !== terms + 1 || offsets[0] !== 0 || offsets[terms] !== postings) return false;
  for (let t = 0; t < terms; t++) if (offsets[t + 1] < offsets[t]) return false;
  return true;
}

function parseHeader(bytes: Uint8Array, source: string): PostingsHeader {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as PostingsHeader;
  } catch (error) {
    throw new IndexCorruptError(`${source} has an unreadable header`, { cause: error });
  }
}

function emptyField(termCount: number, docCount: number): FieldPostings {
  return { offsets: new Int32Array(termCount + 1), docs: new Int32Array(0), tf: new Uint16Array(0), positionOffsets: new Int32Array(1), positions: new Uint16Array(0), lengths: new Uint32Array(docCount) };
}
