/**
 * A segment's terms as a byte dictionary (format 2 of the postings file) against the earlier
 * layout, terms as strings in the header JSON: one segment of N scale pages (100k by default,
 * LSE_BENCH_TERMDICT_PAGES) written in both layouts, then opened from each: time to open, the
 * heap the open segment holds and the time of a full garbage collection beside it (what a
 * server's pauses are made of), and the lookups and walks over the dictionary.
 *
 *   npm run bench -- term-dictionary
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { seededRandom } from '../indexer/seeded-random.ts';
import { termNumber, type CompactSegment } from '../indexer/text-index/compact-segment.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { PostingsCache } from '../indexer/text-index/postings-cache.ts';
import { openPostings, pad8 } from '../indexer/text-index/postings-file.ts';
import { buildAndWriteSegment } from '../indexer/text-index/build-segment.ts';
import { languagesOf } from '../indexer/text-index/language-column.ts';
import { QueryBudget } from '../indexer/text-index/query-budget.ts';
import { forEachTermMatchingGlob, forEachTermWithinEdits } from '../indexer/text-index/term-walk.ts';
import type { BenchContext } from './run.ts';
import { drawWord, realWordTable, scaleUrl } from './scale-corpus.ts';

const FIELD_ARRAYS = ['offsets', 'docs', 'tf', 'positionOffsets', 'positions', 'lengths'] as const;

/** A segment's postings file as versions before format 2 wrote it: terms, words, offsets and languages in the header JSON. */
export function earlierPostingsLayout(segment: CompactSegment, docOffsets: readonly number[]): Uint8Array {
  const header = {
    name: segment.name,
    terms: segment.terms.toArray(),
    docCount: segment.docIds.length,
    docOffsets: [...docOffsets],
    fields: segment.fields.map((field) => FIELD_ARRAYS.map((key) => field[key].length)),
    docLangs: languagesOf(segment.docLangs),
    surfaces: segment.surfaces.words.toArray(),
    surfaceTermCount: segment.surfaces.termIds.length,
    positionBytes: segment.fields.map((field) => field.positions.BYTES_PER_ELEMENT),
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const start = Buffer.alloc(pad8(8 + headerBytes.length));
  start.write('LSEP', 0, 'latin1');
  start.writeUInt32LE(headerBytes.length, 4);
  headerBytes.copy(start, 8);
  const arrays: ArrayBufferView[] = [segment.docIds, ...segment.fields.flatMap((field) => FIELD_ARRAYS.map((key) => field[key])), segment.surfaces.offsets, segment.surfaces.termIds];
  const parts: Buffer[] = [start];
  for (const array of arrays) parts.push(Buffer.from(array.buffer, array.byteOffset, array.byteLength), Buffer.alloc(pad8(array.byteLength) - array.byteLength));
  return Buffer.concat(parts);
}

/** Scale pages (words of the English Debian Reference by frequency), as documents. */
function scaleDocuments(count: number): TextDocument[] {
  const table = realWordTable();
  return Array.from({ length: count }, (_, i) => {
    const random = seededRandom(i * 7919 + 17);
    const body = Array.from({ length: 200 + Math.floor(random() * 100) }, () => drawWord(table, random));
    const title = Array.from({ length: 3 + Math.floor(random() * 4) }, () => drawWord(table, random));
    return { id: i, url: scaleUrl(i), host: 'big.example.org', title: title.join(' '), headings: [], text: body.join(' '), lang: 'en' };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function termDictionaryBenchmarks(bench: BenchContext): Promise<void> {
  const count = Number(process.env.LSE_BENCH_TERMDICT_PAGES ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-termdict-'));
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  try {
    let started = performance.now();
    const stored = await buildAndWriteSegment(dir, 'seg-000001', scaleDocuments(count));
    const newPath = join(dir, 'seg-000001.postings.bin');
    const oldPath = join(dir, 'earlier.postings.bin');
    writeFileSync(oldPath, earlierPostingsLayout(stored.postings, [...stored.docOffsets]));
    const built = stored.postings;
    bench.heading(`term-dictionary: one segment of ${count.toLocaleString('en-US')} scale pages, ${built.terms.length.toLocaleString('en-US')} terms (built in ${((performance.now() - started) / 1000).toFixed(0)} s)`);
    const rows: Array<Array<string | number>> = [['layout', 'file MB', 'header KB', 'header JSON.parse ms', 'open ms (median)', 'heap held MB', 'full GC ms (median of 7)']];
    for (const [layout, path] of [['earlier (terms in the header JSON)', oldPath], ['format 2 (byte dictionaries)', newPath]] as const) {
      const bytes = readFileSync(path);
      const headerLength = bytes.readUInt32LE(4);
      const parse = await bench.time(() => JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8')), { runs: 7, warmup: 1 });
      const open = await bench.time(() => openPostings(path, new PostingsCache()), { runs: 7, warmup: 1 });
      gc();
      const before = v8.getHeapStatistics().used_heap_size;
      // What a server holds: the segment as opened, and for the earlier layout the header's strings,
      // as the code before format 2 kept them (a file of that layout is now converted at open).
      let segment: CompactSegment | null = openPostings(path, new PostingsCache()).postings;
      let header: unknown = path === oldPath ? JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8')) : null;
      gc();
      const held = v8.getHeapStatistics().used_heap_size - before;
      const pauses: number[] = [];
      for (let r = 0; r < 7; r++) {
        started = performance.now();
        gc();
        pauses.push(performance.now() - started);
      }
      if (segment.terms.length !== built.terms.length) throw new Error('the segment opened with other terms');
      segment = null;
      header = null;
      rows.push([layout, (bytes.length / 1e6).toFixed(0), (headerLength / 1e3).toFixed(1), (parse.median * 1000).toFixed(1), (open.median * 1000).toFixed(1), (held / 1e6).toFixed(1), median(pauses).toFixed(1)]);
    }
    bench.table(rows);
    bench.note('heap held and full GC: with the opened segment, and for the earlier layout its header parsed as the code before format 2 held it (terms, written words, languages, offsets as JS values); postings arrays are off the collected heap either way');
    lookupsAndWalks(bench, openPostings(newPath, new PostingsCache()).postings);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** termNumber on cache misses against a binary search in the terms as a string array; fuzzy and wildcard walks. */
function lookupsAndWalks(bench: BenchContext, segment: CompactSegment): void {
  const terms = segment.terms;
  const strings = terms.toArray();
  // Fresh strings, as a query's parser makes them (the array's own would compare equal by identity).
  const asked = Array.from({ length: 200_000 }, (_, k) => {
    const word = strings[(k * 7919) % strings.length];
    return k % 4 === 3 ? `${word}q` : [...word].join('');
  });
  const perTerm = (work: () => void) => {
    const runs: number[] = [];
    for (let r = 0; r < 7; r++) {
      const started = performance.now();
      work();
      runs.push(((performance.now() - started) * 1000) / asked.length);
    }
    return median(runs).toFixed(2);
  };
  let found = 0;
  const search = (term: string) => {
    let low = 0;
    let high = strings.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (strings[mid] < term) low = mid + 1;
      else if (strings[mid] > term) high = mid - 1;
      else return mid;
    }
    return -1;
  };
  const stringSearch = perTerm(() => asked.forEach((term) => (found += search(term) >= 0 ? 1 : 0)));
  const dictionaryFind = perTerm(() => asked.forEach((term) => (found += terms.find(term) >= 0 ? 1 : 0)));
  // termNumber remembers 4,096 answers a segment: 200k distinct terms miss.
  const lookups = perTerm(() => asked.forEach((term) => (found += termNumber(segment, term) >= 0 ? 1 : 0)));
  const words = Array.from({ length: 300 }, (_, k) => strings[(k * 977) % strings.length]).filter((w) => w.length >= 4 && !w.includes(':'));
  const fuzzy: number[] = [];
  const glob: number[] = [];
  const patterns = ['*ing', 'a*e', '*ter*', 'con*', '*q*'];
  for (let r = 0; r < 5; r++) {
    let started = performance.now();
    for (const word of words) {
      const [from, to] = terms.prefixRange(word.slice(0, 1));
      forEachTermWithinEdits(terms, from, to, word, 2, true, new QueryBudget(1e12), () => found++);
    }
    fuzzy.push((performance.now() - started) / words.length);
    started = performance.now();
    for (const pattern of patterns) forEachTermMatchingGlob(terms, pattern, true, new QueryBudget(1e12), () => found++);
    glob.push((performance.now() - started) / patterns.length);
  }
  bench.table([
    ['string array binary search µs', 'dictionary find µs', 'termNumber (cache miss) µs', `fuzzy ~2 over a first letter's range ms/word (${words.length})`, `wildcard ms/pattern (${patterns.join(' ')})`],
    [stringSearch, dictionaryFind, lookups, median(fuzzy).toFixed(2), median(glob).toFixed(1)],
  ]);
  bench.note(`200k distinct terms asked, a quarter absent (${found} found in all)`);
}
