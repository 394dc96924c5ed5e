/**
 * The languages the text index analyses, each with its stemmer and stop words, and the script its
 * words are written in (a query word is analysed in the languages its script allows).
 *
 * Stemmers and stop words are the Snowball ones as packaged by @orama/stemmers and
 * @orama/stopwords. Measured against snowball-stemmers (the other packaging of the same Snowball
 * algorithms) on Debian Reference chapters: the same stems for de, fr, es, it, pt, nl (and 99.2 %
 * for ru, where @orama folds ё to е as Russian search expects), 2–6 times faster (German 15,449
 * words in 191 ms against 484 ms), ES modules with types. English keeps lunr's own Porter stemmer
 * and stop words, so an English index is the lunr index it always was.
 *
 * Chinese, Japanese and Korean are indexed as character bigrams and Thai as the words of
 * `Intl.Segmenter` (analysis.ts); other languages (and pages whose language cannot be told) get
 * the neutral analysis: lower-cased words, no stemming, no stop words.
 */
import lunr from 'lunr';
import { stemmer as arStem } from '@orama/stemmers/arabic';
import { stopwords as arStop } from '@orama/stopwords/arabic';
import { stemmer as hyStem } from '@orama/stemmers/armenian';
import { stopwords as hyStop } from '@orama/stopwords/armenian';
import { stemmer as bgStem } from '@orama/stemmers/bulgarian';
import { stopwords as bgStop } from '@orama/stopwords/bulgarian';
import { stemmer as daStem } from '@orama/stemmers/danish';
import { stopwords as daStop } from '@orama/stopwords/danish';
import { stemmer as nlStem } from '@orama/stemmers/dutch';
import { stopwords as nlStop } from '@orama/stopwords/dutch';
import { stemmer as fiStem } from '@orama/stemmers/finnish';
import { stopwords as fiStop } from '@orama/stopwords/finnish';
import { stemmer as frStem } from '@orama/stemmers/french';
import { stopwords as frStop } from '@orama/stopwords/french';
import { stemmer as deStem } from '@orama/stemmers/german';
import { stopwords as deStop } from '@orama/stopwords/german';
import { stemmer as elStem } from '@orama/stemmers/greek';
import { stopwords as elStop } from '@orama/stopwords/greek';
import { stemmer as huStem } from '@orama/stemmers/hungarian';
import { stopwords as huStop } from '@orama/stopwords/hungarian';
import { stemmer as idStem } from '@orama/stemmers/indonesian';
import { stopwords as idStop } from '@orama/stopwords/indonesian';
import { stemmer as gaStem } from '@orama/stemmers/irish';
import { stopwords as gaStop } from '@orama/stopwords/irish';
import { stemmer as itStem } from '@orama/stemmers/italian';
import { stopwords as itStop } from '@orama/stopwords/italian';
import { stemmer as ltStem } from '@orama/stemmers/lithuanian';
import { stopwords as ltStop } from '@orama/stopwords/lithuanian';
import { stemmer as neStem } from '@orama/stemmers/nepali';
import { stopwords as neStop } from '@orama/stopwords/nepali';
import { stemmer as noStem } from '@orama/stemmers/norwegian';
import { stopwords as noStop } from '@orama/stopwords/norwegian';
import { stemmer as ptStem } from '@orama/stemmers/portuguese';
import { stopwords as ptStop } from '@orama/stopwords/portuguese';
import { stemmer as roStem } from '@orama/stemmers/romanian';
import { stopwords as roStop } from '@orama/stopwords/romanian';
import { stemmer as ruStem } from '@orama/stemmers/russian';
import { stopwords as ruStop } from '@orama/stopwords/russian';
import { stemmer as srStem } from '@orama/stemmers/serbian';
import { stopwords as srStop } from '@orama/stopwords/serbian';
import { stemmer as esStem } from '@orama/stemmers/spanish';
import { stopwords as esStop } from '@orama/stopwords/spanish';
import { stemmer as svStem } from '@orama/stemmers/swedish';
import { stopwords as svStop } from '@orama/stopwords/swedish';
import { stemmer as taStem } from '@orama/stemmers/tamil';
import { stopwords as taStop } from '@orama/stopwords/tamil';
import { stemmer as trStem } from '@orama/stemmers/turkish';
import { stopwords as trStop } from '@orama/stopwords/turkish';
import { stemmer as ukStem } from '@orama/stemmers/ukrainian';
import { stopwords as ukStop } from '@orama/stopwords/ukrainian';
import { QuerySyntaxError } from './errors.ts';

export interface StemmedLanguage {
  stem: (word: string) => string;
  stopWords: readonly string[];
  script: string;
  alsoScript?: string;
}

const STEMMED: Record<string, StemmedLanguage> = {
  ar: { stem: arStem, stopWords: arStop, script: 'Arabic' },
  hy: { stem: hyStem, stopWords: hyStop, script: 'Armenian' },
  bg: { stem: bgStem, stopWords: bgStop, script: 'Cyrillic' },
  da: { stem: daStem, stopWords: daStop, script: 'Latin' },
  nl: { stem: nlStem, stopWords: nlStop, script: 'Latin' },
  fi: { stem: fiStem, stopWords: fiStop, script: 'Latin' },
  fr: { stem: frStem, stopWords: frStop, script: 'Latin' },
  de: { stem: deStem, stopWords: deStop, script: 'Latin' },
  el: { stem: elStem, stopWords: elStop, script: 'Greek' },
  hu: { stem: huStem, stopWords: huStop, script: 'Latin' },
  id: { stem: idStem, stopWords: idStop, script: 'Latin' },
  ga: { stem: gaStem, stopWords: gaStop, script: 'Latin' },
  it: { stem: itStem, stopWords: itStop, script: 'Latin' },
  lt: { stem: ltStem, stopWords: ltStop, script: 'Latin' },
  ne: { stem: neStem, stopWords: neStop, script: 'Devanagari' },
  no: { stem: noStem, stopWords: noStop, script: 'Latin' },
  pt: { stem: ptStem, stopWords: ptStop, script: 'Latin' },
  ro: { stem: roStem, stopWords: roStop, script: 'Latin' },
  ru: { stem: ruStem, stopWords: ruStop, script: 'Cyrillic' },
  sr: { stem: srStem, stopWords: srStop, script: 'Cyrillic', alsoScript: 'Latin' },
  es: { stem: esStem, stopWords: esStop, script: 'Latin' },
  sv: { stem: svStem, stopWords: svStop, script: 'Latin' },
  ta: { stem: taStem, stopWords: taStop, script: 'Tamil' },
  tr: { stem: trStem, stopWords: trStop, script: 'Latin' },
  uk: { stem: ukStem, stopWords: ukStop, script: 'Cyrillic' },
};

/** Languages whose words are character bigrams (analysis.ts) or dictionary-segmented words. */
export const SEGMENTED_LANGUAGES = ['ja', 'ko', 'th', 'zh'] as const;

/** The language of documents that do not name one (and of the lunr pipeline): English. */
export const DEFAULT_LANGUAGE = 'en';
export const NEUTRAL_LANGUAGE = 'und';

/** Languages with an analysis of their own, and `und` (the neutral one). */
export const SUPPORTED_LANGUAGES: readonly string[] = [...new Set(['en', ...Object.keys(STEMMED), ...SEGMENTED_LANGUAGES, NEUTRAL_LANGUAGE])].sort();

const stopWordSets = new Map<string, Set<string>>(Object.entries(STEMMED).map(([lang, entry]) => [lang, new Set(entry.stopWords)]));

/** A language code the search accepts (`lang` option): a supported language, else a 400 with the list. */
export class UnknownLanguageError extends QuerySyntaxError {
  readonly code = 'LSE_UNKNOWN_LANGUAGE';
  readonly statusCode = 400;
  readonly supported = SUPPORTED_LANGUAGES;

  constructor(lang: string) {
    super(`unknown language '${lang.slice(0, 40)}': supported languages are ${SUPPORTED_LANGUAGES.join(', ')}`);
    this.name = 'UnknownLanguageError';
  }
}

export function checkLanguage(lang: string): string {
  const code = String(lang).trim().toLowerCase();
  if (!SUPPORTED_LANGUAGES.includes(code)) throw new UnknownLanguageError(String(lang));
  return code;
}

/**
 * The analysis a document language gets: `en` (also for documents that name none), a Snowball
 * language, or neutral.
 */
export function analysisLanguage(lang: string | undefined): string {
  if (lang === undefined || lang === '') return DEFAULT_LANGUAGE;
  return lang === DEFAULT_LANGUAGE || lang in STEMMED ? lang : NEUTRAL_LANGUAGE;
}

export function hasStemmer(lang: string): boolean {
  return lang === DEFAULT_LANGUAGE || lang in STEMMED;
}

/** Whether a word in `script` can be a word of `lang` (only languages with a stemmer are told apart). */
export function languageWritesScript(lang: string, script: string): boolean {
  if (lang === DEFAULT_LANGUAGE) return script === 'Latin';
  const entry = STEMMED[lang];
  return entry !== undefined && (entry.script === script || entry.alsoScript === script);
}

const englishStopWords = new lunr.Pipeline();
englishStopWords.add(lunr.stopWordFilter);

export function isStopWord(word: string, lang: string): boolean {
  if (lang === DEFAULT_LANGUAGE) return englishStopWords.run([new lunr.Token(word, {})]).length === 0;
  return stopWordSets.get(lang)?.has(word) ?? false;
}

/**
 * The index term of a lower-cased word in a language: English terms are lunr's Porter stems;
 * other stemmed languages' stems carry their language (`de:haus`), so a page is matched only
 * through its own language's analysis; neutral words are the words themselves.
 */
export function stemTerm(word: string, lang: string): string {
  if (lang === DEFAULT_LANGUAGE) return lunr.stemmer(new lunr.Token(word, {})).toString();
  const entry = STEMMED[lang];
  return entry === undefined ? word : `${lang}:${entry.stem(word)}`;
}

/** The namespace prefix of a language's stemmed terms ('' for English and neutral terms). */
export function termPrefix(lang: string): string {
  return lang in STEMMED ? `${lang}:` : '';
}

export function stemmedLanguages(): string[] {
  return ['en', ...Object.keys(STEMMED)];
}

/** Whether a term carries a language's namespace (`de:haus`; an identifier's `::` is not one). */
export function isNamespacedTerm(term: string): boolean {
  return term.length > 3 && term.charCodeAt(2) === 0x3a /* : */ && term.charCodeAt(3) !== 0x3a && /^[a-z]{2}:/.test(term);
}
