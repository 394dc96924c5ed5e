/**
 * Binary form of a segment's postings (`<name>.postings.bin`), so that opening an index maps
 * arrays instead of re-analysing text or parsing lunr JSON:
 *   magic "LSEP" · u32 header length · header JSON · zero padding to 8 bytes · the arrays, each
 *   padded to 8 bytes, in this order:
 *     page ids (i32) · per field: term offsets (i32), documents (i32), frequencies (u16),
 *     position offsets (i32), positions (u16 or u32), lengths (u32) · written words' term offsets
 *     and term numbers (i32) · term dictionary: offsets (i32) and bytes (u8, term-dictionary.ts)
 *     · written words' dictionary: offsets and bytes · document offsets (f64) · each document's
 *     language, as its number in the header's `languages` (u16).
 * The header (`format: 2`) holds only the name, counts and lengths: terms, words and per-document
 * values are arrays, so that opening a segment parses a few hundred bytes of JSON and makes no
 * JS string per term. Files written before format 2 (terms, written words, document offsets and
 * languages in the header JSON, the arrays ending with the written words' term numbers) are
 * read as before and their terms converted to dictionaries at open.
 * Arrays are little-endian (checked on write and read).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { noSurfaceWords, type CompactSegment, type FieldPostings, type SurfaceWords } from './compact-segment.ts';
import { FIELD_NAMES } from './document.ts';
import { IndexCorruptError } from './errors.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import { languageColumn, type LanguageColumn } from './language-column.ts';
import type { PostingsCache } from './postings-cache.ts';
import { PostingsFile } from './paged-postings.ts';
import { TermDictionary } from './term-dictionary.ts';

const MAGIC = 0x5045534c; // "LSEP" little-endian
const FORMAT = 2;
const FIELD_ARRAYS = ['offsets', 'docs', 'tf', 'positionOffsets', 'positions', 'lengths'] as const;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

interface PostingsHeader {
  name: string;
  docCount: number;
  /** Lengths of each field's arrays, in FIELD_ARRAYS order. */
  fields: number[][];
  /** Bytes per position of each field (files written before 32-bit positions: 2). */
  positionBytes?: number[];
  /** 2 from the format with terms as arrays on; absent before. */
  format?: number;
  termCount?: number;
  termBytes?: number;
  surfaceCount?: number;
  surfaceBytes?: number;
  surfaceTermCount?: number;
  /** The languages documents are numbered by (format 2). */
  languages?: string[];
  /** Before format 2: the terms, document offsets, languages and written words. */
  terms?: string[];
  docOffsets?: number[];
  /** Each document's language (files written before languages: all English). */
  docLangs?: string[];
  /** Written words whose terms differ (files written before them: none; prefixes then match terms only). */
  surfaces?: string[];
}

type FieldArray = FieldPostings[(typeof FIELD_ARRAYS)[number]];
type SectionArray = FieldArray | Uint8Array | Float64Array;
type SectionType<T extends SectionArray> = { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

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
  const shape = { ...segment, fields: segment.fields.map((field) => ({ lengths: FIELD_ARRAYS.map((key) => field[key].length), positionBytes: field.positions.BYTES_PER_ELEMENT })) };
  const arrays: ArrayBufferView[] = [segment.docIds, ...segment.fields.flatMap((field) => FIELD_ARRAYS.map((key) => field[key]))];
  return [postingsFileHead(shape), ...arrays.flatMap(paddedBytes), ...postingsFileTail(shape, docOffsets)];
}

/** A segment as its postings file's header describes it: each field's arrays by their lengths (FIELD_ARRAYS order). */
export interface PostingsShape {
  name: string;
  terms: TermDictionary;
  docIds: Int32Array;
  docLangs: LanguageColumn;
  surfaces: SurfaceWords;
  fields: Array<{ lengths: number[]; positionBytes: number }>;
}

/**
 * The file's first part: the magic, the header and its padding. The page ids and the fields'
 * arrays follow, each padded to 8 bytes (a merge writes them as it goes), then the parts of
 * {@link postingsFileTail}.
 */
export function postingsFileHead(shape: PostingsShape): Uint8Array {
  if (!LITTLE_ENDIAN) throw new IndexCorruptError('postings files are little-endian; this machine is not');
  const header: PostingsHeader = {
    name: shape.name,
    format: FORMAT,
    docCount: shape.docIds.length,
    fields: shape.fields.map((field) => field.lengths),
    positionBytes: shape.fields.map((field) => field.positionBytes),
    termCount: shape.terms.length,
    termBytes: shape.terms.bytes.length,
    surfaceCount: shape.surfaces.words.length,
    surfaceBytes: shape.surfaces.words.bytes.length,
    surfaceTermCount: shape.surfaces.termIds.length,
    languages: [...shape.docLangs.languages],
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const start = new Uint8Array(pad8(8 + headerBytes.length));
  const view = new DataView(start.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, headerBytes.length, true);
  start.set(headerBytes, 8);
  return start;
}

/** The arrays after the fields': written words, the two dictionaries, document offsets and languages. */
export function postingsFileTail(shape: PostingsShape, docOffsets: readonly number[]): Uint8Array[] {
  const arrays: ArrayBufferView[] = [
    shape.surfaces.offsets,
    shape.surfaces.termIds,
    shape.terms.offsets,
    shape.terms.bytes,
    shape.surfaces.words.offsets,
    shape.surfaces.words.bytes,
    Float64Array.from(docOffsets),
    shape.docLangs.codes,
  ];
  return arrays.flatMap(paddedBytes);
}

function paddedBytes(array: ArrayBufferView): Uint8Array[] {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const padding = pad8(array.byteLength) - array.byteLength;
  return padding > 0 ? [bytes, new Uint8Array(padding)] : [bytes];
}

/** Reads the next array of a file (the arrays in their order); throws IndexCorruptError past its end. */
type NextArray = <T extends SectionArray>(Type: SectionType<T>, length: number) => T;

export function decodePostings(bytes: Uint8Array, source: string): { postings: CompactSegment; docOffsets: Float64Array } {
  if (!LITTLE_ENDIAN) throw new IndexCorruptError('postings files are little-endian; this machine is not');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8 || view.getUint32(0, true) !== MAGIC) throw new IndexCorruptError(`${source} is not a postings file`);
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > bytes.byteLength) throw new IndexCorruptError(`${source} is truncated`);
  const header = parseHeader(bytes.subarray(8, 8 + headerLength), source);
  // Views need the arrays aligned: a Buffer may be a view into a larger, pooled one, and is then
  // copied into an aligned buffer of our own (readSegment reads into one, and is not).
  const bodyStart = pad8(8 + headerLength);
  const body = (bytes.byteOffset + bodyStart) % 8 === 0 ? bytes.subarray(bodyStart) : new Uint8Array(bytes.subarray(bodyStart));
  let at = 0;
  const take: NextArray = (Type, length) => {
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
  return segmentOf(header, docIds, fields, take, source);
}

/** The segment of a header, its page ids and fields; the arrays after the fields' are read with `next`. */
function segmentOf(header: PostingsHeader, docIds: Int32Array, fields: FieldPostings[], next: NextArray, source: string): { postings: CompactSegment; docOffsets: Float64Array } {
  // Files written before a field existed (`definitions`): that field is empty.
  while (fields.length < FIELD_NAMES.length) fields.push(emptyField(termCountOf(header), header.docCount));
  if (header.format === FORMAT) return formatTwoSegment(header, docIds, fields, next, source);
  const terms = header.terms!;
  let surfaces = noSurfaceWords();
  if (Array.isArray(header.surfaces) && typeof header.surfaceTermCount === 'number') {
    const offsets = next(Int32Array, header.surfaces.length + 1);
    const termIds = next(Int32Array, header.surfaceTermCount);
    surfaces = { words: TermDictionary.fromSorted(header.surfaces.map(String)), offsets, termIds };
  }
  const docLangs = languageColumn(Array.isArray(header.docLangs) && header.docLangs.length === header.docCount ? header.docLangs.map(String) : new Array<string>(header.docCount).fill(DEFAULT_LANGUAGE));
  const postings = { name: header.name, docIds, terms: TermDictionary.fromSorted(terms.map(String)), fields, docLangs, surfaces };
  return { postings, docOffsets: Float64Array.from(header.docOffsets!) };
}

function formatTwoSegment(header: PostingsHeader, docIds: Int32Array, fields: FieldPostings[], next: NextArray, source: string): { postings: CompactSegment; docOffsets: Float64Array } {
  const termCount = header.termCount!;
  const surfaceOffsets = next(Int32Array, header.surfaceCount! + 1);
  const termIds = next(Int32Array, header.surfaceTermCount!);
  const terms = dictionaryOf(next(Int32Array, termCount + 1), next(Uint8Array, header.termBytes!), `${source} has a term list with`);
  const words = dictionaryOf(next(Int32Array, header.surfaceCount! + 1), next(Uint8Array, header.surfaceBytes!), `${source} has a written-word list with`);
  const docOffsets = next(Float64Array, header.docCount + 1);
  const langNumbers = next(Uint16Array, header.docCount);
  if (!offsetsFit(surfaceOffsets, words.length, termIds.length) || termIds.some((t) => t < 0 || t >= termCount)) {
    throw new IndexCorruptError(`${source} has written words that do not fit its terms`);
  }
  const languages = header.languages!.map(String);
  for (const n of langNumbers) if (n >= languages.length) throw new IndexCorruptError(`${source} has a document language it does not list`);
  const docLangs: LanguageColumn = { languages, codes: langNumbers };
  return { postings: { name: header.name, docIds, terms, fields, docLangs, surfaces: { words, offsets: surfaceOffsets, termIds } }, docOffsets };
}

/** A dictionary of a file's arrays, checked (IndexCorruptError with `what` and the problem otherwise). */
function dictionaryOf(offsets: Int32Array, bytes: Uint8Array, what: string): TermDictionary {
  const problem = TermDictionary.problemWith(bytes, offsets);
  if (problem !== null) throw new IndexCorruptError(`${what} ${problem}`);
  return new TermDictionary(bytes, offsets);
}

const termCountOf = (header: PostingsHeader): number => (header.format === FORMAT ? header.termCount! : header.terms!.length);

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
    const read: NextArray = (Type, length) => file!.read(Type, place(Type.BYTES_PER_ELEMENT, length), length);
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
      if (!offsetsFit(field.offsets, termCountOf(header), docs) || tf !== docs || positionOffsets !== docs + 1 || lengths !== header.docCount) {
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
    return segmentOf(header, docIds, fields, read, path);
  } catch (error) {
    // Once a PostingsFile holds it, the descriptor is closed when that is collected.
    if (file === undefined) closeSync(fd);
    throw error;
  }
}

/** Offsets of `count` entries start at 0, never decrease, and end at `total` (a field's postings, written words' terms). */
function offsetsFit(offsets: Int32Array, count: number, total: number): boolean {
  if (offsets.length !== count + 1 || offsets[0] !== 0 || offsets[count] !== total) return false;
  for (let t = 0; t < count; t++) if (offsets[t + 1] < offsets[t]) return false;
  return true;
}

function parseHeader(bytes: Uint8Array, source: string): PostingsHeader {
  let header: PostingsHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes)) as PostingsHeader;
  } catch (error) {
    throw new IndexCorruptError(`${source} has an unreadable header`, { cause: error });
  }
  if (!headerFits(header)) throw new IndexCorruptError(`${source} has a header without its counts`);
  return header;
}

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** Whether a parsed header has what its format needs, with counts that are counts. */
function headerFits(header: PostingsHeader): boolean {
  if (header === null || typeof header !== 'object' || typeof header.name !== 'string' || !isCount(header.docCount) || !Array.isArray(header.fields)) return false;
  if (!header.fields.every((lengths) => Array.isArray(lengths) && lengths.length === FIELD_ARRAYS.length && lengths.every(isCount))) return false;
  if (header.format === FORMAT) {
    const counts = [header.termCount, header.termBytes, header.surfaceCount, header.surfaceBytes, header.surfaceTermCount];
    return counts.every(isCount) && Array.isArray(header.languages) && header.languages.every((lang) => typeof lang === 'string');
  }
  return header.format === undefined && Array.isArray(header.terms) && Array.isArray(header.docOffsets);
}

function emptyField(termCount: number, docCount: number): FieldPostings {
  return { offsets: new Int32Array(termCount + 1), docs: new Int32Array(0), tf: new Uint16Array(0), positionOffsets: new Int32Array(1), positions: new Uint16Array(0), lengths: new Uint32Array(docCount) };
}
