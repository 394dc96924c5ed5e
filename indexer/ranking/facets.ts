/**
 * Filters and facet counts. Values of one dimension combine with OR, dimensions with AND; each
 * dimension's counts ignore that dimension's own filter (so with `lang=ja` the other languages
 * still show how many results they have), and are counted over every match before paging.
 */
import { unknownFacetValue } from './errors.ts';
import { DerivedColumn, type SegmentColumn } from './segment-columns.ts';
import type { FacetTuples } from './facet-tuples.ts';
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
export function countResults(facts: PageFacts, compiled: CompiledFilters, matchedIds: ArrayLike<number>, blocked?: (row: number) => boolean): ResultCounts {
  const tally = new Tally(facts, compiled);
  const { perTuple } = tally;
  const { ofRow, grouped } = facts.facetTuples;
  for (let i = 0; i < matchedIds.length; i++) {
    const row = facts.rowOf(matchedIds[i]);
    if (row < 0) tally.outside++;
    else if (blocked !== undefined && blocked(row)) continue;
    else if (grouped[ofRow[row]] === 0) perTuple[ofRow[row]]++;
    else tally.groupedRow(row, ofRow[row]);
  }
  return tally.counts();
}

/**
 * A segment document's facet combination plus one (0: a page the table does not hold), in the
 * narrowest array that holds the table's combinations: most sites have fewer than 255, and a
 * byte per document keeps a segment's column in cache.
 */
export type TupleColumn = Uint8Array | Uint16Array | Int32Array;

/** A segment's matches (ascending ordinals), its page ids and its {@link TupleColumn}. */
export interface SegmentMatchTuples {
  ordinals: Int32Array;
  docIds: Int32Array;
  tuples: TupleColumn;
}

/**
 * {@link countResults} over matches given by segment and ordinal, whose facet combinations each
 * segment has as a column of its own ({@link facetTupleColumn}): one read a match, in an array of the
 * segment that stays in cache, where a page id → row → combination lookup missed the cache twice.
 * No match may come twice, and no row is blocked (the caller counts by ids otherwise).
 */
export function countSegmentResults(facts: PageFacts, compiled: CompiledFilters, segments: readonly SegmentMatchTuples[]): ResultCounts {
  const tally = new Tally(facts, compiled);
  for (let s = 0; s < segments.length; s++) tally.outside += tallySegment(tally, facts, segments[s]);
  return tally.counts();
}

/**
 * Counts one segment's matches into `tally`; returns how many have no row in the facts table.
 * A function of its own, with no iterator around its loop: the loop was compiled on the stack
 * (OSR) before the code after it had run, and the server deoptimised it a hundred times in its
 * first searches (V8's "insufficient type feedback" at the property read after the loop).
 */
function tallySegment(tally: Tally, facts: PageFacts, { ordinals, docIds, tuples }: SegmentMatchTuples): number {
  const { perTuple } = tally;
  const { grouped } = facts.facetTuples;
  let outside = 0;
  for (let i = 0; i < ordinals.length; i++) {
    const t = tuples[ordinals[i]] - 1;
    if (t < 0) outside++;
    else if (grouped[t] === 0) perTuple[t]++;
    else tally.groupedRow(facts.rowOf(docIds[ordinals[i]]), t);
  }
  return outside;
}

/** Each segment document's facet combination in the table, as a {@link TupleColumn}. */
export function facetTupleColumn(facts: PageFacts): SegmentColumn<TupleColumn> {
  return new DerivedColumn<TupleColumn>(
    (length) => {
      const count = facts.facetTuples.count;
      return count < 0xff ? new Uint8Array(length) : count < 0xffff ? new Uint16Array(length) : new Int32Array(length);
    },
    (ids, values, from, to) => {
      const { ofRow } = facts.facetTuples;
      for (let d = from; d < to; d++) {
        const row = facts.rowOf(ids[d]);
        values[d] = row >= 0 ? ofRow[row] + 1 : 0;
      }
    },
  );
}

/**
 * The counts of one query as its matches come: rows of single-page groups by their combination
 * of values (spread over the dimensions at the end), rows of larger groups chained per group,
 * and matches outside the facts table.
 */
class Tally {
  readonly perTuple: Uint32Array;
  /** Matches without a row in the facts table (counted in the total only, when nothing filters). */
  outside = 0;
  private readonly rejecting: Int8Array | null;
  private readonly chains: GroupChains;

  constructor(
    private readonly facts: PageFacts,
    compiled: CompiledFilters,
  ) {
    const tuples = facts.facetTuples;
    this.perTuple = new Uint32Array(tuples.count);
    this.rejecting = rejectingDimensions(tuples, FACET_NAMES.map((name) => compiled[name]));
    this.chains = new GroupChains(facts.size);
  }

  /** A matched row of a group of several pages, of combination `t`. */
  groupedRow(row: number, t: number): void {
    const by = this.rejecting !== null ? this.rejecting[t] : NONE_REJECTS;
    if (by !== SEVERAL_REJECT) this.chains.add(this.facts.group[row], row, by);
  }

  counts(): ResultCounts {
    const { facts, perTuple, rejecting } = this;
    const tuples = facts.facetTuples;
    const codes = FACET_NAMES.map((name) => facts.columns[name].codes);
    const counts = FACET_NAMES.map((name) => new Uint32Array(facts.columns[name].values.length));
    let total = rejecting === null ? this.outside : 0;
    const dimensions = tuples.dimensions;
    for (let t = 0; t < tuples.count; t++) {
      const n = perTuple[t];
      if (n === 0) continue;
      const by = rejecting !== null ? rejecting[t] : NONE_REJECTS;
      if (by === SEVERAL_REJECT) continue;
      if (by === NONE_REJECTS) {
        total += n;
        for (let d = 0; d < dimensions; d++) counts[d][tuples.codes[t * dimensions + d]] += n;
      } else counts[by][tuples.codes[t * dimensions + by]] += n;
    }
    total += this.chains.count(codes, counts);
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
}

/** No dimension's filter rejects the combination; several do. */
const NONE_REJECTS = -1;
const SEVERAL_REJECT = -2;

/**
 * Per combination, the dimension whose filter rejects it: NONE_REJECTS, the dimension, or
 * SEVERAL_REJECT (it counts nowhere). Null when nothing filters. A row rejected by one
 * dimension's filter still counts in that dimension, whose counts ignore its own filter.
 */
function rejectingDimensions(tuples: FacetTuples, allowed: readonly (Uint8Array | null)[]): Int8Array | null {
  if (allowed.every((a) => a === null)) return null;
  const { count, dimensions, codes } = tuples;
  const rejecting = new Int8Array(count);
  for (let t = 0; t < count; t++) {
    let by = NONE_REJECTS;
    for (let d = 0; d < dimensions; d++) {
      const a = allowed[d];
      if (a === null || a[codes[t * dimensions + d]] === 1) continue;
      by = by === NONE_REJECTS ? d : SEVERAL_REJECT;
      if (by === SEVERAL_REJECT) break;
    }
    rejecting[t] = by;
  }
  return rejecting;
}

/**
 * Matched rows of groups with several pages, chained per group. The chains live in arrays of a
 * row each, made once per table size and cleared after each count (only where they were written),
 * so that a query on a multilingual site does not allocate and fill three million-entry arrays.
 */
class GroupChains {
  static #scratch: { first: Int32Array; next: Int32Array; rejectedBy: Int8Array } | undefined;
  #first: Int32Array | undefined;
  #next: Int32Array | undefined;
  #rejectedBy: Int8Array | undefined;
  readonly #groups: number[] = [];

  constructor(private readonly rows: number) {}

  add(group: number, row: number, rejectedBy: number): void {
    if (this.#first === undefined) {
      let scratch = GroupChains.#scratch;
      if (scratch === undefined || scratch.first.length < this.rows) {
        scratch = { first: new Int32Array(this.rows).fill(-1), next: new Int32Array(this.rows).fill(-2), rejectedBy: new Int8Array(this.rows) };
      }
      // Taken while in use: a count that fails half way leaves no dirty scratch behind.
      GroupChains.#scratch = undefined;
      this.#first = scratch.first;
      this.#next = scratch.next;
      this.#rejectedBy = scratch.rejectedBy;
    }
    const next = this.#next!;
    if (next[row] !== -2) return; // matched twice
    if (this.#first[group] < 0) this.#groups.push(group);
    next[row] = this.#first[group];
    this.#first[group] = row;
    this.#rejectedBy![row] = rejectedBy;
  }

  /** Clears what the chains wrote and hands their arrays back for the next count. */
  #release(): void {
    const first = this.#first!;
    const next = this.#next!;
    for (const group of this.#groups) {
      for (let row = first[group]; row >= 0; ) {
        const following = next[row];
        next[row] = -2;
        row = following;
      }
      first[group] = -1;
    }
    GroupChains.#scratch = { first, next, rejectedBy: this.#rejectedBy! };
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
    this.#release();
    return total;
  }
}
