/**
 * An exact name ranks first, as Sphinx's search puts its object index above full-text hits.
 *
 * At indexing, each name a page defines and the name its title gives (the title before the
 * site's suffix: `json` of `json — JSON encoder and decoder — Python 3.12`) become exact-name
 * terms: the name in lower case behind a mark analysis never puts in a term, so no query word
 * meets it — {@link EXACT_NAME_MARK} for a whole name (a definition's qualified name, a title),
 * {@link LAST_PARTS_MARK} for the last parts of a qualified one (`getcontext` of
 * `decimal.getcontext`; Sphinx's object search matches a last-part name too). A part of a name
 * is not a name: `version` is not an exact name of `VersionRequirementError`, although the
 * definitions field holds it as a word.
 *
 * At search, a query typed without operators is one name. A page defining it whole gets twice a
 * bound on any page's text score for the query; a page defining it as the last parts of a
 * qualified name, or titled by it, gets the bound once (the two add up). Pages defining the name
 * thus rank above pages that define something ending in it or are titled by it, which rank above
 * pages that only mention it (a module's source listing, a release note); within a tier the text
 * score orders them.
 *
 * A query of plain words (no identifier punctuation) is also matched after analysis (stems, no
 * stop words): a title or a heading whose analysed words are the query's (`primary key` →
 * section `Primary Keys`, `information schema` → `The Information Schema`) is a tier, the title
 * joining the exact-title tier once; a title whose plain words (not an identifier's parts)
 * hold every analysed word of the query among others (`history of PostgreSQL` → `A Brief History of PostgreSQL`) is another, so a page about
 * the query ranks above one whose short title matches one word. The bonus is a per-query constant known before any posting is read, so it is an
 * ordinary additive term for top-k pruning, its own upper bound.
 */
import { FIELD_NAMES, INDEX_FIELDS, qualifiedSuffixes, type TextDocument } from './document.ts';
import { termNumber, termPostings, type CompactSegment } from './compact-segment.ts';
import { intersectSorted } from './ordinal-lists.ts';
import { K1, type ScoringPlan } from './scoring-plan.ts';
import { COMMAND_OPTION } from './query-text.ts';
import { forEachToken } from './analysis.ts';
import { analysisLanguage } from './languages.ts';

export const EXACT_NAME_MARK = '=';
/** Mark of a title's or heading's words after analysis (stems, no stop words): {@link analyzedNameTerm}. */
export const ANALYZED_NAME_MARK = '>';
/** Mark of a title's plain word after analysis: {@link titleWordTerms}. */
export const TITLE_WORD_MARK = '+';
export const LAST_PARTS_MARK = '<';
export const TITLE_FIELD = FIELD_NAMES.indexOf('title');
export const HEADINGS_FIELD = FIELD_NAMES.indexOf('headings');
export const DEFINITIONS_FIELD = FIELD_NAMES.indexOf('definitions');
/** Multiples of the score bound a page gets for the query as its title, as a name it defines, as the last parts of one. */
export const TITLE_TIER = 1;
export const DEFINITION_TIER = 2;
export const LAST_PARTS_TIER = 1;
/** Multiple of the bound a page gets for a heading whose words, analysed, are the query's. */
export const HEADING_TIER = 1;
/** Multiple of the bound a page gets for a title holding every word of the query, analysed (in any order, among others). */
export const TITLE_WORDS_TIER = 1;
/**
 * Multiple of the bound a title equal to the query as written gets on top of {@link TITLE_TIER}
 * when analysis changes the query's words: a module named `ets` comes before the Event Tracer
 * `et`, whose title equals the query only once both are stemmed.
 */
export const WRITTEN_TITLE_TIER = 1;
/** Headings longer than this many terms are not typed whole as a query, and get no analysed-name term. */
const MAX_ANALYZED_NAME_TERMS = 12;
const FIELD_BOOSTS = INDEX_FIELDS.map((field) => field.boost);

const MARKS = new Set([EXACT_NAME_MARK, LAST_PARTS_MARK, ANALYZED_NAME_MARK, TITLE_WORD_MARK]);

/** Whether an index term is one of this module's marked terms, which no query word expands to. */
export function isMarkedTerm(term: string): boolean {
  return MARKS.has(term.charAt(0));
}

/** The exact-name term of a name or a query (`=os.path.join`, `=format file`), or null when it has no word. */
export function exactNameTerm(name: string): string | null {
  const normalized = name.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
  return /[\p{L}\p{N}]/u.test(normalized) ? EXACT_NAME_MARK + normalized : null;
}

/**
 * Words and nothing else (`Primary Keys`, `PL/Perl`, `Write-Ahead Log`): an identifier or an option
 * (`pg_dump`, `postgresql.conf`, `--settings`) is matched as written by the exact-name tiers, never
 * by its stems.
 */
const PLAIN_WORDS = /^\s*[\p{L}\p{N}\p{M}]+(?:['’/-][\p{L}\p{N}\p{M}]+)*(?:\s+[\p{L}\p{N}\p{M}]+(?:['’/-][\p{L}\p{N}\p{M}]+)*)*\s*$/u;

/**
 * The words of a title, heading or query after the analysis of `lang` (stems, stop words left
 * out), behind {@link ANALYZED_NAME_MARK}; null unless the text is {@link PLAIN_WORDS}: `Primary Keys`, `primary key` → `>primari key`;
 * `The Information Schema` → `>inform schema`. Null without a term, or past
 * {@link MAX_ANALYZED_NAME_TERMS}.
 */
export function analyzedNameTerm(text: string, lang: string): string | null {
  if (!PLAIN_WORDS.test(text)) return null;
  const terms: string[] = [];
  forEachToken(text.normalize('NFC'), lang, (term) => {
    if (term !== null) terms.push(term);
  });
  return terms.length === 0 || terms.length > MAX_ANALYZED_NAME_TERMS ? null : ANALYZED_NAME_MARK + terms.join(' ');
}

/** The analysed-name terms of a query in each analysis language it is read in (deduplicated). */
export function queryAnalyzedNames(input: string, languages: readonly string[]): string[] {
  if (queryExactName(input) === undefined) return [];
  return [...new Set(languages.flatMap((lang) => analyzedNameTerm(input, lang) ?? []))];
}

/** A manual's section number before a title (`73.4.`, `F.36.`, `Chapter 37.`, `Appendix C.`, `Part II.`). */
const SECTION_NUMBER = /^(?:(?:Chapter|Appendix|Part|Section)\s+(?:\d+|[IVXLC]+|[A-Z])\.?|\d+(?:\.\d+)*\.|[A-Z]\.\d+(?:\.\d+)*\.?)\s+(?=\S)/u;

/**
 * A title's own name: the part before a site's suffix (` — Sphinx documentation`, ` | Site`,
 * ` - Apache HTTP Server`), without a section number (`73.4. Visibility Map`).
 */
export function titleName(title: string): string {
  return title.split(/\s+[—–|-]\s+/)[0].replace(SECTION_NUMBER, '');
}

/** The exact-name terms of a document's title field and of its definitions field. */
export function documentExactNames(doc: TextDocument): { title: string[]; headings: string[]; definitions: string[] } {
  const lang = analysisLanguage(doc.lang);
  const name = titleName(doc.title);
  const title = exactNameTerm(name);
  const analyzedTitle = analyzedNameTerm(name, lang);
  const headings = new Set<string>();
  for (const heading of doc.headings) {
    const term = analyzedNameTerm(titleName(heading), lang);
    if (term !== null) headings.add(term);
  }
  const whole = new Set<string>();
  const lastParts = new Set<string>();
  for (const definition of doc.definitions ?? []) {
    const [name, ...suffixes] = qualifiedSuffixes(definition.name).map(exactNameTerm);
    if (name !== null) whole.add(name);
    for (const suffix of suffixes) if (suffix !== null) lastParts.add(suffix);
    const options = commandOptions(definition.name, definition.anchor);
    for (const { program, option } of options) {
      whole.add(exactNameTerm(`${program} ${option}`)!);
      if (program !== '') lastParts.add(exactNameTerm(option)!);
    }
  }
  const definitions = [...whole];
  for (const term of lastParts) if (!whole.has(term)) definitions.push(LAST_PARTS_MARK + term.slice(EXACT_NAME_MARK.length));
  const titleTerms = [title, analyzedTitle].filter((term): term is string => term !== null);
  titleTerms.push(...titleWordTerms(doc.title, lang));
  return { title: titleTerms, headings: [...headings], definitions };
}

/**
 * The options a Sphinx command-line option definition names, with their program: the anchor is
 * `cmdoption-<program>-<option without dashes>` and the text lists the option's spellings
 * (`--tag TAGS, -t TAGS` at `cmdoption-check-tag` → `check --tag`, `check -t`), so the index's
 * `makemigrations --check` or `sphinx-build -D` is a whole name.
 */
export function commandOptions(text: string, anchor: string | undefined): Array<{ program: string; option: string }> {
  if (anchor === undefined || !anchor.startsWith('cmdoption-')) return [];
  const rest = anchor.slice('cmdoption-'.length);
  const options = text.split(/,\s*/).map((spelling) => spelling.trim().split(/[\s=]/)[0]).filter((option) => /^--?[\p{L}\p{N}]/u.test(option));
  const bare = (option: string) => option.replace(/^-+/, '');
  const named = options.find((option) => rest === bare(option) || rest.endsWith(`-${bare(option)}`));
  if (named === undefined) return [];
  // No program (`cmdoption-settings`): the option alone.
  const program = rest.slice(0, Math.max(0, rest.length - bare(named).length - 1));
  return options.map((option) => ({ program, option }));
}

/** The term of a name's last-parts match, from its exact-name term. */
export function lastPartsTerm(exactName: string): string {
  return LAST_PARTS_MARK + exactName.slice(EXACT_NAME_MARK.length);
}

/** Query syntax that makes a query more than a name: operators, fields, boosts, patterns, phrases. */
const QUERY_SYNTAX = new RegExp(`(?:^|\\s)[+-]|[~^*"]|(?:^|\\s)(?:${FIELD_NAMES.join('|')}):`, 'iu');

/** The exact-name term of a query typed as a name (no operators), else undefined. */
export function queryExactName(input: string): string | undefined {
  // A command-line option's dash is not an operator (`sphinx-build -D`).
  if (QUERY_SYNTAX.test(input.replace(COMMAND_OPTION, 'x'))) return undefined;
  return exactNameTerm(input) ?? undefined;
}

/**
 * More than any page's text score for the query: each term's weight at the limit of BM25's term
 * frequency, in every field it is looked for.
 */
export function exactNameScoreBound(plan: Pick<ScoringPlan, 'terms' | 'magnitude'>): number {
  let bound = 0;
  for (const { weights, idf } of plan.terms) {
    for (let f = 0; f < FIELD_BOOSTS.length; f++) if (weights[f] > 0) bound += (weights[f] / plan.magnitude[f]) * (Math.ceil(idf * (K1 + 1) * FIELD_BOOSTS[f] * 1000) / 1000);
  }
  return bound;
}

/**
 * The bonus of each page of a segment that holds the query's exact name (ordinal → bonus), or
 * null when none does: the tiers of the title (as written or analysed), the heading, the title
 * holding every word, the whole definition and the last parts, added.
 */
export function exactNameBonuses(postings: CompactSegment, exactName: string, bound: number, analyzedNames: readonly string[] = []): Map<number, number> | null {
  if (bound <= 0) return null;
  let bonuses: Map<number, number> | null = null;
  const docsOf = (field: number, term: string): Iterable<number> => {
    const t = termNumber(postings, term);
    if (t < 0) return [];
    return termPostings(postings.fields[field], t).docs;
  };
  const addAll = (docs: Iterable<number>, tier: number) => {
    for (const d of docs) {
      bonuses ??= new Map();
      bonuses.set(d, (bonuses.get(d) ?? 0) + tier * bound);
    }
  };
  const add = (field: number, term: string, tier: number) => addAll(docsOf(field, term), tier);
  // A title matches as written or after analysis, once; as written, it also gets its own tier.
  const written = docsOf(TITLE_FIELD, exactName);
  const titled = new Set<number>(written);
  const headed = new Set<number>();
  for (const term of analyzedNames) {
    for (const d of docsOf(TITLE_FIELD, term)) titled.add(d);
    for (const d of docsOf(HEADINGS_FIELD, term)) headed.add(d);
  }
  addAll(titled, TITLE_TIER);
  // Only where analysis changed the query's words (`ets` → `et`): a source listing titled by a
  // module's dotted name must not pass the page that defines it.
  const query = exactName.slice(EXACT_NAME_MARK.length);
  if (analyzedNames.length > 0 && analyzedNames.every((name) => name.slice(ANALYZED_NAME_MARK.length) !== query)) addAll(written, WRITTEN_TITLE_TIER);
  addAll(headed, HEADING_TIER);
  addAll(titleHoldingAll(postings, analyzedNames), TITLE_WORDS_TIER);
  add(DEFINITIONS_FIELD, exactName, DEFINITION_TIER);
  add(DEFINITIONS_FIELD, lastPartsTerm(exactName), LAST_PARTS_TIER);
  return bonuses;
}

/**
 * The analysed terms of a title's plain words, behind {@link TITLE_WORD_MARK}: an identifier's
 * parts (`upgrade` of `pg_upgrade`) are not words of the title.
 */
export function titleWordTerms(title: string, lang: string): string[] {
  const terms = new Set<string>();
  for (const piece of title.normalize('NFC').split(/\s+/)) {
    const word = piece.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (word === '' || !PLAIN_WORDS.test(word)) continue;
    forEachToken(word, lang, (term) => {
      if (term !== null) terms.add(TITLE_WORD_MARK + term);
    });
  }
  return [...terms];
}

/** The pages whose title holds every word of one of the analysed names (each a query's words in one language). */
function titleHoldingAll(postings: CompactSegment, analyzedNames: readonly string[]): Set<number> {
  const holding = new Set<number>();
  const title = postings.fields[TITLE_FIELD];
  for (const name of analyzedNames) {
    // Rarest word first: what is carried from word to word is never larger than its shortest list.
    const lists = [...new Set(name.slice(ANALYZED_NAME_MARK.length).split(' '))]
      .map((word) => {
        const t = termNumber(postings, TITLE_WORD_MARK + word);
        return t < 0 ? NO_PAGES : termPostings(title, t).docs;
      })
      .sort((a, b) => a.length - b.length);
    let pages = lists[0] ?? NO_PAGES;
    for (let i = 1; i < lists.length && pages.length > 0; i++) pages = intersectSorted(pages, lists[i]);
    for (const d of pages) holding.add(d);
  }
  return holding;
}

const NO_PAGES = new Int32Array(0);
