/**
 * From what a user types to query clauses. lunr's own syntax is kept (`+term`, `-term`,
 * `field:term`, `term^2`, `term~1`, `tele*`), parsed by lunr's QueryParser; on top of it:
 * - a word without an operator is required in `all` mode (the default: every word must occur, like
 *   web search engines) and optional in `any` mode (lunr's default OR);
 * - `"quoted words"` is a phrase: its words must occur next to each other in one field (stop words
 *   inside count as positions); `-"…"` excludes the phrase;
 * - punctuation that is not syntax is a word separator ("galileo's" → galileo s);
 * - errors are QuerySyntaxError with lunr's message (e.g. "unrecognised field 'foo', possible
 *   fields: …"); an empty query and one with only excluded words are errors too.
 */
import lunr from 'lunr';
import { FIELD_NAMES, urlWords } from './document.ts';
import { QuerySyntaxError, QueryTooLongError } from './errors.ts';
import { analyzeQueryWord, analyzeQueryPattern, analyzePhrase, type PhraseWord } from './query-analysis.ts';
import { DEFAULT_LANGUAGE, NEUTRAL_LANGUAGE } from './languages.ts';
import { queryAnalyzedNames, queryExactName } from './exact-name.ts';
import { setAsideCode, setAsideWord, type SetAside } from './query-text.ts';
import { isSegmentedScript } from './analysis.ts';
import { MAX_EDIT_DISTANCE, MAX_QUERY_CHARS, MAX_QUERY_WORDS, QueryBudget } from './query-budget.ts';

export type Presence = 'optional' | 'required' | 'prohibited';
export type MatchMode = 'all' | 'any';

export interface TermClause {
  kind: 'term';
  /**
   * The word's index terms in each language it is analysed in (any of them matches: a page
   * matches through its own language's term), or the patterns when `pattern`.
   */
  terms: string[];
  /** True for wildcard and fuzzy clauses: `terms[0]` is expanded against the dictionaries. */
  pattern: boolean;
  editDistance?: number;
  /** Field numbers (indexes into FIELD_NAMES). */
  fields: number[];
  boost: number;
  presence: Presence;
  /** The word carried no operator (its presence came from the match mode). */
  defaulted: boolean;
  /**
   * A plain word as typed (not CJK): when the index does not know it (or hardly), words within
   * an edit or two also match, below exact matches (expansion.ts).
   */
  typed?: string;
  /** The query's last word: it also matches as an unstemmed prefix, one pattern per language. */
  prefixPatterns?: string[];
  /**
   * An identifier's parts (`ets:insert` → ets, insert), each with its alternatives: a page matches
   * with one of `terms` (the whole) or with every part (written apart, as in `ets` … `insert/2`).
   */
  parts?: string[][];
}

export interface PhraseClause {
  kind: 'phrase';
  /** Index terms with their offsets in the phrase (stop words leave gaps), one variant per language; any may match. */
  variants: PhraseWord[][];
  fields: number[];
  /** Quoted phrases are required or excluded; a query word that analysis cuts in several (CJK) may be optional. */
  presence: Presence;
  defaulted?: boolean;
  boost?: number;
}

export type QueryClause = TermClause | PhraseClause;

export interface ParsedQuery {
  clauses: QueryClause[];
  mode: MatchMode;
  /** The query as one name, when typed without operators: pages defining it or titled by it rank first (exact-name.ts). */
  exactName?: string;
  /** The query's words after analysis, per language, when it is a name: pages titled or headed so rank first (exact-name.ts). */
  analyzedNames?: string[];
}

interface LunrParsedClause {
  term: string;
  fields: string[];
  boost: number;
  usePipeline: boolean;
  editDistance?: number;
  presence?: number;
}

// lunr.QueryParser exists at run time (lunr 2.3.9) but @types/lunr does not declare it.
const QueryParser = (lunr as unknown as { QueryParser: new (text: string, query: lunr.Query) => { parse(): lunr.Query } }).QueryParser;

const PHRASE = /([+-]?)(?:([\p{L}\p{N}_]+):)?"([^"]*)"/gu;
// Everything that is neither a word character nor lunr syntax separates words.
// `_` and `.` stay: they join identifiers (`mod_rewrite`, `os.path.join`), which analysis keeps whole.
const NOT_WORD_OR_SYNTAX = /[^\p{L}\p{N}\p{M}_.\s+\-:*~^\uE000]/gu;

const ALL_FIELDS = FIELD_NAMES.map((_, i) => i);

/**
 * Parses a query, analysing its words in `languages` (analysis languages: those of the index's
 * pages, or the one the searcher asked for; English by default).
 */
export function parseUserQuery(input: string, mode: MatchMode = 'all', languages: readonly string[] = [DEFAULT_LANGUAGE], budget = new QueryBudget()): ParsedQuery {
  if (typeof input !== 'string' || input.trim() === '') throw new QuerySyntaxError('empty query');
  if (input.length > MAX_QUERY_CHARS) throw new QueryTooLongError(`the query has ${input.length.toLocaleString('en')} characters; at most ${MAX_QUERY_CHARS.toLocaleString('en')} are read`);
  const clauses: QueryClause[] = [];
  const rest = input.replace(PHRASE, (_match, operator: string, field: string | undefined, phrase: string) => {
    // `note:"…"` names no field: the word is text.
    const known = field === undefined || (FIELD_NAMES as readonly string[]).includes(field.toLowerCase());
    const clause = phraseClause(phrase, operator === '-' ? 'prohibited' : 'required', known ? field : undefined, languages);
    if (clause) clauses.push(clause);
    return known ? ' ' : ` ${field} `;
  });
  const { text: readable, words: setAside } = setAsideCode(rest.replace(/"/g, ' '));
  const lunrText = readable.replace(NOT_WORD_OR_SYNTAX, ' ').trim();
  const words = lunrText === '' ? { clauses: [], stopWords: [] } : lunrClauses(lunrText, mode, languages, budget, setAside);
  clauses.push(...words.clauses);
  // A query of stop words only (`If`, `the who`) searches them: titles and headings index them as written.
  if (!clauses.some((clause) => clause.presence !== 'prohibited')) clauses.push(...words.stopWords);
  keepWordLimit(clauses, budget);
  if (clauses.length === 0) throw new QuerySyntaxError('the query has no words to search');
  if (clauses.every((clause) => clause.presence === 'prohibited')) {
    throw new QuerySyntaxError('the query only excludes words: add a word to look for');
  }
  const exactName = queryExactName(input);
  return exactName === undefined ? { clauses, mode } : { clauses, mode, exactName, analyzedNames: queryAnalyzedNames(input, languages) };
}

function fieldNumbers(names: readonly string[]): number[] {
  return names.map((name) => {
    const index = FIELD_NAMES.indexOf(name as (typeof FIELD_NAMES)[number]);
    if (index < 0) throw new QuerySyntaxError(`unrecognised field '${name}', possible fields: ${FIELD_NAMES.map((f) => `'${f}'`).join(', ')}`);
    return index;
  });
}

function phraseClause(text: string, presence: 'required' | 'prohibited', field: string | undefined, languages: readonly string[]): QueryClause | null {
  const fields = field === undefined ? ALL_FIELDS : fieldNumbers([field.toLowerCase()]);
  let variants = analyzePhrase(text, languages);
  // A phrase of stop words only (`"the who"`) is searched as written, as titles and headings index it.
  if (variants.length === 0) variants = analyzePhrase(text, [NEUTRAL_LANGUAGE]);
  if (variants.length === 0) return null;
  if (variants.every((words) => words.length === 1)) {
    // One indexed word: a plain term (required like any quoted text, whatever the mode).
    return { kind: 'term', terms: [...new Set(variants.map((words) => words[0].term))], pattern: false, fields, boost: 1, presence, defaulted: false };
  }
  return { kind: 'phrase', variants, fields, presence };
}

/**
 * Keeps the first {@link MAX_QUERY_WORDS} words (a phrase counts its words; a longer phrase is cut):
 * the rest are ignored, and the answer says so.
 */
function keepWordLimit(clauses: QueryClause[], budget: QueryBudget): void {
  let words = 0;
  for (let i = 0; i < clauses.length; i++) {
    const clause = clauses[i];
    // A phrase counts its words, an identifier or URL its parts.
    const size = clause.kind === 'phrase' ? Math.max(...clause.variants.map((words) => words.length)) : Math.max(1, clause.parts?.length ?? 0);
    if (words + size <= MAX_QUERY_WORDS) {
      words += size;
      continue;
    }
    const room = MAX_QUERY_WORDS - words;
    const ignored = clauses.length - i;
    if (clause.kind === 'phrase' && room >= 2) {
      clause.variants = clause.variants.map((variant) => variant.slice(0, room));
      i++;
    } else if (clause.kind === 'term' && clause.parts !== undefined && room >= 2) {
      clause.parts = clause.parts.slice(0, room);
      i++;
    }
    clauses.splice(i);
    budget.limitReached('LSE_QUERY_WORD_LIMIT', `only the first ${MAX_QUERY_WORDS} words of the query were searched (${ignored} more ${ignored === 1 ? 'was' : 'were'} ignored)`);
    return;
  }
}

interface WordClauses {
  clauses: QueryClause[];
  /** Stop words of the query, as terms: searched when the query has nothing else. */
  stopWords: TermClause[];
}

function lunrClauses(text: string, mode: MatchMode, languages: readonly string[], budget: QueryBudget, setAside: readonly SetAside[]): WordClauses {
  const parsed = parseLunr(text, budget);
  const clauses: QueryClause[] = [];
  const stopWords: TermClause[] = [];
  let lastClause: QueryClause | undefined;
  for (const raw of parsed) {
    lastClause = undefined;
    const presence = presenceOf(raw.presence, mode);
    const defaulted = raw.presence === undefined || raw.presence === lunr.Query.presence.OPTIONAL;
    const fields = fieldNumbers(raw.fields);
    const boost = Number.isFinite(raw.boost) && raw.boost > 0 ? raw.boost : 1;
    const fuzzy = raw.editDistance !== undefined && raw.editDistance > 0;
    const aside = setAsideWord(raw.term, setAside);
    if (aside !== null) {
      const wildcard = raw.term.endsWith('*');
      lastClause = setAsideClause(aside, wildcard, { fields, boost, presence, defaulted }, languages) ?? undefined;
      if (lastClause) clauses.push(lastClause);
      continue;
    }
    if (fuzzy && raw.editDistance! > MAX_EDIT_DISTANCE) {
      budget.notice('LSE_QUERY_EDIT_DISTANCE_CAPPED', `an edit distance above ${MAX_EDIT_DISTANCE} (${raw.term}~${raw.editDistance}) was searched as ${MAX_EDIT_DISTANCE}`);
      raw.editDistance = MAX_EDIT_DISTANCE;
    }
    if (!raw.usePipeline || fuzzy) {
      // Wildcards are matched unstemmed (as lunr does); fuzzy terms are stemmed first.
      const patterns = analyzeQueryPattern(raw.term, raw.usePipeline, languages);
      if (patterns.length === 0) continue;
      clauses.push({ kind: 'term', terms: patterns, pattern: true, editDistance: fuzzy ? raw.editDistance : undefined, fields, boost, presence, defaulted });
      continue;
    }
    const word = analyzeQueryWord(raw.term, languages);
    if (word === null) {
      // A stop word is not in the index's body text: dropped, unless the query has nothing else.
      const asWritten = analyzeQueryWord(raw.term, [NEUTRAL_LANGUAGE]);
      if (asWritten?.kind === 'term') stopWords.push({ kind: 'term', terms: asWritten.terms, pattern: false, fields, boost, presence, defaulted });
      continue;
    }
    if (word.kind === 'term') {
      const clause: TermClause = { kind: 'term', terms: word.terms, pattern: false, fields, boost, presence, defaulted };
      if (word.parts) clause.parts = word.parts;
      if (defaulted && !isSegmentedScript(raw.term)) clause.typed = raw.term.toLowerCase();
      clauses.push((lastClause = clause));
    } else clauses.push({ kind: 'phrase', variants: word.variants, fields, presence, defaulted, boost });
  }
  // Search as you type: the last word, when it is the input's last word too, also matches as a prefix.
  const lastRaw = parsed.at(-1);
  if (lastClause?.kind === 'term' && lastClause.typed !== undefined && lastRaw !== undefined && text.toLowerCase().endsWith(lastRaw.term.toLowerCase()) && lastClause.typed.length >= MIN_PREFIX) {
    lastClause.prefixPatterns = analyzeQueryPattern(`${lastClause.typed}*`, false, languages);
  }
  return { clauses, stopWords };
}

/**
 * lunr's parse of the words; a query lunr cannot read (`comet^x`, `title:`, `a~b`) is read again
 * as plain words, and the answer says so.
 */
function parseLunr(text: string, budget: QueryBudget): LunrParsedClause[] {
  try {
    const query = new lunr.Query([...FIELD_NAMES]);
    new QueryParser(text, query).parse();
    return query.clauses as unknown as LunrParsedClause[];
  } catch (error) {
    if (!(error instanceof lunr.QueryParseError)) throw error;
    budget.notice('LSE_QUERY_SYNTAX_FALLBACK', `${error.message}: the query was searched as plain words`);
    const plain = text.replace(/[+\-:~^*]/g, ' ').trim();
    if (plain === '') return [];
    const query = new lunr.Query([...FIELD_NAMES]);
    new QueryParser(plain, query).parse();
    return query.clauses as unknown as LunrParsedClause[];
  }
}

/** The clause of an identifier or URL that lunr's parser would have cut. */
function setAsideClause(word: SetAside, wildcard: boolean, clause: Pick<TermClause, 'fields' | 'boost' | 'presence' | 'defaulted'>, languages: readonly string[]): TermClause | null {
  if (word.kind === 'url') {
    // A URL: its host and path words, all of them (the page's URL field holds the same words).
    const parts = urlWords(word.text)
      .split(' ')
      .flatMap((part) => {
        const analyzed = part === '' ? null : analyzeQueryWord(part, languages);
        return analyzed?.kind === 'term' ? [analyzed.terms] : [];
      });
    if (parts.length === 0) return null;
    return parts.length === 1 ? { kind: 'term', terms: parts[0], pattern: false, ...clause } : { kind: 'term', terms: [], parts, pattern: false, ...clause };
  }
  if (wildcard) return { kind: 'term', terms: analyzeQueryPattern(`${word.text}*`, false, languages), pattern: true, ...clause };
  const analyzed = analyzeQueryWord(word.text, languages);
  if (analyzed?.kind !== 'term') return null;
  const result: TermClause = { kind: 'term', terms: analyzed.terms, pattern: false, ...clause };
  if (analyzed.parts) result.parts = analyzed.parts;
  if (clause.defaulted) result.typed = word.text.toLowerCase();
  return result;
}

/** Shorter last words are not expanded as prefixes (too many words start with them). */
const MIN_PREFIX = 3;

function presenceOf(lunrPresence: number | undefined, mode: MatchMode): Presence {
  if (lunrPresence === lunr.Query.presence.REQUIRED) return 'required';
  if (lunrPresence === lunr.Query.presence.PROHIBITED) return 'prohibited';
  return mode === 'all' ? 'required' : 'optional';
}

/** The same query in the other mode (words without an operator become optional). */
export function relaxQuery(parsed: ParsedQuery): ParsedQuery {
  return {
    ...parsed,
    mode: 'any',
    clauses: parsed.clauses.map((clause) => (clause.defaulted ? { ...clause, presence: 'optional' } : clause)),
  };
}
