/**
 * The page contributions to the suggestions (suggest-contributions.ts) saved in a data directory
 * (DIR/suggest/contributions.bin), valid for the store's pages as of one page-write sequence: the
 * pages written since (the store's page journal) are all a refresh reads again.
 *
 * Layout: a 4-byte little-endian length, a JSON header (format, sequence, sections' byte lengths),
 * then the sections, each padded to 8 bytes so that number columns are read in place: number
 * columns as raw little-endian arrays, the vocabulary as its words' UTF-8 byte lengths (Uint32)
 * and the bytes, titles and URLs as string columns (string-column.ts: offsets and bytes, read in
 * place and checked; format 1 held them as the vocabulary, and is still read). A SHA-1 of the sections refuses a damaged file. Strings are decoded in steps: a file of a million pages never holds the event loop
 * for one long parse.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../text-index/atomic-file.ts';
import { StringColumn } from '../text-index/string-column.ts';
import type { SuggestContributions } from './suggest-contributions.ts';

const FORMAT = 'lse-suggest-contributions/2';
/** Titles and URLs as lengths and UTF-8 bytes, as the vocabulary. */
const FORMAT_UTF8 = 'lse-suggest-contributions/1';
const FILE = join('suggest', 'contributions.bin');
/** Strings encoded or decoded between yields. */
const STRINGS_PER_STEP = 8192;
/** Bytes hashed, or checked as text, between yields. */
const DIGEST_STEP = 1 << 20;

const LONE_SURROGATE = /\p{Cs}/u;
/** A header names a dozen sections: anything much larger is not one. */
const MAX_HEADER_BYTES = 1 << 16;

type ColumnName = 'titles' | 'urls';
type NumberColumn = Exclude<keyof SuggestContributions, 'vocabulary' | ColumnName>;
type NumberArray = Int32Array | Uint8Array | Float64Array;
const COLUMNS: readonly ColumnName[] = ['titles', 'urls'];
const NUMBER_COLUMNS: Readonly<Record<NumberColumn, typeof Int32Array | typeof Uint8Array | typeof Float64Array>> = {
  sortedWords: Int32Array,
  stopWords: Uint8Array,
  pageIds: Int32Array,
  wordStarts: Float64Array,
  wordBytes: Uint8Array,
  titleWordStarts: Int32Array,
  titleWordIds: Int32Array,
};

interface Header {
  format: string;
  pageSequence: number;
  /** SHA-1 of the sections (padding included): a changed byte anywhere refuses the file. */
  digest: string;
  sections: Array<[string, number]>;
}

const padding = (length: number) => (8 - (length % 8)) % 8;

/** Encodes, then saves the contributions as of `pageSequence` (served between steps). */
export function* encodeContributionsSteps(c: SuggestContributions, pageSequence: number): Generator<void, Uint8Array[]> {
  const [lengths, bytes] = yield* encodeStrings(c.vocabulary, 'vocabulary');
  const sections: Array<[string, Uint8Array]> = [
    ['vocabulary.lengths', lengths],
    ['vocabulary', bytes],
  ];
  for (const name of COLUMNS) {
    const { offsets, bytes } = c[name];
    sections.push([`${name}.offsets`, new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength)], [`${name}.bytes`, bytes]);
  }
  for (const name of Object.keys(NUMBER_COLUMNS) as NumberColumn[]) {
    const array = c[name];
    sections.push([name, new Uint8Array(array.buffer, array.byteOffset, array.byteLength)]);
  }
  const body: Uint8Array[] = [];
  for (const [, bytes] of sections) body.push(bytes, new Uint8Array(padding(bytes.byteLength)));
  const header: Header = { format: FORMAT, pageSequence, digest: yield* digestSteps(body), sections: sections.map(([name, bytes]) => [name, bytes.byteLength]) };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.byteLength);
  return [length, headerBytes, new Uint8Array(padding(4 + headerBytes.byteLength)), ...body];
}

export async function saveContributions(dataDir: string, parts: readonly Uint8Array[]): Promise<void> {
  await mkdir(join(dataDir, 'suggest'), { recursive: true });
  await writeFileAtomic(join(dataDir, FILE), parts);
}

/** SHA-1 of the parts, hashed 1 MB at a time between yields. */
function* digestSteps(parts: readonly Uint8Array[]): Generator<void, string> {
  const hash = createHash('sha1');
  for (const part of parts) {
    for (let at = 0; at < part.byteLength; at += DIGEST_STEP) {
      hash.update(part.subarray(at, at + DIGEST_STEP));
      yield;
    }
  }
  return hash.digest('hex');
}

function* encodeStrings(list: readonly string[], name: string): Generator<void, [Uint8Array, Uint8Array]> {
  const lengths = new Uint32Array(list.length);
  let total = 0;
  for (let i = 0; i < list.length; i++) {
    // A lone surrogate would come back as U+FFFD: a different string, a different index.
    if (LONE_SURROGATE.test(list[i])) throw new Error(`${name}: a string that is not well-formed UTF-16`);
    total += lengths[i] = Buffer.byteLength(list[i], 'utf8');
    if (i % STRINGS_PER_STEP === STRINGS_PER_STEP - 1) yield;
  }
  const bytes = Buffer.allocUnsafe(total);
  for (let i = 0, at = 0; i < list.length; i++) {
    at += bytes.write(list[i], at, 'utf8');
    if (i % STRINGS_PER_STEP === STRINGS_PER_STEP - 1) yield;
  }
  return [new Uint8Array(lengths.buffer), bytes];
}

/** The saved bytes, or why there are none to use. */
export async function readContributionsFile(dataDir: string): Promise<{ bytes?: Buffer; reason: string }> {
  try {
    return { bytes: await readFile(join(dataDir, FILE)), reason: 'saved' };
  } catch (error) {
    return { reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none saved' : `cannot read it: ${(error as Error).message}` };
  }
}

/**
 * The page-write sequence the saved contributions are of, read from the file's header alone
 * (undefined, with why, when there is no file or its header cannot be read). The sections are
 * not checked: {@link decodeContributionsSteps} refuses a damaged file.
 */
export async function readContributionsSequence(dataDir: string): Promise<{ pageSequence?: number; reason: string }> {
  let file;
  try {
    file = await open(join(dataDir, FILE), 'r');
  } catch (error) {
    return { reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none saved' : `cannot read it: ${(error as Error).message}` };
  }
  try {
    const length = Buffer.alloc(4);
    if ((await file.read(length, 0, 4, 0)).bytesRead < 4) return { reason: 'cannot read it: truncated' };
    const headerLength = length.readUInt32LE(0);
    if (headerLength > MAX_HEADER_BYTES) return { reason: `cannot read it: a header of ${headerLength} bytes` };
    const headerBytes = Buffer.alloc(headerLength);
    if ((await file.read(headerBytes, 0, headerLength, 4)).bytesRead < headerLength) return { reason: 'cannot read it: truncated' };
    return { pageSequence: parseHeader(headerBytes.toString('utf8')).pageSequence, reason: 'saved' };
  } catch (error) {
    return { reason: `cannot read it: ${(error as Error).message}` };
  } finally {
    await file.close();
  }
}

/** The header's JSON, of a format read here and with a page sequence; throws saying which it lacks. */
function parseHeader(json: string): Header {
  const header = JSON.parse(json) as Header;
  if (header.format !== FORMAT && header.format !== FORMAT_UTF8) throw new Error(`format ${String(header.format)}`);
  if (!Number.isSafeInteger(header.pageSequence)) throw new Error('no page sequence');
  return header;
}

/** The contributions a file holds and the sequence they are of; throws when it is damaged. */
export function* decodeContributionsSteps(bytes: Buffer): Generator<void, { contributions: SuggestContributions; pageSequence: number }> {
  const headerLength = bytes.readUInt32LE(0);
  const header = parseHeader(bytes.toString('utf8', 4, 4 + headerLength));
  const parts = new Map<string, Uint8Array>();
  let offset = 4 + headerLength + padding(4 + headerLength);
  if ((yield* digestSteps([bytes.subarray(offset)])) !== header.digest) throw new Error('its digest does not match: damaged');
  for (const [name, length] of header.sections) {
    if (!(length >= 0) || offset + length > bytes.byteLength) throw new Error('truncated');
    parts.set(name, bytes.subarray(offset, offset + length));
    offset += length + padding(length);
  }
  const part = (name: string) => {
    const found = parts.get(name);
    if (!found) throw new Error(`no ${name}`);
    return found;
  };
  const c = {} as SuggestContributions;
  for (const [name, ArrayType] of Object.entries(NUMBER_COLUMNS) as Array<[NumberColumn, typeof Int32Array]>) {
    (c as unknown as Record<string, NumberArray>)[name] = numberColumn(part(name), ArrayType, name);
  }
  c.vocabulary = yield* decodeStrings(part, 'vocabulary');
  for (const name of COLUMNS) {
    if (header.format === FORMAT_UTF8) c[name] = yield* StringColumn.fromStringsSteps(yield* decodeStrings(part, name), STRINGS_PER_STEP);
    else c[name] = yield* StringColumn.fromFileSteps(part(`${name}.bytes`), numberColumn(part(`${name}.offsets`), Int32Array, name), name, DIGEST_STEP);
    yield;
  }
  yield* checkSteps(c);
  return { contributions: c, pageSequence: header.pageSequence };
}

/** A list of strings saved as their UTF-8 byte lengths and bytes (`name.lengths`, `name`). */
function* decodeStrings(part: (name: string) => Uint8Array, name: string): Generator<void, string[]> {
  const lengths = numberColumn(part(`${name}.lengths`), Uint32Array, name);
  const text = part(name);
  const list: string[] = new Array(lengths.length);
  const buffer = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    if (at + lengths[i] > text.byteLength) throw new Error(`${name}: truncated`);
    list[i] = buffer.toString('utf8', at, (at += lengths[i]));
    if (i % STRINGS_PER_STEP === STRINGS_PER_STEP - 1) yield;
  }
  if (at !== text.byteLength) throw new Error(`${name}: ${text.byteLength - at} bytes left over`);
  return list;
}

/** The bytes as a typed array: in place when aligned (a file read whole is), else copied. */
function numberColumn<T extends NumberArray | Uint32Array>(raw: Uint8Array, ArrayType: { new (buffer: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number }, name: string): T {
  const size = ArrayType.BYTES_PER_ELEMENT;
  if (raw.byteLength % size !== 0) throw new Error(`${name}: ${raw.byteLength} bytes`);
  if (raw.byteOffset % size === 0) return new ArrayType(raw.buffer as ArrayBuffer, raw.byteOffset, raw.byteLength / size);
  const copy = new Uint8Array(raw);
  return new ArrayType(copy.buffer, 0, raw.byteLength / size);
}

/** Lengths that agree and numbers in range: a damaged file is refused, never read as wrong rows. */
function* checkSteps(c: SuggestContributions): Generator<void, void> {
  const rows = c.pageIds.length;
  const words = c.vocabulary.length;
  const fail = (what: string) => {
    throw new Error(`inconsistent columns: ${what}`);
  };
  if (c.sortedWords.length !== words || c.stopWords.length !== words) fail('vocabulary');
  if (c.titles.length !== rows || c.urls.length !== rows || c.wordStarts.length !== rows + 1 || c.titleWordStarts.length !== rows + 1) fail('rows');
  if (c.wordStarts[0] !== 0 || c.wordStarts[rows] !== c.wordBytes.length || c.titleWordStarts[0] !== 0 || c.titleWordStarts[rows] !== c.titleWordIds.length) fail('row ends');
  const seen = new Uint8Array(words);
  for (let i = 0; i < words; i++) {
    const w = c.sortedWords[i];
    if (!(w >= 0 && w < words) || seen[w] === 1) fail('sorted words');
    seen[w] = 1;
    if (i > 0 && !(c.vocabulary[c.sortedWords[i - 1]] < c.vocabulary[w])) fail('word order');
    if (i % 65_536 === 65_535) yield;
  }
  for (let r = 0; r < rows; r++) {
    if ((r > 0 && c.pageIds[r - 1] >= c.pageIds[r]) || c.wordStarts[r] > c.wordStarts[r + 1] || c.titleWordStarts[r] > c.titleWordStarts[r + 1]) fail('row order');
    if (r % 65_536 === 65_535) yield;
  }
  for (let i = 0; i < c.titleWordIds.length; i++) {
    if (!(c.titleWordIds[i] >= 0 && c.titleWordIds[i] < words)) fail('title words');
    if (i % 262_144 === 262_143) yield;
  }
  // Every row's words decode to increasing numbers within the vocabulary, and end where it ends.
  for (let r = 0; r < rows; r++) {
    const end = c.wordStarts[r + 1];
    let w = 0;
    let at = c.wordStarts[r];
    let first = true;
    while (at < end) {
      let gap = 0;
      let shift = 0;
      let byte: number;
      do {
        if (at >= end || shift > 28) fail('word bytes');
        byte = c.wordBytes[at++];
        gap |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      if (gap < 0 || (!first && gap === 0)) fail('word gaps');
      w += gap;
      first = false;
    }
    if (!first && w >= words) fail('word numbers');
    if (r % 4096 === 4095) yield;
  }
}
