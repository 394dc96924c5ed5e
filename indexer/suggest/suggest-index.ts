/**
 * Suggestions as you type: completions of the last word from the words the pages use (as
 * written, lowercased — not stems: a visitor types "telesc" and expects "telescope", not
 * "telescop"), and page titles. Identifiers (`gen_server`, `ets:insert`, `os.path.join`,
 * `std::vector`) are words whole, as the text index reads them (analysis.ts), and by their parts:
 * `gen_s` completes to `gen_server`, and `ets:ins` only to identifiers the pages write, never to
 * `ets:` + some other word. When the typed word looks like code, identifiers come first. A word is worth the sum over the pages that use it of
 * ½ + its page's position on the global-PageRank log scale (how many pages use it, weighted by
 * how important they are); a title is worth its page's position.
 *
 * Words are one sorted byte dictionary (term-dictionary.ts), so a prefix is a binary search on
 * bytes and a range; titles and their URLs are string columns (string-column.ts): at a million
 * pages these four hold millions of strings, kept out of the heap's objects. Titles are found by
 * their words (an inverted list per title word) or, for a prefix many titles share, by walking
 * titles best first until enough match. Built from the stored pages, replaced whole, and held as
 * columns (SuggestColumns) that are saved with the index and loaded at start (suggest-file.ts). A
 * server computes the same columns from what each page contributes (suggest-contributions.ts,
 * suggest-ranking.ts) rather than reading every page after each update.
 */
import lunr from 'lunr';
import { logRankPosition, rankScale, type RankScale } from '../ranking/blend.ts';
import { StringColumn } from '../text-index/string-column.ts';
import { emptyDictionary, TermDictionary } from '../text-index/term-dictionary.ts';
import { mergeSortSteps, nextTurn, runSteps, runStepsYielding } from '../stepwise.ts';

export interface SuggestSource {
  id: number;
  url: string;
  title: string;
  headings: readonly string[];
  text: string;
}

export interface Suggestion {
  text: string;
  kind: 'term' | 'title';
  url?: string;
}

/** Characters of page text read for words (titles and headings are read whole). */
export const SUGGEST_TEXT_CHARS = 2000;
/** Past this many title postings for a prefix, titles are walked best first instead. */
const TITLE_UNION_LIMIT = 4000;
/** A word, or an identifier with the joiners the text index keeps (`_`, `.`, `::`, `:`, `/`, `#`). */
const WORD = /[\p{L}\p{N}_][\p{L}\p{N}\p{M}_'’-]*(?:(?:\.|::|:|\/|#)[\p{L}\p{N}\p{M}_][\p{L}\p{N}\p{M}_'’-]*)*/gu;
const PARTS = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’-]*/gu;
/** The word being typed at the end of the input, joiners and all (`ets:` waits for its function). */
const TYPED_WORD = /[\p{L}\p{N}_][\p{L}\p{N}\p{M}_'’\-.:/#]*$/u;
const JOINED = /[_.:/#]/;
const MAX_WORD = 40;
const MAX_IDENTIFIER = 80;

/**
 * Lowercased words of a text, 2 to 40 characters (identifiers up to 80), trailing apostrophes and
 * hyphens dropped; an identifier gives its whole, then its parts.
 */
export function surfaceWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const written = match[0].replace(/['’-]+$/, '').replace(/^_+|_+$/g, '');
    if (isIdentifier(written)) {
      if (written.length <= MAX_IDENTIFIER) words.push(written.toLowerCase());
      for (const part of written.matchAll(PARTS)) addWord(words, part[0]);
    } else addWord(words, written);
  }
  return words;
}

function addWord(words: string[], written: string): void {
  const word = written.replace(/['’-]+$/, '').toLowerCase();
  if (word.length >= 2 && word.length <= MAX_WORD) words.push(word);
}

const CAMEL_CASE = /\p{Ll}\p{Lu}/u;

/** Joined by `_`, `.`, `::`, `:`, `/` or `#`, or written in camelCase. */
function isIdentifier(word: string): boolean {
  if (JOINED.test(word)) return true;
  // ASCII words (nearly all of them) are read by code; others by the Unicode expression.
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code > 127) return CAMEL_CASE.test(word);
    if (code >= 65 && code <= 90 && i > 0) {
      const before = word.charCodeAt(i - 1);
      if (before >= 97 && before <= 122) return true;
    }
  }
  return false;
}

/** A word lunr drops as a stop word: never offered as a completion. */
export const isStopWord = (word: string) => lunr.stopWordFilter(new lunr.Token(word, {})) === undefined;

/** The words a page offers: its title, headings and the start of its text. */
export function pageSurfaceWords(source: SuggestSource): string[] {
  return surfaceWords(`${source.title}\n${source.headings.join('\n')}\n${source.text.slice(0, SUGGEST_TEXT_CHARS)}`);
}

/** A page's title as offered (whitespace collapsed; empty: no title suggestion). */
export const suggestTitle = (source: SuggestSource) => source.title.replace(/\s+/g, ' ').trim();

/**
 * The suggestion index as columns: strings as bytes and typed arrays, no object per word or
 * title, so that it is saved and loaded as it is (suggest-file.ts).
 */
export interface SuggestColumns {
  /** Sorted words, their scores. */
  terms: TermDictionary;
  termScores: Float64Array;
  /** Title words sorted; the titles (by title number) that contain word w are titlePostings[titlePostingStarts[w] … titlePostingStarts[w + 1]]. */
  titleWords: TermDictionary;
  titlePostingStarts: Int32Array;
  titlePostings: Int32Array;
  /** Titles best first, their URLs, and their words (as title-word numbers, in the order written). */
  titles: StringColumn;
  titleUrls: StringColumn;
  titleWordStarts: Int32Array;
  titleWordIds: Int32Array;
}

/** Titles of equal rank, in the order of their text. */
export const titleOrder = new Intl.Collator().compare;

export class SuggestIndex {
  private constructor(private readonly columns: SuggestColumns) {}

  static empty(): SuggestIndex {
    return SuggestIndex.fromColumns({
      terms: emptyDictionary(),
      termScores: new Float64Array(0),
      titleWords: emptyDictionary(),
      titlePostingStarts: new Int32Array(1),
      titlePostings: new Int32Array(0),
      titles: StringColumn.fromStrings([]),
      titleUrls: StringColumn.fromStrings([]),
      titleWordStarts: new Int32Array(1),
      titleWordIds: new Int32Array(0),
    });
  }

  /** An index from saved columns (checked for consistent lengths by the caller). */
  static fromColumns(columns: SuggestColumns): SuggestIndex {
    return new SuggestIndex(columns);
  }

  get termCount(): number {
    return this.columns.terms.length;
  }

  /** The columns, to be saved. */
  toColumns(): SuggestColumns {
    return this.columns;
  }

  /**
   * Builds from pages; `rankOf` gives a page's estimated global PageRank (0 when unknown). With
   * the scale of the ranks given, pages are read one at a time; without it, their words are held
   * until the scale of their ranks is known. The event loop is served every 1,024 pages and
   * between the steps of the final sort and title index: a server rebuilds them beside searches.
   */
  static async build(pages: Iterable<SuggestSource> | AsyncIterable<SuggestSource>, rankOf: (id: number) => number, scale?: RankScale): Promise<SuggestIndex> {
    const builder = new SuggestIndexBuilder(rankOf, scale);
    let count = 0;
    for await (const source of pages) {
      builder.add(source);
      // Pages an iterator has buffered arrive as microtasks, which never let a timer or a request in.
      if (++count % 1024 === 0) await nextTurn();
    }
    return builder.doneYielding();
  }

  /**
   * Up to `limit` suggestions for what the visitor has typed: completed words first (the typed
   * words before the last kept as typed), then titles that contain every typed word (the last
   * as a prefix).
   */
  suggest(typed: string, limit = 8): Suggestion[] {
    const last = TYPED_WORD.exec(typed);
    if (last === null) return [];
    const written = last[0].replace(/['’]+$/, '');
    const prefix = written.toLowerCase();
    const words = [...surfaceWords(typed.slice(0, last.index)), prefix];
    const before = typed.slice(0, last.index).replace(/\s+/g, ' ').trimStart();
    const termLimit = Math.max(1, Math.ceil(limit / 2));
    const termSuggestions = this.completions(prefix, termLimit + 1, isIdentifier(written))
      .filter((term) => term !== prefix || words.length > 1)
      .slice(0, termLimit)
      .map((term): Suggestion => ({ text: `${before}${term}`, kind: 'term' }));
    const titleSuggestions = this.matchingTitles(words.slice(0, -1), prefix.replace(/[_.:/#]+$/, ''), limit - termSuggestions.length).map(
      (title): Suggestion => ({ text: title.title, kind: 'title', url: title.url }),
    );
    return [...termSuggestions, ...titleSuggestions];
  }

  /** Words starting with the prefix, best first (identifiers first when the prefix is code). */
  private completions(prefix: string, limit: number, codeFirst: boolean): string[] {
    const { terms, termScores } = this.columns;
    const [from, to] = terms.prefixRange(prefix);
    const rank = (i: number) => (codeFirst && hasJoiner(terms, i) ? 1e12 : 0) + termScores[i];
    const best: number[] = [];
    for (let i = from; i < to; i++) {
      if (best.length < limit) {
        best.push(i);
        best.sort((a, b) => rank(b) - rank(a));
      } else if (rank(i) > rank(best[best.length - 1])) {
        best[best.length - 1] = i;
        best.sort((a, b) => rank(b) - rank(a));
      }
    }
    return best.map((i) => terms.at(i));
  }

  private matchingTitles(complete: string[], prefix: string, limit: number): Array<{ title: string; url: string }> {
    if (limit <= 0) return [];
    const { titleWords, titlePostingStarts, titlePostings, titles, titleUrls, titleWordStarts, titleWordIds } = this.columns;
    const [from, to] = titleWords.prefixRange(prefix);
    if (from === to) return [];
    // Title words are distinct: a word is its number, and the words with the prefix are the range's.
    const completeIds = complete.map((word) => titleWords.find(word));
    const hasWord = (t: number, w: number) => {
      for (let i = titleWordStarts[t]; i < titleWordStarts[t + 1]; i++) if (titleWordIds[i] === w) return true;
      return false;
    };
    const hasPrefix = (t: number) => {
      for (let i = titleWordStarts[t]; i < titleWordStarts[t + 1]; i++) if (titleWordIds[i] >= from && titleWordIds[i] < to) return true;
      return false;
    };
    const matches = (t: number) => completeIds.every((w) => hasWord(t, w)) && hasPrefix(t);
    const size = titlePostingStarts[to] - titlePostingStarts[from];
    const found: number[] = [];
    if (size <= TITLE_UNION_LIMIT) {
      const candidates = new Set<number>();
      for (let i = titlePostingStarts[from]; i < titlePostingStarts[to]; i++) candidates.add(titlePostings[i]);
      for (const t of [...candidates].sort((a, b) => a - b)) {
        if (matches(t)) found.push(t);
        if (found.length === limit) break;
      }
    } else {
      // A common prefix: the best titles are likely among the first; walk them in order.
      for (let t = 0; t < titles.length && found.length < limit; t++) if (matches(t)) found.push(t);
    }
    return found.map((t) => ({ title: titles.at(t), url: titleUrls.at(t) }));
  }
}

/**
 * The suggestion index built one page at a time (SuggestIndex.build, or a pass over the store that
 * something else makes: the index build's). With the scale of the ranks given, a page is read
 * when added; without it, its words are held until the scale of all the ranks is known.
 */
export class SuggestIndexBuilder {
  // A word's number, its score, and the last page that counted it (pages are numbered from 1):
  // one lookup a word, no score object, no set of words a page.
  private readonly wordNumbers = new Map<string, number>();
  private readonly words: string[] = [];
  private scores = new Float64Array(1024);
  private lastPage = new Int32Array(1024);
  private pages = 0;
  // Titles as columns, not an object each: a million pages hold a million of them.
  private readonly titles: string[] = [];
  private readonly titleUrls: string[] = [];
  private readonly titleScores: number[] = [];
  private readonly held: SuggestPage[] = [];

  constructor(
    private readonly rankOf: (id: number) => number,
    private readonly scale?: RankScale,
  ) {}

  add(source: SuggestSource): void {
    const page: SuggestPage = {
      words: pageSurfaceWords(source),
      title: suggestTitle(source),
      url: source.url,
      rank: this.rankOf(source.id),
    };
    if (this.scale) this.count(page, logRankPosition(page.rank, this.scale));
    else this.held.push({ ...page, words: [...new Set(page.words)] });
  }

  done(): SuggestIndex {
    return runSteps(this.doneSteps());
  }

  /** {@link done} with the event loop served between its steps (a server rebuilding beside searches). */
  doneYielding(): Promise<SuggestIndex> {
    return runStepsYielding(this.doneSteps());
  }

  private *doneSteps(): Generator<void, SuggestIndex> {
    const { titles, titleUrls, titleScores, held } = this;
    if (held.length > 0) {
      const scaleOfPages = rankScale(held.map((p) => p.rank));
      for (const page of held) this.count(page, logRankPosition(page.rank, scaleOfPages));
      held.length = 0;
    }
    // Stop words are dropped once per distinct word, not once per page that uses them.
    const terms = this.words.filter((word) => !isStopWord(word)).sort();
    const termScores = Float64Array.from(terms, (term) => this.scores[this.wordNumbers.get(term)!]);
    // Best first; the sort is stable, so equal titles keep the order the pages came in.
    const order = yield* mergeSortSteps(Int32Array.from(titles, (_, t) => t), (a, b) => titleScores[b] - titleScores[a] || titleOrder(titles[a], titles[b]));
    const sorted = { titles: Array.from(order, (t) => titles[t]), urls: Array.from(order, (t) => titleUrls[t]) };
    yield;
    return SuggestIndex.fromColumns({ terms: TermDictionary.fromSorted(terms), termScores, ...(yield* titleColumnsSteps(sorted.titles, sorted.urls)) });
  }

  private count(page: SuggestPage, position: number): void {
    const pageNumber = ++this.pages;
    for (const word of page.words) {
      let w = this.wordNumbers.get(word);
      if (w === undefined) w = this.newWord(word);
      // Once a page, however often it uses the word.
      if (this.lastPage[w] === pageNumber) continue;
      this.lastPage[w] = pageNumber;
      // Added as (score + ½) + position: the saved index is the same, bit for bit, by every path.
      this.scores[w] = this.scores[w] + 0.5 + position;
    }
    if (page.title === '') return;
    this.titles.push(page.title);
    this.titleUrls.push(page.url);
    this.titleScores.push(position);
  }

  private newWord(word: string): number {
    const w = this.words.push(word) - 1;
    this.wordNumbers.set(word, w);
    if (w === this.scores.length) {
      const scores = new Float64Array(w * 2);
      scores.set(this.scores);
      this.scores = scores;
      const lastPage = new Int32Array(w * 2);
      lastPage.set(this.lastPage);
      this.lastPage = lastPage;
    }
    return w;
  }
}

interface SuggestPage {
  words: readonly string[];
  title: string;
  url: string;
  rank: number;
}

/** Titles (best first) as columns: their words numbered, and each word's titles. */
function* titleColumnsSteps(titles: string[], titleUrls: string[]): Generator<void, Pick<SuggestColumns, 'titleWords' | 'titlePostingStarts' | 'titlePostings' | 'titles' | 'titleUrls' | 'titleWordStarts' | 'titleWordIds'>> {
  const wordsOfTitles: string[][] = new Array(titles.length);
  const postings = new Map<string, number[]>();
  for (let t = 0; t < titles.length; t++) {
    const words = (wordsOfTitles[t] = surfaceWords(titles[t]));
    for (const word of new Set(words)) {
      const list = postings.get(word);
      if (list) list.push(t);
      else postings.set(word, [t]);
    }
    if (t % 4096 === 4095) yield;
  }
  yield;
  const titleWords = [...postings.keys()].sort();
  const wordNumber = new Map(titleWords.map((word, w) => [word, w]));
  const titlePostingStarts = new Int32Array(titleWords.length + 1);
  titleWords.forEach((word, w) => (titlePostingStarts[w + 1] = titlePostingStarts[w] + postings.get(word)!.length));
  const titlePostings = new Int32Array(titlePostingStarts[titleWords.length]);
  titleWords.forEach((word, w) => titlePostings.set(postings.get(word)!, titlePostingStarts[w]));
  const titleWordStarts = new Int32Array(titles.length + 1);
  wordsOfTitles.forEach((words, t) => (titleWordStarts[t + 1] = titleWordStarts[t] + words.length));
  const titleWordIds = new Int32Array(titleWordStarts[titles.length]);
  wordsOfTitles.forEach((words, t) => titleWordIds.set(words.map((word) => wordNumber.get(word)!), titleWordStarts[t]));
  yield;
  return {
    titleWords: TermDictionary.fromSorted(titleWords),
    titlePostingStarts,
    titlePostings,
    titles: StringColumn.fromStrings(titles),
    titleUrls: StringColumn.fromStrings(titleUrls),
    titleWordStarts,
    titleWordIds,
  };
}

/** Whether word i holds a joiner (`_ . : / #`): ASCII, so a byte of the entry is one. */
function hasJoiner(words: TermDictionary, i: number): boolean {
  const { bytes, offsets } = words;
  for (let b = offsets[i]; b < offsets[i + 1]; b++) {
    const byte = bytes[b];
    if (byte === 0x5f || byte === 0x2e || byte === 0x3a || byte === 0x2f || byte === 0x23) return true;
  }
  return false;
}
