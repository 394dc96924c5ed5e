/**
 * The languages a query is written in, to choose which translation of a page a hit shows when
 * neither the request nor the visitor names one. Told from the query's script where the script
 * names one language (kana: Japanese, hangul: Korean, Thai), then from the analyses that matched:
 * a language whose analysis found more of the query's words in its pages than some other
 * language's did (`Northfield Recht` matches two words on German pages, one through the German
 * stemmer, one on the others). When every language matched as much, nothing is told.
 */
import { isNamespacedTerm } from '../text-index/languages.ts';

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
