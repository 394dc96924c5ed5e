/**
 * The suggestion index saved in a data directory (DIR/suggest/suggestions.bin), so that a server
 * starts by reading it instead of reading every page. It is valid for one state of what it is
 * built from — the store's pages (CrawlStore.pageWriteSequence) and the ranks (a digest of the
 * rank values) — and is rebuilt when either moved on, or when it is missing or unreadable.
 *
 * Layout: a 4-byte little-endian length, a JSON header (format, key, sections' byte lengths), then
 * the sections as raw little-endian arrays: each string column as its offsets (i32) and bytes
 * (term-dictionary.ts, string-column.ts), checked when read, then the number columns. A file of
 * the first format (string columns as UTF-8 JSON arrays) is still read, and converted.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../text-index/atomic-file.ts';
import { StringColumn } from '../text-index/string-column.ts';
import { TermDictionary } from '../text-index/term-dictionary.ts';
import { SuggestIndex, type SuggestColumns } from './suggest-index.ts';

const FORMAT = 'lse-suggest/2';
/** Its string columns as JSON arrays of strings. */
const FORMAT_JSON = 'lse-suggest/1';
const FILE = join('suggest', 'suggestions.bin');

/** What a saved index was built from: equal keys, equal suggestions. */
export interface SuggestKey {
  pageSequence: number;
  rankDigest: string;
}

type DictionaryName = 'terms' | 'titleWords';
type ColumnName = 'titles' | 'titleUrls';
type NumberColumn = Exclude<keyof SuggestColumns, DictionaryName | ColumnName>;
const DICTIONARIES: readonly DictionaryName[] = ['terms', 'titleWords'];
const COLUMNS: readonly ColumnName[] = ['titles', 'titleUrls'];
const NUMBER_COLUMNS: Readonly<Record<NumberColumn, typeof Float64Array | typeof Int32Array>> = {
  termScores: Float64Array,
  titlePostingStarts: Int32Array,
  titlePostings: Int32Array,
  titleWordStarts: Int32Array,
  titleWordIds: Int32Array,
};

interface Header {
  format: string;
  key: SuggestKey;
  /** Section names in file order, with their byte lengths. */
  sections: Array<[string, number]>;
}

const bytesOf = (array: Int32Array | Float64Array | Uint8Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** Saves the index as built from `key`: its arrays as they are (no string encoded). */
export async function saveSuggestIndex(dataDir: string, index: SuggestIndex, key: SuggestKey): Promise<void> {
  const columns = index.toColumns();
  const sections: Array<[string, Uint8Array]> = [];
  for (const name of [...DICTIONARIES, ...COLUMNS]) sections.push([`${name}.offsets`, bytesOf(columns[name].offsets)], [`${name}.bytes`, bytesOf(columns[name].bytes)]);
  for (const name of Object.keys(NUMBER_COLUMNS) as NumberColumn[]) sections.push([name, bytesOf(columns[name])]);
  const header: Header = { format: FORMAT, key, sections: sections.map(([name, bytes]) => [name, bytes.byteLength]) };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.byteLength);
  await mkdir(join(dataDir, 'suggest'), { recursive: true });
  await writeFileAtomic(join(dataDir, FILE), [length, headerBytes, ...sections.map(([, bytes]) => bytes)]);
}

/**
 * The saved index when it was built from `key`; undefined when there is none, it is of another
 * state, or it cannot be read (the caller builds it anew and says why, from `reason`).
 */
export async function loadSuggestIndex(dataDir: string, key: SuggestKey): Promise<{ index?: SuggestIndex; reason: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dataDir, FILE));
  } catch (error) {
    return { reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none saved' : `cannot read it: ${(error as Error).message}` };
  }
  try {
    const headerLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + headerLength)) as Header;
    if (header.format !== FORMAT && header.format !== FORMAT_JSON) return { reason: `format ${String(header.format)}` };
    if (header.key?.pageSequence !== key.pageSequence || header.key?.rankDigest !== key.rankDigest) return { reason: 'pages or ranks changed since it was saved' };
    const parts = new Map<string, Buffer>();
    let offset = 4 + headerLength;
    for (const [name, length] of header.sections) {
      if (offset + length > bytes.byteLength) throw new Error('truncated');
      parts.set(name, bytes.subarray(offset, offset + length));
      offset += length;
    }
    const part = (name: string) => {
      const found = parts.get(name);
      if (!found) throw new Error(`no ${name}`);
      return found;
    };
    const columns = {} as SuggestColumns;
    const array = (name: string, ArrayType: typeof Float64Array | typeof Int32Array): Float64Array | Int32Array => {
      const raw = part(name);
      if (raw.byteLength % ArrayType.BYTES_PER_ELEMENT !== 0) throw new Error(`${name}: ${raw.byteLength} bytes`);
      // Copied out: the file's buffer is not aligned for the typed array.
      return new ArrayType(new Uint8Array(raw).buffer, 0, raw.byteLength / ArrayType.BYTES_PER_ELEMENT);
    };
    // Checked whichever the format, before a dictionary is made of them: its searches need the words in order.
    const dictionary = (name: string, bytes: Uint8Array, offsets: Int32Array) => {
      const problem = TermDictionary.problemWith(bytes, offsets);
      if (problem !== null) throw new Error(`${name}: ${problem}`);
      return new TermDictionary(bytes, offsets);
    };
    if (header.format === FORMAT_JSON) {
      const strings = (name: string) => JSON.parse(part(name).toString('utf8')) as string[];
      for (const name of DICTIONARIES) {
        const sorted = TermDictionary.fromSorted(strings(name));
        columns[name] = dictionary(name, sorted.bytes, sorted.offsets);
      }
      for (const name of COLUMNS) columns[name] = StringColumn.fromStrings(strings(name));
    } else {
      for (const name of DICTIONARIES) columns[name] = dictionary(name, new Uint8Array(part(`${name}.bytes`)), array(`${name}.offsets`, Int32Array) as Int32Array);
      for (const name of COLUMNS) columns[name] = StringColumn.fromFile(new Uint8Array(part(`${name}.bytes`)), array(`${name}.offsets`, Int32Array) as Int32Array, name);
    }
    for (const [name, ArrayType] of Object.entries(NUMBER_COLUMNS) as Array<[NumberColumn, typeof Float64Array | typeof Int32Array]>) {
      (columns as unknown as Record<string, Float64Array | Int32Array>)[name] = array(name, ArrayType);
    }
    checkColumns(columns);
    return { index: SuggestIndex.fromColumns(columns), reason: 'saved' };
  } catch (error) {
    return { reason: `cannot read it: ${(error as Error).message}` };
  }
}

function checkColumns(c: SuggestColumns): void {
  const ok =
    c.termScores.length === c.terms.length &&
    c.titlePostingStarts.length === c.titleWords.length + 1 &&
    c.titlePostingStarts[c.titleWords.length] === c.titlePostings.length &&
    c.titleUrls.length === c.titles.length &&
    c.titleWordStarts.length === c.titles.length + 1 &&
    c.titleWordStarts[c.titles.length] === c.titleWordIds.length &&
    c.titlePostings.every((t) => t >= 0 && t < c.titles.length) &&
    c.titleWordIds.every((w) => w >= 0 && w < c.titleWords.length);
  if (!ok) throw new Error('columns of inconsistent lengths');
}
