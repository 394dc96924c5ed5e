/**
 * One hit per page, whatever its copies and translations. Ranked candidates that belong to one
 * group (exact or near duplicates, canonical links, hreflang translations) are shown once, at the
 * place of the best ranked of them. The hit shows the page in the first preferred language
 * (requested, then the visitor's, then the query's own) that a candidate that matched is written
 * in, or that a copy of such a candidate (the same text) is stored in; of that language's pages,
 * the one whose URL names the language, else the one with the highest local PageRank, else the
 * shortest URL. The others are listed with it: the same language's copies as `duplicates`, the
 * other languages as `alternates`.
 *
 * What a group does not owe to the query — its members per language in that order, its
 * alternates, its summed PageRank — is computed once per page table and rank vector
 * ({@link GroupTable}), so that grouping a query's candidates reads arrays.
 */
import { rankScaleSteps, type RankScale } from './blend.ts';
import { runSteps } from '../stepwise.ts';
import type { PageFacts } from './page-facts.ts';

export interface GroupCandidate {
  id: number;
}

export interface HitGroup<C extends GroupCandidate> {
  /** The candidate whose title and snippet are shown. */
  shown: C;
  /** The group's candidates that matched, in rank order. */
  matched: readonly C[];
  /** The URL shown (the shown page, or a copy of it preferred by the rules above). */
  url: string;
  /** The row of the page whose URL is shown (-1 outside the page table). */
  row: number;
  lang?: string;
  duplicates: string[];
  alternates: Array<{ url: string; lang: string }>;
}

/** A group's pages of one language, best first. */
interface LanguageRows {
  code: number;
  lang: string;
  rows: Int32Array;
}

const NO_LANGUAGES: readonly LanguageRows[] = [];

/**
 * How a group's pages share a link-based rank: `sum` (the default: as one page with all their
 * links, which a canonical URL gathers), `max` (the best linked of them), or `page` (each its own,
 * as before groups shared one; for comparison).
 */
export type GroupRank = 'sum' | 'max' | 'page';

/**
 * The groups of a page table as the search shows them, for one local and one global rank
 * vector: per group, its languages (alphabetical) with their pages best first; per row, the
 * languages its copy class is stored in; per row, the summed global PageRank of its group (copies
 * and translations share one link-based rank, as a canonical URL gathers the links of its copies).
 */
/** What a group table holds, computed by {@link GroupTable.steps}. */
interface GroupTableParts {
  languagesOf: Map<number, readonly LanguageRows[]>;
  classLanguages: Map<number, Int32Array>;
  groupRank: Float64Array;
  groupRankScale: RankScale;
}

/** Rows a group table's passes cover between two turns of the event loop. */
const ROWS_PER_STEP = 8_192;

export class GroupTable {
  /** Group (its smallest row) → its languages; only groups of several rows. */
  private readonly languagesOf: Map<number, readonly LanguageRows[]>;
  /** Copy class (its smallest row) → language codes stored in it; only classes of several rows. */
  private readonly classLanguages: Map<number, Int32Array>;
  private readonly alternatesCache = new Map<number, Array<{ url: string; lang: string }>>();
  /** Row → the global PageRank of its group (summed over its pages, see {@link GroupRank}). */
  readonly groupRank: Float64Array;
  /** Scale of the groups' ranks (the blend's log scale). */
  readonly groupRankScale: RankScale;

  private constructor(
    readonly facts: PageFacts,
    parts: GroupTableParts,
  ) {
    this.languagesOf = parts.languagesOf;
    this.classLanguages = parts.classLanguages;
    this.groupRank = parts.groupRank;
    this.groupRankScale = parts.groupRankScale;
  }

  /** The table of these facts and ranks, made at once. */
  /**
   * Whether every page is a group of its own (no copies, no translations) and the pages are in
   * one language: then grouping and the visitor's language cannot reorder the best candidates.
   */
  get plain(): boolean {
    return this.languagesOf.size === 0 && this.facts.columns.lang.values.filter((lang) => lang !== '').length <= 1;
  }

  static build(facts: PageFacts, localRank: (id: number) => number, globalRank: (id: number) => number, combine: GroupRank = 'sum'): GroupTable {
    return runSteps(GroupTable.steps(facts, localRank, globalRank, combine));
  }

  /**
   * The table made in steps ({@link runStepsYielding} serves the event loop between them): its
   * passes are loops over typed arrays, cut every {@link ROWS_PER_STEP} rows, as a million pages
   * are gone over at every refresh of the facts or the ranks.
   */
  static *steps(facts: PageFacts, localRank: (id: number) => number, globalRank: (id: number) => number, combine: GroupRank = 'sum'): Generator<void, GroupTable> {
    const langCodes = facts.columns.lang.codes;
    const langValues = facts.columns.lang.values;
    const { groupSize, copyClass: copyClasses, group: groupOf, ids } = facts;
    const languagesOf = new Map<number, readonly LanguageRows[]>();
    const classLanguages = new Map<number, Int32Array>();
    for (let group = 0; group < groupSize.length; group++) {
      if (group % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
      if (groupSize[group] < 2) continue;
      const rows = facts.membersOf(group);
      const byCode = new Map<number, number[]>();
      for (const row of rows) {
        const list = byCode.get(langCodes[row]);
        if (list) list.push(row);
        else byCode.set(langCodes[row], [row]);
      }
      const languages = [...byCode].map(([code, list]): LanguageRows => ({ code, lang: langValues[code], rows: Int32Array.from(orderCopies(facts, list, code, localRank)) }));
      languages.sort((a, b) => a.lang.localeCompare(b.lang));
      languagesOf.set(group, languages);
    }
    const classRows = new Map<number, number[]>();
    for (let row = 0; row < copyClasses.length; row++) {
      if (row % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
      const copyClass = copyClasses[row];
      if (copyClass === row && groupSize[groupOf[row]] < 2) continue;
      const list = classRows.get(copyClass);
      if (list) list.push(row);
      else classRows.set(copyClass, [row]);
    }
    for (const [copyClass, rows] of classRows) if (rows.length > 1) classLanguages.set(copyClass, Int32Array.from(new Set(rows.map((row) => langCodes[row]))));
    const rows = facts.size;
    const pageRank = new Float64Array(rows);
    for (let row = 0; row < rows; row++) {
      if (row % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
      pageRank[row] = globalRank(ids[row]);
    }
    yield;
    if (combine === 'page') return new GroupTable(facts, { languagesOf, classLanguages, groupRank: pageRank, groupRankScale: yield* rankScaleSteps(pageRank) });
    const combined = new Float64Array(rows);
    for (let row = 0; row < rows; row++) {
      if (row % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
      const group = groupOf[row];
      combined[group] = combine === 'sum' ? combined[group] + pageRank[row] : Math.max(combined[group], pageRank[row]);
    }
    const groupRank = new Float64Array(rows);
    for (let row = 0; row < rows; row++) {
      if (row % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
      groupRank[row] = combined[groupOf[row]];
    }
    yield;
    // The scale of the groups' ranks: one value per group (at its smallest row).
    let groups = 0;
    for (let row = 0; row < rows; row++) {
      if (row % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
      if (groupSize[row] > 0) combined[groups++] = combined[row];
    }
    // The scale's median is found in steps too (50 ms at once for a million groups).
    return new GroupTable(facts, { languagesOf, classLanguages, groupRank, groupRankScale: yield* rankScaleSteps(combined.subarray(0, groups)) });
  }

  /** The group's languages with their pages, best first (none for a page alone). */
  languages(group: number): readonly LanguageRows[] {
    return this.languagesOf.get(group) ?? NO_LANGUAGES;
  }

  /** Is the row, or a copy of it, stored in this language (a `lang` column code)? */
  hasLanguage(row: number, code: number): boolean {
    if (this.facts.columns.lang.codes[row] === code) return true;
    const codes = this.classLanguages.get(this.facts.copyClass[row]);
    return codes !== undefined && codes.includes(code);
  }

  /** The group's best page per language, alphabetical by language. */
  alternates(group: number): ReadonlyArray<{ url: string; lang: string }> {
    let list = this.alternatesCache.get(group);
    if (!list) {
      list = this.languages(group).map((language) => ({ url: this.facts.urlOf(language.rows[0]), lang: language.lang }));
      this.alternatesCache.set(group, list);
    }
    return list;
  }
}

/** Copies of one language, best first: URL names the language, higher local PageRank, shorter URL. */
function orderCopies(facts: PageFacts, rows: readonly number[], code: number, localRank: (id: number) => number): readonly number[] {
  if (rows.length === 1) return rows;
  const keyed = rows.map((row) => ({ row, names: facts.urlLanguage[row] === code ? 1 : 0, rank: localRank(facts.ids[row]), url: facts.urlOf(row) }));
  keyed.sort((a, b) => b.names - a.names || b.rank - a.rank || a.url.length - b.url.length || a.url.localeCompare(b.url));
  return keyed.map((k) => k.row);
}

/** The candidates of one group, in rank order (`key`: the group, -1 for a page outside the table). */
export interface CandidateGroup<C extends GroupCandidate> {
  key: number;
  matched: C[];
}

/** Groups candidates in rank order: each group at the place of its best ranked candidate. */
export function groupCandidates<C extends GroupCandidate>(table: GroupTable, candidates: readonly C[]): Array<CandidateGroup<C>> {
  const facts = table.facts;
  const order: Array<CandidateGroup<C>> = [];
  const byKey = new Map<number, C[]>();
  for (const candidate of candidates) {
    const row = facts.rowOf(candidate.id);
    if (row < 0) {
      order.push({ key: -1, matched: [candidate] });
      continue;
    }
    const key = facts.group[row];
    const members = byKey.get(key);
    if (members) members.push(candidate);
    else {
      const list = [candidate];
      byKey.set(key, list);
      order.push({ key, matched: list });
    }
  }
  return order;
}

/**
 * The hit a group makes: which candidate and which page of the group are shown, with the
 * group's other pages. `preferred` are `lang` column codes in order of preference (requested,
 * then the visitor's, then the query's). Called for the groups of the page of results only.
 */
export function showGroup<C extends GroupCandidate>(table: GroupTable, group: CandidateGroup<C>, preferred: readonly number[]): HitGroup<C> {
  const matched = group.matched;
  if (group.key < 0) return { shown: matched[0], matched, url: '', row: -1, duplicates: [], alternates: [] };
  const facts = table.facts;
  const codes = facts.columns.lang.codes;
  let shown = matched[0];
  let code = codes[facts.rowOf(shown.id)];
  choice: for (const wanted of preferred) {
    // A page written in the language, else a copy of a matched page stored in it (the same text).
    for (const candidate of matched) {
      if (codes[facts.rowOf(candidate.id)] === wanted) {
        shown = candidate;
        code = wanted;
        break choice;
      }
    }
    for (const candidate of matched) {
      if (table.hasLanguage(facts.rowOf(candidate.id), wanted)) {
        shown = candidate;
        code = wanted;
        break choice;
      }
    }
  }
  const lang = facts.columns.lang.values[code];
  const own = table.languages(group.key).find((language) => language.code === code);
  if (!own) {
    const row = facts.rowOf(shown.id);
    return { shown, matched, url: facts.urlOf(row), row, lang, duplicates: [], alternates: [] };
  }
  const duplicates: string[] = [];
  for (let i = 1; i < own.rows.length; i++) duplicates.push(facts.urlOf(own.rows[i]));
  const alternates = table.alternates(group.key).filter((alternate) => alternate.lang !== lang);
  return { shown, matched, url: facts.urlOf(own.rows[0]), row: own.rows[0], lang, duplicates, alternates };
}

/**
 * Orders groups so that those shown in one of the visitor's languages (`lang` codes) come ahead
 * of equal matches in other languages: a group's key is its best candidate's score, times
 * `otherLanguageWeight` when that candidate is not (nor a copy of it) in one of those languages.
 * Stable: equal keys keep the rank order. Groups before `fixed` (best bets) stay where they are.
 */
export function preferVisitorLanguages<C extends GroupCandidate & { score: number }>(
  table: GroupTable,
  groups: Array<CandidateGroup<C>>,
  visitor: readonly number[],
  otherLanguageWeight: number,
  fixed: number,
): Array<CandidateGroup<C>> {
  if (visitor.length === 0) return groups;
  const facts = table.facts;
  const keyed = groups.slice(fixed).map((group, position) => {
    let key = -Infinity;
    for (const candidate of group.matched) {
      const row = facts.rowOf(candidate.id);
      const inVisitorLanguage = row >= 0 && visitor.some((code) => table.hasLanguage(row, code));
      const value = inVisitorLanguage ? candidate.score : candidate.score * otherLanguageWeight;
      if (value > key) key = value;
    }
    return { group, key, position };
  });
  keyed.sort((a, b) => b.key - a.key || a.position - b.position);
  return [...groups.slice(0, fixed), ...keyed.map((k) => k.group)];
}
