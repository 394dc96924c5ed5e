/**
 * A query word analysed the way pages are (analysis.ts), in every language it may be written in:
 * the query's languages whose script the word is in, and always the neutral analysis (identifier
 * wholes, CJK bigrams, Thai words and pages of unknown language are indexed neutrally). A page
 * matches through its own language's term only, since stemmed terms carry their language.
 */
import { analyzeText, identifierPieces, scriptOf, wordTerm, type AnalyzedToken } from './analysis.ts';
import { hasStemmer, isStopWord, languageWritesScript, NEUTRAL_LANGUAGE, termPrefix } from './languages.ts';

export interface PhraseWord {
  term: string;
  /** Word offset from the phrase's first indexed word. */
  offset: number;
}

/**
 * A word's alternative terms; an identifier (`ets:insert`, `os.path.join`) also has `parts`, each
 * with its alternatives: a page matches with the whole, or with every part.
 */
export type QueryWord = { kind: 'term'; terms: string[]; parts?: string[][] } | { kind: 'phrase'; variants: PhraseWord[][] };

/** The analysis languages a word is analysed in: the stemmed ones of its script, then the neutral one. */
export function wordLanguages(word: string, languages: readonly string[]): string[] {
  const script = scriptOf(word);
  const stemmed = script === null ? [] : languages.filter((lang) => hasStemmer(lang) && languageWritesScript(lang, script));
  return [...stemmed, NEUTRAL_LANGUAGE];
}

/** A query word (one lunr term) → its alternatives, a phrase (CJK, `galileo's`), or null for a stop word. */
export function analyzeQueryWord(raw: string, languages: readonly string[]): QueryWord | null {
  const langs = wordLanguages(raw, languages);
  const lower = raw.toLowerCase();
  const terms = new Set<string>();
  const variants: PhraseWord[][] = [];
  let identifier = false;
  for (const lang of langs) {
    const tokens = analyzeText(raw, lang);
    const whole = identifierWhole(raw, tokens);
    if (whole !== null) {
      // An identifier: found by its whole as pages write it, or as one word of the page's language.
      identifier = true;
      terms.add(whole);
      const asWord = wordTerm(whole, lang);
      if (asWord !== null) terms.add(asWord);
      continue;
    }
    const words = phraseWords(tokens);
    if (words === null) return null;
    if (words.length === 1) {
      // A stop word of any of the word's languages is dropped, as it is from those pages.
      if (tokens.length === 1 && lang !== NEUTRAL_LANGUAGE && isStopWord(lower, lang)) return null;
      terms.add(words[0].term);
    } else variants.push(words);
  }
  if (variants.length === 0) {
    if (terms.size === 0) return null;
    const parts = identifier ? identifierParts(raw, languages) : null;
    return parts === null ? { kind: 'term', terms: [...terms] } : { kind: 'term', terms: [...terms], parts };
  }
  return { kind: 'phrase', variants: uniqueVariants(variants) };
}

/**
 * An identifier's parts with their alternatives (`gen_server:call/3` → gen_server, call, 3;
 * `mod_rewrite` → mod, rewrite), stop words left out; null when fewer than two remain.
 */
function identifierParts(raw: string, languages: readonly string[]): string[][] | null {
  const parts: string[][] = [];
  for (const piece of identifierPieces(raw)) {
    const word = analyzeQueryWord(piece, languages);
    if (word?.kind === 'term') parts.push(word.terms);
  }
  return parts.length >= 2 ? parts : null;
}

/** A quoted phrase in each of its languages (a variant per language; empty when only stop words). */
export function analyzePhrase(text: string, languages: readonly string[]): PhraseWord[][] {
  const variants: PhraseWord[][] = [];
  for (const lang of wordLanguages(text, languages)) {
    const words = phraseWords(analyzeText(text, lang));
    if (words !== null) variants.push(words);
  }
  return uniqueVariants(variants);
}

/**
 * Wildcard (`tele*`, unstemmed as lunr does) and fuzzy (`orbit~1`, stemmed first) patterns in
 * each language's namespace.
 */
export function analyzeQueryPattern(raw: string, stem: boolean, languages: readonly string[]): string[] {
  const patterns = new Set<string>();
  const lower = raw.toLowerCase();
  for (const lang of wordLanguages(lower.replace(/\*/g, ''), languages)) {
    let pattern: string | null = lower;
    if (stem) {
      const words = phraseWords(analyzeText(lower, lang));
      pattern = words === null ? null : words[0].term;
    } else pattern = termPrefix(lang) + lower;
    if (pattern !== null && pattern.replace(/\*/g, '') !== '') patterns.add(pattern);
  }
  return [...patterns];
}

/** The whole of an identifier query word (`mod_rewrite`, `RewriteRule`), or null. */
function identifierWhole(raw: string, tokens: readonly AnalyzedToken[]): string | null {
  if (tokens.length < 2) return null;
  const first = tokens[0];
  if (first.term === null || first.length < raw.replace(/^_+|_+$/g, '').length) return null;
  return tokens[1].index === first.index ? first.term : null;
}

/** Indexed words with their offsets from the first (stop words leave gaps); null when none. */
function phraseWords(tokens: readonly AnalyzedToken[]): PhraseWord[] | null {
  const indexed = tokens.filter((token) => token.term !== null);
  if (indexed.length === 0) return null;
  const first = indexed[0].index;
  return indexed.map((token) => ({ term: token.term!, offset: token.index - first }));
}

function uniqueVariants(variants: PhraseWord[][]): PhraseWord[][] {
  const seen = new Set<string>();
  return variants.filter((words) => {
    const key = words.map((w) => `${w.offset}\u0000${w.term}`).join('\u0001');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
