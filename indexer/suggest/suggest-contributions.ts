/**
 * What each page gives the suggestion index, kept so that the index is refreshed without reading
 * every page again: per page (rows in page-id order, the order a full pass reads them) its
 * distinct words as numbers into a vocabulary that only grows, its title, URL and title words.
 * After an update only the written pages are read and tokenised again and their rows replaced
 * (replaceRowsSteps); after a rank change nothing is read: the scores and the title order are
 * computed from these columns (suggest-ranking.ts). A page's word numbers are sorted and stored
 * as varint-coded gaps (words first seen get small numbers, and most of a page's words are common
 * ones: about 1.3 bytes a word instead of 4), in one byte array outside the JavaScript heap, and
 * the titles and URLs are string columns (string-column.ts): a refresh at a million pages holds
 * two million of them, which as strings lived long enough for full collections to walk them.
 */
import { mergeSortSteps } from '../stepwise.ts';
import { StringColumnBuilder, type StringColumn } from '../text-index/string-column.ts';
import { isStopWord, pageSurfaceWords, suggestTitle, surfaceWords, type SuggestSource } from './suggest-index.ts';

export interface SuggestContributions {
  /** Words by number, in the order they were first met; numbers never change. */
  vocabulary: string[];
  /** Word numbers in the order of their strings (code units, as Array.prototype.sort orders). */
  sortedWords: Int32Array;
  /** 1 for a stop word (never a completion). */
  stopWords: Uint8Array;
  /** Rows: the page ids, increasing. */
  pageIds: Int32Array;
  /** Row r's words are wordBytes[wordStarts[r] … wordStarts[r + 1]]: increasing numbers as varint gaps. */
  wordStarts: Float64Array;
  wordBytes: Uint8Array;
  /** Row r's title ('' for none), URL, and title words (numbers, as written, repeats kept). */
  titles: StringColumn;
  urls: StringColumn;
  titleWordStarts: Int32Array;
  titleWordIds: Int32Array;
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A typed array that grows by doubling. */
class Growing<T extends Uint8Array | Int32Array | Float64Array> {
  length = 0;
  constructor(public array: T) {}
  reserve(more: number): void {
    if (this.length + more <= this.array.length) return;
    const grown = new (this.array.constructor as new (n: number) => T)(Math.max(this.length + more, this.array.length * 2, 1024));
    grown.set(this.array.subarray(0, this.length));
    this.array = grown;
  }
  /** The items (a view: a large array is not copied again). */
  done(): T {
    return this.array.subarray(0, this.length) as T;
  }
}

/** Appends rows r0 … r1 − 1 of an offsets-and-items column (row r's items are items[starts[r] … starts[r + 1]]), their offsets moved. */
function appendRows<T extends Uint8Array | Int32Array>(starts: Growing<Float64Array | Int32Array>, items: Growing<T>, fromStarts: ArrayLike<number>, fromItems: T, r0: number, r1: number): void {
  const [first, end] = [fromStarts[r0], fromStarts[r1]];
  const shift = items.length - first;
  items.reserve(end - first);
  items.array.set(fromItems.subarray(first, end), items.length);
  items.length += end - first;
  starts.reserve(r1 - r0);
  for (let r = r0 + 1; r <= r1; r++) starts.array[starts.length++] = fromStarts[r] + shift;
}

/** Appends the increasing numbers as varint gaps. */
function writeGaps(out: Growing<Uint8Array>, sorted: ArrayLike<number>): void {
  out.reserve(sorted.length * 5);
  const bytes = out.array;
  let at = out.length;
  let previous = 0;
  for (let i = 0; i < sorted.length; i++) {
    let gap = sorted[i] - previous;
    previous = sorted[i];
    while (gap >= 0x80) {
      bytes[at++] = (gap & 0x7f) | 0x80;
      gap >>>= 7;
    }
    bytes[at++] = gap;
  }
  out.length = at;
}

/** Rows appended in page-id order, with the vocabulary they number their words in. */
export class ContributionsWriter {
  private readonly pageIds = new Growing(new Int32Array(1024));
  private readonly wordStarts = new Growing(new Float64Array(1024));
  private readonly wordBytes = new Growing(new Uint8Array(1 << 16));
  private readonly titles: StringColumnBuilder;
  private readonly urls: StringColumnBuilder;
  private readonly titleWordStarts = new Growing(new Int32Array(1024));
  private readonly titleWordIds = new Growing(new Int32Array(1024));

  /** `expected`: room for the rows, their words and title words, so that a large array is not grown by copying. */
  constructor(
    readonly words: Vocabulary,
    expected: { rows?: number; wordBytes?: number; titleWords?: number; titleBytes?: number; urlBytes?: number } = {},
  ) {
    this.titles = new StringColumnBuilder({ entries: expected.rows, bytes: expected.titleBytes });
    this.urls = new StringColumnBuilder({ entries: expected.rows, bytes: expected.urlBytes });
    this.wordBytes.reserve(expected.wordBytes ?? 1 << 16);
    this.pageIds.reserve(expected.rows ?? 0);
    this.wordStarts.reserve((expected.rows ?? 0) + 1);
    this.titleWordStarts.reserve((expected.rows ?? 0) + 1);
    this.titleWordIds.reserve(expected.titleWords ?? 0);
    this.titleWordStarts.length = 1;
    this.wordStarts.length = 1;
  }

  get rowCount(): number {
    return this.titles.length;
  }

  /** A page read and tokenised (its id past every row's so far). */
  add(source: SuggestSource): void {
    // Each distinct word looked up once (a binary search in a saved vocabulary).
    const numbers = Int32Array.from(new Set(pageSurfaceWords(source)), (word) => this.words.numberOf(word)).sort();
    const title = suggestTitle(source);
    this.append(source.id, numbers, title, source.url, surfaceWords(title).map((word) => this.words.numberOf(word)));
  }

  /** Rows r0 … r1 − 1 of `from` as they are, in bulk (their ids past every row's so far). */
  copyRows(from: SuggestContributions, r0: number, r1: number): void {
    const n = r1 - r0;
    if (n <= 0) return;
    const last = this.pageIds.length - 1;
    if (last >= 0 && this.pageIds.array[last] >= from.pageIds[r0]) throw new Error(`suggestion rows out of order: page ${from.pageIds[r0]} after ${this.pageIds.array[last]}`);
    appendRows(this.wordStarts, this.wordBytes, from.wordStarts, from.wordBytes, r0, r1);
    this.pageIds.reserve(n);
    this.pageIds.array.set(from.pageIds.subarray(r0, r1), this.pageIds.length);
    this.pageIds.length += n;
    appendRows(this.titleWordStarts, this.titleWordIds, from.titleWordStarts, from.titleWordIds, r0, r1);
    this.titles.addEntries(from.titles, r0, r1);
    this.urls.addEntries(from.urls, r0, r1);
  }

  private append(id: number, sortedNumbers: Int32Array, title: string, url: string, titleWords: ArrayLike<number>): void {
    writeGaps(this.wordBytes, sortedNumbers);
    this.finishRow(id, title, url, titleWords);
  }

  private finishRow(id: number, title: string, url: string, titleWords: ArrayLike<number>): void {
    const last = this.pageIds.length - 1;
    if (last >= 0 && this.pageIds.array[last] >= id) throw new Error(`suggestion rows out of order: page ${id} after ${this.pageIds.array[last]}`);
    this.pageIds.reserve(1);
    this.pageIds.array[this.pageIds.length++] = id;
    this.wordStarts.reserve(1);
    this.wordStarts.array[this.wordStarts.length++] = this.wordBytes.length;
    this.titles.add(title);
    this.urls.add(url);
    this.titleWordIds.reserve(titleWords.length);
    this.titleWordIds.array.set(titleWords, this.titleWordIds.length);
    this.titleWordIds.length += titleWords.length;
    this.titleWordStarts.reserve(1);
    this.titleWordStarts.array[this.titleWordStarts.length++] = this.titleWordIds.length;
  }

  /** The columns, the vocabulary's new words sorted in (served between steps). */
  *doneSteps(): Generator<void, SuggestContributions> {
    const vocabulary = yield* this.words.doneSteps();
    return {
      ...vocabulary,
      pageIds: this.pageIds.done(),
      wordStarts: this.wordStarts.done(),
      wordBytes: this.wordBytes.done(),
      titles: this.titles.done(),
      urls: this.urls.done(),
      titleWordStarts: this.titleWordStarts.done(),
      titleWordIds: this.titleWordIds.done(),
    };
  }
}

/**
 * Numbers for words: those of a saved vocabulary found by binary search on its sorted order (no
 * map of millions of strings held), new ones numbered after them and sorted in when done.
 */
export class Vocabulary {
  private readonly added = new Map<string, number>();
  private readonly words: string[];

  constructor(private readonly saved: Pick<SuggestContributions, 'vocabulary' | 'sortedWords' | 'stopWords'> = { vocabulary: [], sortedWords: new Int32Array(0), stopWords: new Uint8Array(0) }) {
    // Shared with the saved columns: they only ever read the numbers they had.
    this.words = saved.vocabulary;
  }

  numberOf(word: string): number {
    const found = this.added.get(word);
    if (found !== undefined) return found;
    const { sortedWords } = this.saved;
    const words = this.words;
    let low = 0;
    let high = sortedWords.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const candidate = words[sortedWords[middle]];
      if (candidate === word) return sortedWords[middle];
      if (candidate < word) low = middle + 1;
      else high = middle;
    }
    const w = this.words.push(word) - 1;
    this.added.set(word, w);
    return w;
  }

  *doneSteps(): Generator<void, Pick<SuggestContributions, 'vocabulary' | 'sortedWords' | 'stopWords'>> {
    const { sortedWords, stopWords } = this.saved;
    const words = this.words;
    const first = sortedWords.length;
    const added = yield* mergeSortSteps(Int32Array.from(this.added.values()), (a, b) => compareStrings(words[a], words[b]));
    const merged = new Int32Array(first + added.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < merged.length; k++) {
      merged[k] = j >= added.length || (i < first && words[sortedWords[i]] < words[added[j]]) ? sortedWords[i++] : added[j++];
      if ((k & 0xffff) === 0xffff) yield;
    }
    const stops = new Uint8Array(words.length);
    stops.set(stopWords.subarray(0, Math.min(stopWords.length, words.length)));
    for (let i = 0; i < added.length; i++) {
      stops[added[i]] = isStopWord(words[added[i]]) ? 1 : 0;
      if ((i & 0xffff) === 0xffff) yield;
    }
    return { vocabulary: words, sortedWords: merged, stopWords: stops };
  }
}

/**
 * The contributions with the rows of `changed` pages replaced: each page's new source, or
 * undefined for a page gone or no longer indexable (its row dropped). Rows of other pages are
 * copied as they are; `old` must not be used after.
 */
export function* replaceRowsSteps(old: SuggestContributions, changed: ReadonlyMap<number, SuggestSource | undefined>): Generator<void, SuggestContributions> {
  const rows = old.pageIds.length;
  const writer = new ContributionsWriter(new Vocabulary(old), {
    rows: rows + changed.size,
    wordBytes: Math.ceil(old.wordBytes.length * 1.05) + changed.size * 400,
    titleWords: Math.ceil(old.titleWordIds.length * 1.05) + changed.size * 16,
    titleBytes: Math.ceil(old.titles.bytes.length * 1.05) + changed.size * 200,
    urlBytes: Math.ceil(old.urls.bytes.length * 1.05) + changed.size * 200,
  });
  const incoming = [...changed].filter((entry): entry is [number, SuggestSource] => entry[1] !== undefined).sort((a, b) => a[0] - b[0]);
  let next = 0;
  let sinceYield = 0;
  let r = 0;
  while (r < rows) {
    const id = old.pageIds[r];
    if (next < incoming.length && incoming[next][0] < id) {
      // A page tokenised costs about as much as 2,000 rows copied (1-2 ms at a million rows).
      writer.add(incoming[next++][1]);
      sinceYield += PAGE_COST;
    } else if (changed.has(id)) r++;
    else {
      // A run of unchanged rows, copied at once: up to the next changed row or incoming page, or the step's end.
      const stop = next < incoming.length ? incoming[next][0] : Infinity;
      const limit = Math.min(rows, r + ROWS_PER_STEP);
      let end = r + 1;
      while (end < limit && old.pageIds[end] < stop && !changed.has(old.pageIds[end])) end++;
      writer.copyRows(old, r, end);
      sinceYield += end - r;
      r = end;
    }
    if (sinceYield >= ROWS_PER_STEP) {
      sinceYield = 0;
      yield;
    }
  }
  while (next < incoming.length) {
    writer.add(incoming[next++][1]);
    if ((sinceYield += PAGE_COST) >= ROWS_PER_STEP) {
      sinceYield = 0;
      yield;
    }
  }
  return yield* writer.doneSteps();
}

/** Rows copied between two yields of {@link replaceRowsSteps}. */
const ROWS_PER_STEP = 1_024;
/** A page tokenised, counted in rows copied. */
const PAGE_COST = 256;
