/**
 * Text analysis shared by indexing, querying and snippets: a Unicode-aware word splitter (lunr's
 * own tokenizer splits only on spaces and hyphens, and its trimmer drops non-ASCII letters), then
 * lunr's stop-word filter and Porter stemmer. The search pipeline names only lunr's registered
 * functions, so a segment's lunr JSON loads with plain `lunr.Index.load`.
 */
import lunr from 'lunr';

const WORD = /[\p{L}\p{N}]+/gu;

/** Calls `visit` for every word of a text: lower-cased word, offset in the text, word ordinal. */
export function forEachWord(text: string, visit: (word: string, start: number, length: number, index: number) => void): void {
  WORD.lastIndex = 0;
  let index = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    // Lower-case the word, not the text: lower-casing can change lengths and so offsets.
    visit(match[0].toLowerCase(), match.index, match[0].length, index++);
  }
}

// Pages repeat words and stemming is most of the analysis time: memoise word → term (bounded).
const termCache = new Map<string, string | null>();
const stopWordPipeline = new lunr.Pipeline();
stopWordPipeline.add(lunr.stopWordFilter);

/** The index term of a lower-cased word: its Porter stem, or null for a stop word. */
export function indexTerm(word: string): string | null {
  let term = termCache.get(word);
  if (term === undefined) {
    const kept = stopWordPipeline.run([new lunr.Token(word, {})]).length > 0;
    term = kept ? lunr.stemmer(new lunr.Token(word, {})).toString() : null;
    if (termCache.size >= 200_000) termCache.clear();
    termCache.set(word, term);
  }
  return term;
}

export function stemWord(word: string): string {
  return lunr.stemmer(new lunr.Token(word, {})).toString();
}

/** lunr's stemmer, memoised; it carries lunr's label, so serialised pipelines name plain `stemmer`. */
const memoizedStemmer = ((token: lunr.Token) => token.update((word: string) => indexTerm(word) ?? stemWord(word))) as lunr.PipelineFunction;
(memoizedStemmer as unknown as { label: string }).label = 'stemmer';

/** The lunr pipeline applied to indexed text and to query terms alike. */
export function indexPipelineFunctions(): lunr.PipelineFunction[] {
  return [lunr.stopWordFilter, memoizedStemmer];
}

/** The index terms of a query word (several when punctuation splits it; none for a stop word). */
export function analyzeQueryText(text: string): string[] {
  const terms: string[] = [];
  forEachWord(text, (word) => {
    const term = indexTerm(word);
    if (term !== null) terms.push(term);
  });
  return terms;
}

export interface AnalyzedToken {
  /** The index term (stemmed), or null for a stop word. */
  term: string | null;
  start: number;
  length: number;
  /** The word's ordinal in the text, stop words included (positions count them). */
  index: number;
}

/** Every word of a text with its offsets and its index term (used by snippets and phrases). */
export function analyzeText(text: string): AnalyzedToken[] {
  const tokens: AnalyzedToken[] = [];
  forEachWord(text, (word, start, length, index) => tokens.push({ term: indexTerm(word), start, length, index }));
  return tokens;
}
