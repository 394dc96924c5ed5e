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
import { FIELD_NAMES } from './document.ts';
import { QuerySyntaxError, QueryTooLongError } from './errors.ts';
import { analyzeQueryWord, analyzeQueryPattern, analyzePhrase, type PhraseWord } from './query-analysis.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
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
const NOT_WORD_OR_SYNTAX = /[^\p{L}\p{N}\p{M}_.\s+\-:*~^]/gu;

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
    const clause = phraseClause(phrase, operator === '-' ? 'prohibited' : 'required', field, languages);
    if (clause) clauses.push(clause);
    return ' ';
  });
  const lunrText = rest.replace(/"/g, ' ').replace(NOT_WORD_OR_SYNTAX, ' ').trim();
  if (lunrText !== '') clauses.push(...lunrClauses(lunrText, mode, languages, budget));
  keepWordLimit(clauses, budget);
  if (clauses.length > 0 && clauses.every((clause) => clause.presence === 'prohibited')) {
    throw new QuerySyntaxError('the query only excludes words: add a word to look for');
  }
  return { clauses, mode };
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
  const variants = analyzePhrase(text, languages);
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
    const size = clause.kind === 'phrase' ? Math.max(...clause.variants.map((words) => words.length)) : 1;
    if (words + size <= MAX_QUERY_WORDS) {
      words += size;
      continue;
    }
    const room = MAX_QUERY_WORDS - words;
    const ignored = clauses.length - i;
    if (clause.kind === 'phrase' && room >= 2) {
      clause.variants = clause.variants.map((variant) => variant.slice(0, room));
      i++;
    }
    clauses.splice(i);
    budget.limitReached('LSE_QUERY_WORD_LIMIT', `only the first ${MAX_QUERY_WORDS} words of the query were searched (${ignored} more ${ignored === 1 ? 'was' : 'were'} ignored)`);
    return;
  }
}

function lunrClauses(text: string, mode: MatchMode, languages: readonly string[], budget: QueryBudget): QueryClause[] {
  const query = new lunr.Query([...FIELD_NAMES]);
  try {
    new QueryParser(text, query).parse();
  } catch (error) {
    if (error instanceof lunr.QueryParseError) throw new QuerySyntaxError(error.message, { cause: error });
    throw error;
  }
  const clauses: QueryClause[] = [];
  for (const raw of query.clauses as unknown as LunrParsedClause[]) {
    const presence = presenceOf(raw.presence, mode);
    const defaulted = raw.presence === undefined || raw.presence === lunr.Query.presence.OPTIONAL;
    const fields = fieldNumbers(raw.fields);
    const boost = Number.isFinite(raw.boost) && raw.boost > 0 ? raw.boost : 1;
    const fuzzy = raw.editDistance !== undefined && raw.editDistance > 0;
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
    // A stop word is not in the index: drop it rather than require the impossible.
    if (word === null) continue;
    if (word.kind === 'term') {
      const clause: TermClause = { kind: 'term', terms: word.terms, pattern: false, fields, boost, presence, defaulted };
      if (defaulted && !isSegmentedScript(raw.term)) clause.typed = raw.term.toLowerCase();
      clauses.push(clause);
    } else clauses.push({ kind: 'phrase', variants: word.variants, fields, presence, defaulted, boost });
  }
  // Search as you type: the last word, when it is the input's last word too, also matches as a prefix.
  const last = clauses[clauses.length - 1];
  const lastRaw = (query.clauses as unknown as LunrParsedClause[]).at(-1);
  if (last?.kind === 'term' && last.typed !== undefined && lastRaw !== undefined && text.toLowerCase().endsWith(lastRaw.term.toLowerCase()) && last.typed.length >= MIN_PREFIX) {
    last.prefixPatterns = analyzeQueryPattern(`${last.typed}*`, false, languages);
  }
  return clauses;
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
    mode: 'any',
    clauses: parsed.clauses.map((clause) => (clause.defaulted ? { ...clause, presence: 'optional' } : clause)),
  };
}
