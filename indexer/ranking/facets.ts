/**
 * Filters and facet counts. Values of one dimension combine with OR, dimensions with AND; each
 * dimension's counts ignore that dimension's own filter (so with `lang=ja` the other languages
 * still show how many results they have), and are counted over every match before paging.
 */
import { unknownFacetValue } from './errors.ts';
import { FACET_NAMES, type FacetName, type PageFacts } from './page-facts.ts';

export type FacetFilters = Partial<Record<FacetName, readonly string[]>>;
export type FacetCounts = Record<FacetName, Record<string, number>>;

/** Per dimension, the codes it lets through (null: no filter on it). */
export type CompiledFilters = Record<FacetName, Uint8Array | null>;

/** Checks every filter value against the pages' values; an unknown one throws a 400 error. */
export function compileFilters(facts: PageFacts, filters: FacetFilters): CompiledFilters {
  const compiled = { lang: null, host: null, section: null, type: null } as CompiledFilters;
  for (const name of FACET_NAMES) {
    const wanted = filters[name];
    if (!wanted || wanted.length === 0) continue;
    const column = facts.columns[name];
    const allowed = new Uint8Array(column.values.length);
    for (const raw of wanted) {
      const value = raw.trim().toLowerCase();
      const code = column.codeOf.get(value);
      if (code === undefined || value === '') throw unknownFacetValue(name, raw, facts.indexedValues(name));
      allowed[code] = 1;
    }
    compiled[name] = allowed;
  }
  return compiled;
}

export const hasFilters = (compiled: CompiledFilters) => FACET_NAMES.some((name) => compiled[name] !== null);

/** Does the row pass every filter, except possibly the one named? */
export function rowPasses(facts: PageFacts, compiled: CompiledFilters, row: number, except?: FacetName): boolean {
  for (const name of FACET_NAMES) {
    if (name === except) continue;
    const allowed = compiled[name];
    if (allowed !== null && allowed[facts.columns[name].codes[row]] === 0) return false;
  }
  return true;
}

export interface ResultCounts {
  /** Results: groups of copies and translations with a match that passes every filter. */
  total: number;
  /** Per dimension, value → results with a match of that value that passes the other dimensions' filters. */
  facets: FacetCounts;
}

/**
 * Counts results the way the hits show them: a page's copies and translations are one result.
 * A value's count is the number of results that have a match with that value passing every other
 * dimension's filter — so a chip of a dimension without a filter counts exactly the total a
 * visitor gets by clicking it (a translated page matched in English and German counts once under
 * each language, and once in the total). `blocked` rows (removed by the admin) count nowhere;
 * matches outside the facts table (none loaded) count in the total only, when nothing filters.
 */
export function countResults(facts: PageFacts, compiled: CompiledFilters, matchedIds: readonly number[], blocked?: (row: number) => boolean): ResultCounts {
  const dimensions = FACET_NAMES.length;
  const codes = FACET_NAMES.map((name) => facts.columns[name].codes);
  const allowed = FACET_NAMES.map((name) => compiled[name]);
  const counts = FACET_NAMES.map((name) => new Uint32Array(facts.columns[name].values.length));
  // Only the dimensions with a filter are asked whether they reject a row (none, most often).
  const filtered = allowed.flatMap((a, d) => (a === null ? [] : [d]));
  const filtering = filtered.length > 0;
  const chains = new GroupChains(facts.size);
  let total = 0;
  for (let i = 0; i < matchedIds.length; i++) {
    const row = facts.rowOf(matchedIds[i]);
    if (row < 0) {
      if (!filtering) total++;
      continue;
    }
    if (blocked !== undefined && blocked(row)) continue;
    // Which dimensions' filters reject the row: with none it counts everywhere, with one only there.
    let rejecting = -1;
    let rejections = 0;
    for (const d of filtered) {
      if (allowed[d]![codes[d][row]] === 0) {
        rejections++;
        rejecting = d;
      }
    }
    if (rejections > 1) continue;
    const group = facts.group[row];
    if (facts.groupSize[group] > 1) {
      chains.add(group, row, rejecting);
      continue;
    }
    if (rejections === 0) {
      total++;
      for (let d = 0; d < dimensions; d++) counts[d][codes[d][row]]++;
    } else counts[rejecting][codes[rejecting][row]]++;
  }
  total += chains.count(codes, counts);
  const facets = {} as FacetCounts;
  FACET_NAMES.forEach((name, d) => {
    const values = facts.columns[name].values;
    const entries: Array<[string, number]> = [];
    counts[d].forEach((count, code) => {
      if (count > 0 && values[code] !== '') entries.push([values[code], count]);
    });
    entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    facets[name] = Object.fromEntries(entries);
  });
  return { total, facets };
}

/** Matched rows of groups with several pages, chained per group (arrays made on first use). */
class GroupChains {
  #first: Int32Array | undefined;
  #next: Int32Array | undefined;
  #rejectedBy: Int8Array | undefined;
  readonly #groups: number[] = [];

  constructor(private readonly rows: number) {}

  add(group: number, row: number, rejectedBy: number): void {
    if (this.#first === undefined) {
      this.#first = new Int32Array(this.rows).fill(-1);
      this.#next = new Int32Array(this.rows).fill(-2);
      this.#rejectedBy = new Int8Array(this.rows);
    }
    const next = this.#next!;
    if (next[row] !== -2) return; // matched twice (a synonym spelling)
    if (this.#first[group] < 0) this.#groups.push(group);
    next[row] = this.#first[group];
    this.#first[group] = row;
    this.#rejectedBy![row] = rejectedBy;
  }

  /**
   * Adds each group once to `counts` under every value its counted members have (a member
   * rejected by one dimension's filter counts in that dimension only); returns how many groups
   * have a member no filter rejects.
   */
  count(codes: readonly Uint16Array[], counts: Uint32Array[]): number {
    const first = this.#first;
    if (first === undefined) return 0;
    const next = this.#next!;
    const rejectedBy = this.#rejectedBy!;
    // stamps[d][code] = the last group (its position + 1) counted under that value.
    const stamps = counts.map((c) => new Int32Array(c.length));
    let total = 0;
    for (let g = 0; g < this.#groups.length; g++) {
      const stamp = g + 1;
      let passes = false;
      for (let row = first[this.#groups[g]]; row >= 0; row = next[row]) {
        const rejecting = rejectedBy[row];
        if (rejecting < 0) passes = true;
        for (let d = 0; d < codes.length; d++) {
          if (rejecting >= 0 && rejecting !== d) continue;
          const code = codes[d][row];
          if (stamps[d][code] !== stamp) {
            stamps[d][code] = stamp;
            counts[d][code]++;
          }
        }
      }
      if (passes) total++;
    }
    return total;
  }
}
