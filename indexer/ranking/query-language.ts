/**
 * The languages a query is written in, to choose which translation of a page a hit shows when
 * neither the request nor the visitor names one. Told from the query's script where the script
 * names one language (kana: Japanese, hangul: Korean, Thai), then from the analyses that matched:
 * a language whose analysis found more of the query's words in its pages than some other
 * language's did (`Northfield Recht` matches two words on German pages, one through the German
 * stemmer, one on the others). When every language matched as much, nothing is told.
 */
import { isNamespacedTerm } from '../text-index/languages.ts';
import { detectNgramLanguage } from '../text-index/language-ngrams/index.ts';
import { primaryLanguage } from '../text-index/language-detection.ts';

const SCRIPT_LANGUAGES: ReadonlyArray<[RegExp, string]> = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Thai}/u, 'th'],
];

export interface MatchedHit {
  /** The page's language. */
  lang: string;
  /** Index terms of the query found in the page (`de:gewiss`; English and neutral terms bare). */
  matchedTerms: readonly string[];
}

/** Languages of the query, most likely first (empty when it cannot be told). */
export function queryLanguages(q: string, hits: readonly MatchedHit[]): string[] {
  const languages: string[] = [];
  for (const [script, lang] of SCRIPT_LANGUAGES) if (script.test(q)) languages.push(lang);
  // Identifiers (`mod_rewrite`, `ProxyPass`) are written alike in every language: they tell none.
  if (q.replace(IDENTIFIER, ' ').trim() === '') return languages;
  const termsByLanguage = new Map<string, Set<string>>();
  for (const hit of hits) {
    let terms = termsByLanguage.get(hit.lang);
    if (!terms) termsByLanguage.set(hit.lang, (terms = new Set()));
    // A namespaced term of another language cannot be this page's; count the page's own terms.
    for (const term of hit.matchedTerms) if (!isNamespacedTerm(term) || term.startsWith(`${hit.lang}:`)) terms.add(term);
  }
  const counts = [...termsByLanguage].map(([lang, terms]) => ({ lang, count: terms.size }));
  const least = Math.min(...counts.map((c) => c.count));
  counts.sort((a, b) => b.count - a.count || a.lang.localeCompare(b.lang));
  for (const { lang, count } of counts) if (count > least && !languages.includes(lang) && lang !== 'und') languages.push(lang);
  return languages;
}

/** Fewer letters than this (after identifiers are set aside) do not tell a query's language. */
const MIN_QUERY_LETTERS = 6;
/** The detected language must score this much above the next one, relatively (short texts score close). */
const MIN_QUERY_MARGIN = 0.05;
const HAN = /\p{Script=Han}/u;
const IDENTIFIER = /\S*[_.:/#@\d]\S*|\S*[a-z][A-Z]\S*/g;

/**
 * The language a query is written in, when it can be told with confidence: from its script where
 * the script names one language (kana: Japanese, hangul: Korean, Thai), else from the language
 * detector (eld) when the query has enough letters outside identifiers and the best language
 * scores clearly above the next (`virtual host documentation` → en; `虚拟主机` → zh; `kernel`,
 * `installation` or `Virtuelle Hosts Dokumentation` tell nothing). Only a language for which
 * `known` holds (one of the site's) is answered.
 */
export function writtenLanguage(q: string, known: (lang: string) => boolean): string | undefined {
  for (const [script, lang] of SCRIPT_LANGUAGES) if (script.test(q)) return known(lang) ? lang : undefined;
  const words = q.replace(IDENTIFIER, ' ').replace(/[^\p{L}\p{M}\s]/gu, ' ').replace(/\s+/g, ' ').trim();
  const letters = words.replace(/\s/g, '').length;
  // Han characters carry more than a Latin letter each: two of them are a word.
  if (letters < (HAN.test(words) ? 2 : MIN_QUERY_LETTERS)) return undefined;
  const result = detectNgramLanguage(words);
  if (result.language === '' || !result.isReliable()) return undefined;
  const scores = Object.values(result.getScores()).sort((a, b) => b - a);
  if (scores.length > 1 && scores[0] - scores[1] < scores[0] * MIN_QUERY_MARGIN) return undefined;
  const lang = primaryLanguage(result.language) ?? undefined;
  return lang !== undefined && known(lang) ? lang : undefined;
}
