/**
 * The suggestion index computed from what each page contributes (suggest-contributions.ts) and
 * the ranks, with no page read: a word's score summed over its rows, the titles ordered by their
 * page's rank, and the title-word lists numbered — typed-array loops, served between steps of a
 * few milliseconds so that a server answers searches while it runs. The columns are the ones
 * SuggestIndex.build gives over the same pages, bit for bit: rows are taken in page-id order (the
 * order a full pass reads the store), each score is added as (score + ½) + position, and the
 * titles are sorted by the same stable comparison.
 */
import { logRankPosition, rankScale, type RankScale } from '../ranking/blend.ts';
import { mergeSortSteps } from '../stepwise.ts';
import { StringColumnBuilder } from '../text-index/string-column.ts';
import { DictionaryBuilder } from '../text-index/term-dictionary.ts';
import type { SuggestContributions } from './suggest-contributions.ts';
import { SuggestIndex, titleOrder, type SuggestColumns } from './suggest-index.ts';

/** Rows between yields in the score pass (about 150 words a row: a tenth of a millisecond). */
const ROWS_PER_STEP = 128;
/** Items between yields in the cheap loops (a word, a title). */
const ITEMS_PER_STEP = 2_048;
const stepEnds = (i: number) => i % ITEMS_PER_STEP === ITEMS_PER_STEP - 1;
/** Items between yields when each is read from a scattered place (about 1.5 µs an item at a million). */
const SCATTERED_ITEMS_PER_STEP = 512;
const scatteredStepEnds = (i: number) => i % SCATTERED_ITEMS_PER_STEP === SCATTERED_ITEMS_PER_STEP - 1;

/**
 * The suggestion index of the contributions ranked by `rankOf`, on `scale` (by default the scale
 * of the rows' own ranks, as SuggestIndex.build without a scale).
 */
export function* rankedSuggestionsSteps(c: SuggestContributions, rankOf: (id: number) => number, scale?: RankScale): Generator<void, SuggestIndex> {
  const rows = c.pageIds.length;
  const ranks = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    ranks[r] = rankOf(c.pageIds[r]);
    if (stepEnds(r)) yield;
  }
  const onScale = scale ?? rankScale(ranks);
  const positions = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    positions[r] = logRankPosition(ranks[r], onScale);
    if (stepEnds(r)) yield;
  }
  const termColumns = yield* termColumnsSteps(c, positions);
  const titleColumns = yield* titleColumnsSteps(c, positions);
  return SuggestIndex.fromColumns({ ...termColumns, ...titleColumns });
}

function* termColumnsSteps(c: SuggestContributions, positions: Float64Array): Generator<void, Pick<SuggestColumns, 'terms' | 'termScores'>> {
  const { vocabulary, sortedWords, stopWords, wordStarts, wordBytes } = c;
  const scores = new Float64Array(vocabulary.length);
  const used = new Uint8Array(vocabulary.length);
  for (let r = 0; r < positions.length; r++) {
    const position = positions[r];
    const end = wordStarts[r + 1];
    let w = 0;
    for (let at = wordStarts[r]; at < end; ) {
      let gap = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = wordBytes[at++];
        gap |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      w += gap;
      // As SuggestIndexBuilder adds it: the same sum, bit for bit.
      scores[w] = scores[w] + 0.5 + position;
      used[w] = 1;
    }
    if (r % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  let count = 0;
  for (let i = 0; i < sortedWords.length; i++) {
    if (used[sortedWords[i]] === 1 && stopWords[sortedWords[i]] === 0) count++;
    if (stepEnds(i)) yield;
  }
  const terms = new DictionaryBuilder();
  const termScores = new Float64Array(count);
  let t = 0;
  for (let i = 0; i < sortedWords.length; i++) {
    const w = sortedWords[i];
    if (stepEnds(i)) yield;
    if (used[w] === 0 || stopWords[w] === 1) continue;
    terms.addString(vocabulary[w]);
    termScores[t++] = scores[w];
  }
  yield;
  return { terms: terms.done(), termScores };
}

type TitleColumns = Pick<SuggestColumns, 'titleWords' | 'titlePostingStarts' | 'titlePostings' | 'titles' | 'titleUrls' | 'titleWordStarts' | 'titleWordIds'>;

function* titleColumnsSteps(c: SuggestContributions, positions: Float64Array): Generator<void, TitleColumns> {
  const { vocabulary, sortedWords, titles: rowTitles, urls, titleWordStarts: rowWordStarts, titleWordIds: rowWordIds } = c;
  // A row without a title has an empty entry.
  const hasTitle = (r: number) => rowTitles.offsets[r + 1] > rowTitles.offsets[r];
  let titled = 0;
  for (let r = 0; r < rowTitles.length; r++) {
    if (hasTitle(r)) titled++;
    if (stepEnds(r)) yield;
  }
  const rowOfTitle = new Int32Array(titled);
  for (let r = 0, t = 0; r < rowTitles.length; r++) {
    if (hasTitle(r)) rowOfTitle[t++] = r;
    if (stepEnds(r)) yield;
  }
  yield;
  // Best first; the sort is stable, so equal titles keep the order of their pages. Titles are
  // made strings only to order pages of equal rank, once each (a row is compared many times).
  const tiedTitles: Array<string | undefined> = new Array(rowTitles.length);
  const titleOf = (r: number) => (tiedTitles[r] ??= rowTitles.at(r));
  const byRank = yield* mergeSortSteps(rowOfTitle, (a, b) => positions[b] - positions[a] || titleOrder(titleOf(a), titleOf(b)));
  const titles = new StringColumnBuilder({ entries: titled, bytes: rowTitles.bytes.length });
  const titleUrls = new StringColumnBuilder({ entries: titled, bytes: urls.bytes.length });
  for (let t = 0; t < titled; t++) {
    titles.addEntry(rowTitles, byRank[t]);
    titleUrls.addEntry(urls, byRank[t]);
    // In rank order the entries are read from all over two large columns: a cache miss or more each.
    if (scatteredStepEnds(t)) yield;
  }
  // The words of some title, numbered in the order of their strings.
  const inTitle = new Uint8Array(vocabulary.length);
  for (let i = 0; i < rowWordIds.length; i++) {
    inTitle[rowWordIds[i]] = 1;
    if (stepEnds(i)) yield;
  }
  const titleWordOf = new Int32Array(vocabulary.length);
  const titleWordList = new DictionaryBuilder();
  for (let i = 0; i < sortedWords.length; i++) {
    if (inTitle[sortedWords[i]] === 1) {
      titleWordOf[sortedWords[i]] = titleWordList.length;
      titleWordList.addString(vocabulary[sortedWords[i]]);
    }
    if (stepEnds(i)) yield;
  }
  const titleWords = titleWordList.done();
  const titleWordStarts = new Int32Array(titled + 1);
  // In rank order: scattered reads, a million of them held a refresh's step 20-30 ms.
  for (let t = 0; t < titled; t++) {
    titleWordStarts[t + 1] = titleWordStarts[t] + rowWordStarts[byRank[t] + 1] - rowWordStarts[byRank[t]];
    if (scatteredStepEnds(t)) yield;
  }
  yield;
  const titleWordIds = new Int32Array(titleWordStarts[titled]);
  for (let t = 0, k = 0; t < titled; t++) {
    for (let i = rowWordStarts[byRank[t]]; i < rowWordStarts[byRank[t] + 1]; i++) titleWordIds[k++] = titleWordOf[rowWordIds[i]];
    if (scatteredStepEnds(t)) yield;
  }
  // Each word's titles, once a title, in title order.
  const lastTitle = new Int32Array(titleWords.length).fill(-1);
  const titlePostingStarts = new Int32Array(titleWords.length + 1);
  for (let t = 0; t < titled; t++) {
    for (let i = titleWordStarts[t]; i < titleWordStarts[t + 1]; i++) {
      const w = titleWordIds[i];
      if (lastTitle[w] === t) continue;
      lastTitle[w] = t;
      titlePostingStarts[w + 1]++;
    }
    if (stepEnds(t)) yield;
  }
  for (let w = 0; w < titleWords.length; w++) titlePostingStarts[w + 1] += titlePostingStarts[w];
  const cursor = titlePostingStarts.slice(0, titleWords.length);
  const titlePostings = new Int32Array(titlePostingStarts[titleWords.length]);
  lastTitle.fill(-1);
  for (let t = 0; t < titled; t++) {
    for (let i = titleWordStarts[t]; i < titleWordStarts[t + 1]; i++) {
      const w = titleWordIds[i];
      if (lastTitle[w] === t) continue;
      lastTitle[w] = t;
      titlePostings[cursor[w]++] = t;
    }
    if (stepEnds(t)) yield;
  }
  yield;
  return { titleWords, titlePostingStarts, titlePostings, titles: titles.done(), titleUrls: titleUrls.done(), titleWordStarts, titleWordIds };
}
