/**
 * Text analysis shared by indexing, querying and snippets: a Unicode-aware tokenizer (lunr's own
 * splits only on spaces and hyphens and its trimmer drops non-ASCII letters), then lunr's stop-word
 * filter and Porter stemmer. The pipelines use only lunr's registered functions, so a segment's
 * lunr JSON loads with plain `lunr.Index.load`.
 */
import lunr from 'lunr';

const WORD = /[\p{L}\p{N}]+/gu;

/** Words of a string as lunr tokens, with lunr's `position` ([start, length]) and `index` metadata. */
export function tokenize(input: unknown, metadata?: object): lunr.Token[] {
  if (input === null || input === undefined) return [];
  const text = (Array.isArray(input) ? input.join('\n') : String(input)).toLowerCase();
  const tokens: lunr.Token[] = [];
  for (const match of text.matchAll(WORD)) {
    tokens.push(new lunr.Token(match[0], { ...(metadata ?? {}), position: [match.index, match[0].length], index: tokens.length }));
  }
  return tokens;
}

/** Same as lunr's `lunr.tokenizer` signature so a Builder can use it. */
export const lunrTokenizer = tokenize as unknown as typeof lunr.tokenizer;

/** The pipeline applied to indexed text and to query terms alike. */
export function indexPipelineFunctions(): lunr.PipelineFunction[] {
  return [lunr.stopWordFilter, lunr.stemmer];
}

const searchPipeline = new lunr.Pipeline();
searchPipeline.add(...indexPipelineFunctions());

/** The index terms of one query word or phrase: [] for a stop word. */
export function analyzeQueryText(text: string): string[] {
  return searchPipeline.run(tokenize(text)).map((token) => token.toString());
}

export interface AnalyzedToken {
  /** The index term (stemmed), or null for a stop word. */
  term: string | null;
  start: number;
  length: number;
  /** The token's ordinal in the text, stop words included (lunr's `index` metadata). */
  index: number;
}

const stopWordPipeline = new lunr.Pipeline();
stopWordPipeline.add(lunr.stopWordFilter);

/** Every word of a text with its offsets and its index term (used by snippets and phrases). */
export function analyzeText(text: string): AnalyzedToken[] {
  return tokenize(text).map((token, index) => {
    const { position } = (token as unknown as { metadata: { position: [number, number] } }).metadata;
    const kept = stopWordPipeline.run([token]).length > 0;
    return { term: kept ? stemWord(token.toString()) : null, start: position[0], length: position[1], index };
  });
}

// The Porter stemmer is pure and pages repeat words: memoise (bounded) for snippets.
const stemCache = new Map<string, string>();
export function stemWord(word: string): string {
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = lunr.stemmer(new lunr.Token(word, {})).toString();
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(word, stem);
  }
  return stem;
}
