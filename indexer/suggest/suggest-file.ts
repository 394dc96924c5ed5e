/**
 * The suggestion index saved in a data directory (DIR/suggest/suggestions.bin), so that a server
 * starts by reading it instead of reading every page. It is valid for one state of what it is
 * built from — the store's pages (CrawlStore.pageWriteSequence) and the ranks (a digest of the
 * rank values) — and is rebuilt when either moved on, or when it is missing or unreadable.
 *
 * Layout: a 4-byte little-endian length, a JSON header (format, key, sections' byte lengths), then
 * the sections: string columns as UTF-8 JSON arrays, number columns as raw little-endian arrays.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../text-index/atomic-file.ts';
import { runStepsYielding } from '../stepwise.ts';
import { SuggestIndex, type SuggestColumns } from './suggest-index.ts';

const FORMAT = 'lse-suggest/1';
const FILE = join('suggest', 'suggestions.bin');

/** What a saved index was built from: equal keys, equal suggestions. */
export interface SuggestKey {
  pageSequence: number;
  rankDigest: string;
}

type StringColumn = 'terms' | 'titleWords' | 'titles' | 'titleUrls';
type NumberColumn = Exclude<keyof SuggestColumns, StringColumn>;
const STRING_COLUMNS: readonly StringColumn[] = ['terms', 'titleWords', 'titles', 'titleUrls'];
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

/** Saves the index as built from `key`; the event loop is served while a large one is encoded. */
export async function saveSuggestIndex(dataDir: string, index: SuggestIndex, key: SuggestKey): Promise<void> {
  const columns = index.toColumns();
  const sections: Array<[string, Uint8Array[]]> = [];
  for (const name of STRING_COLUMNS) sections.push([name, await runStepsYielding(jsonArraySteps(columns[name]))]);
  for (const name of Object.keys(NUMBER_COLUMNS) as NumberColumn[]) {
    const array = columns[name];
    sections.push([name, [new Uint8Array(array.buffer, array.byteOffset, array.byteLength)]]);
  }
  const byteLength = (parts: Uint8Array[]) => parts.reduce((sum, part) => sum + part.byteLength, 0);
  const header: Header = { format: FORMAT, key, sections: sections.map(([name, parts]) => [name, byteLength(parts)]) };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.byteLength);
  await mkdir(join(dataDir, 'suggest'), { recursive: true });
  await writeFileAtomic(join(dataDir, FILE), [length, headerBytes, ...sections.flatMap(([, parts]) => parts)]);
}

/** The strings as one JSON array, in UTF-8 parts of 8,192 strings (a yield after each). */
function* jsonArraySteps(strings: readonly string[]): Generator<void, Uint8Array[]> {
  const parts: Uint8Array[] = [Buffer.from('[')];
  for (let from = 0; from < strings.length; from += 8192) {
    const json = JSON.stringify(strings.slice(from, from + 8192));
    parts.push(Buffer.from(`${from === 0 ? '' : ','}${json.slice(1, -1)}`, 'utf8'));
    yield;
  }
  parts.push(Buffer.from(']'));
  return parts;
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
    if (header.format !== FORMAT) return { reason: `format ${String(header.format)}` };
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
    for (const name of STRING_COLUMNS) columns[name] = JSON.parse(part(name).toString('utf8')) as string[];
    for (const [name, ArrayType] of Object.entries(NUMBER_COLUMNS) as Array<[NumberColumn, typeof Float64Array | typeof Int32Array]>) {
      const raw = part(name);
      if (raw.byteLength % ArrayType.BYTES_PER_ELEMENT !== 0) throw new Error(`${name}: ${raw.byteLength} bytes`);
      // Copied out: the file's buffer is not aligned for the typed array.
      const copy = new Uint8Array(raw);
      (columns as unknown as Record<string, Float64Array | Int32Array>)[name] = new ArrayType(copy.buffer, 0, raw.byteLength / ArrayType.BYTES_PER_ELEMENT);
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
