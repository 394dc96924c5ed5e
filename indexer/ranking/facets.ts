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

/**
 * Counts, per dimension, the matching pages by value, each dimension ignoring its own filter.
 * `blocked` rows (removed by the admin) are not counted. Values with no match are left out.
 */
export function countFacets(facts: PageFacts, compiled: CompiledFilters, matchedIds: readonly number[], blocked?: (row: number) => boolean): FacetCounts {
  const counts = FACET_NAMES.map((name) => new Uint32Array(facts.columns[name].values.length));
  for (const id of matchedIds) {
    const row = facts.rowOf(id);
    if (row < 0 || blocked?.(row)) continue;
    // Which dimensions' filters reject the row: with none it counts everywhere, with one only there.
    let rejectedBy = -1;
    let rejections = 0;
    for (let d = 0; d < FACET_NAMES.length; d++) {
      const allowed = compiled[FACET_NAMES[d]];
      if (allowed !== null && allowed[facts.columns[FACET_NAMES[d]].codes[row]] === 0) {
        rejections++;
        rejectedBy = d;
      }
    }
    if (rejections > 1) continue;
    for (let d = 0; d < FACET_NAMES.length; d++) {
      if (rejections === 1 && d !== rejectedBy) continue;
      counts[d][facts.columns[FACET_NAMES[d]].codes[row]]++;
    }
  }
  const result = {} as FacetCounts;
  FACET_NAMES.forEach((name, d) => {
    const values = facts.columns[name].values;
    const entries: Array<[string, number]> = [];
    counts[d].forEach((count, code) => {
      if (count > 0 && values[code] !== '') entries.push([values[code], count]);
    });
    entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    result[name] = Object.fromEntries(entries);
  });
  return result;
}
