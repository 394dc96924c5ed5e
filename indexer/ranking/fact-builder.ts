/**
 * The columns of the page-facts table (fact-table.ts), built one page at a time in id order: no
 * fact object is held past its `add`, so a pass over a million pages (the index build's, or the
 * facts' own) holds typed arrays and the strings the table keeps, never a list of facts.
 */
import type { FacetColumn, FactColumns, SavedFacts } from './fact-table.ts';
import { languageOfUrl, type PageFact } from './page-facts.ts';
import { GrowingArray } from '../growing-array.ts';
import { runSteps } from '../stepwise.ts';
import { seek } from '../text-index/ordinal-lists.ts';
import { StringColumnBuilder, type StringColumn } from '../text-index/string-column.ts';

/** One facet dimension being built: values in order of first use, a 16-bit code per row. */
class FacetBuilder {
  readonly values: string[];
  private readonly codeOf: Map<string, number>;
  private readonly codes: GrowingArray<Uint16Array>;

  /** Empty, or holding a column's values already, so that its rows' codes can be copied as they are. */
  constructor(from?: FacetColumn) {
    this.values = from ? from.values.slice() : [];
    this.codeOf = from ? new Map(from.codeOf) : new Map();
    this.codes = new GrowingArray((size) => new Uint16Array(size));
  }

  reserve(rows: number): void {
    this.codes.reserve(rows);
  }

  addCode(code: number): void {
    this.codes.push(code);
  }

  add(value: string): void {
    let code = this.codeOf.get(value);
    if (code === undefined) {
      code = this.values.length;
      // A 16-bit code: past 65,535 distinct values the rest share the last one.
      if (code > 0xffff) code = 0xffff;
      else {
        this.values.push(value);
        this.codeOf.set(value, code);
      }
    }
    this.codes.push(code);
  }

  /**
   * The column, its values in order of first use by the rows (a column seeded from another and
   * then changed is renumbered so: the same column a build from scratch gives).
   */
  done(): FacetColumn {
    const codes = this.codes.done();
    const renumber = new Int32Array(this.values.length).fill(-1);
    const values: string[] = [];
    for (let row = 0; row < codes.length; row++) {
      const code = codes[row];
      if (renumber[code] < 0) renumber[code] = values.push(this.values[code]) - 1;
    }
    if (values.length === this.values.length && renumber.every((to, from) => to === from)) return { values: this.values, codeOf: this.codeOf, codes };
    for (let row = 0; row < codes.length; row++) codes[row] = renumber[codes[row]];
    return { values, codeOf: new Map(values.map((value, code) => [value, code])), codes };
  }
}

/** A row of an existing table, read from its columns (for a refresh that copies unchanged rows). */
export interface SourceTable {
  columns: FactColumns;
  facets: Record<'lang' | 'host' | 'section' | 'type', FacetColumn>;
  urls: StringColumn;
}

export class PageFactsBuilder {
  private readonly ids: GrowingArray<Int32Array>;
  private readonly indexed: GrowingArray<Uint8Array>;
  private readonly dates: GrowingArray<Float64Array>;
  private readonly lang: FacetBuilder;
  private readonly host: FacetBuilder;
  private readonly section: FacetBuilder;
  private readonly type: FacetBuilder;
  private readonly urls: StringColumnBuilder;
  private readonly relatedStarts: GrowingArray<Int32Array>;
  private readonly related: string[] = [];
  private readonly copyCounts: GrowingArray<Uint16Array>;
  /** The language each row's URL names, as a number into `namedLanguages` (-1: none). */
  private readonly named: GrowingArray<Int32Array>;
  private readonly namedLanguages: string[] = [];
  private readonly namedNumber = new Map<string, number>();

  /**
   * Empty; or with `source`'s facet values, so that {@link copyRow} keeps its codes. A builder
   * that copies a table should be given room for it first ({@link roomSteps}).
   */
  constructor(private readonly source?: SourceTable) {
    this.ids = new GrowingArray((size) => new Int32Array(size));
    this.indexed = new GrowingArray((size) => new Uint8Array(size));
    this.dates = new GrowingArray((size) => new Float64Array(size));
    this.relatedStarts = new GrowingArray((size) => new Int32Array(size));
    this.copyCounts = new GrowingArray((size) => new Uint16Array(size));
    this.named = new GrowingArray((size) => new Int32Array(size));
    this.lang = new FacetBuilder(source?.facets.lang);
    this.host = new FacetBuilder(source?.facets.host);
    this.section = new FacetBuilder(source?.facets.section);
    this.type = new FacetBuilder(source?.facets.type);
    this.urls = new StringColumnBuilder();
    this.relatedStarts.push(0);
  }

  /**
   * Room for the source table's rows and a few more pages, a column a step. Doubling from small
   * held the event loop 40-50 ms at a million rows, and the dozen columns made at once (tens of
   * megabytes zero-filled) 5-19 ms.
   */
  *roomSteps(): Generator<void, void> {
    if (this.source === undefined) return;
    const { columns, urls } = this.source;
    const rows = columns.ids.length + 4096;
    for (const column of [this.ids, this.indexed, this.dates, this.copyCounts, this.named, this.lang, this.host, this.section, this.type]) {
      column.reserve(rows);
      yield;
    }
    this.relatedStarts.reserve(rows + 1);
    yield;
    this.urls.expect({ entries: urls.length + 4096, bytes: urls.bytes.length + (urls.bytes.length >> 5) + 262_144 });
    yield;
  }

  /** Adds row `row` of the source table as it is: no fact object made, no value looked up. */
  copyRow(row: number): void {
    const { columns: c, urls } = this.source!;
    const id = c.ids[row];
    if (id <= this.lastId) throw new Error(`page facts: id ${id} after ${this.lastId}, not in ascending order`);
    this.ids.push(id);
    this.urls.addEntry(urls, row);
    this.indexed.push(c.indexed[row]);
    this.dates.push(c.dates[row]);
    this.lang.addCode(c.langCodes[row]);
    this.host.addCode(c.hostCodes[row]);
    this.section.addCode(c.sectionCodes[row]);
    this.type.addCode(c.typeCodes[row]);
    for (let at = c.relatedStarts[row]; at < c.relatedStarts[row + 1]; at++) this.related.push(c.related[at]);
    this.copyCounts.push(c.copyCounts[row]);
    this.relatedStarts.push(this.related.length);
    const named = c.urlLanguage[row];
    this.named.push(named < 0 ? -1 : this.namedNumberOf(c.langValues[named]));
  }

  get size(): number {
    return this.ids.length;
  }

  /** The last id added (-1 before the first): ids must come in ascending order. */
  get lastId(): number {
    return this.ids.length === 0 ? -1 : this.ids.at(this.ids.length - 1);
  }

  add(id: number, fact: PageFact): void {
    if (id <= this.lastId) throw new Error(`page facts: id ${id} after ${this.lastId}, not in ascending order`);
    this.ids.push(id);
    this.urls.add(fact.url);
    this.indexed.push(fact.indexed ? 1 : 0);
    this.dates.push(fact.date);
    this.lang.add(fact.lang);
    this.host.add(fact.host);
    this.section.add(fact.section);
    this.type.add(fact.type);
    const copies = fact.copies ?? [];
    // Copies first, then the rest of `related` (translations).
    const rest = fact.related.slice();
    for (const copy of copies) {
      const at = rest.indexOf(copy);
      if (at >= 0) rest.splice(at, 1);
    }
    for (const url of copies) this.related.push(url);
    for (const url of rest) this.related.push(url);
    this.copyCounts.push(Math.min(copies.length, 0xffff));
    this.relatedStarts.push(this.related.length);
    const named = languageOfUrl(fact.url, fact.lang);
    this.named.push(named === undefined ? -1 : this.namedNumberOf(named));
  }

  private namedNumberOf(language: string): number {
    let number = this.namedNumber.get(language);
    if (number === undefined) {
      number = this.namedLanguages.push(language) - 1;
      this.namedNumber.set(language, number);
    }
    return number;
  }

  /**
   * The columns of the rows added. Related URLs are found by a map of every row's URL made here,
   * or, given `idOfUrl` (a store's URL table, which knows every URL already), by their ids.
   */
  done(idOfUrl?: (url: string) => number | undefined): SavedFacts {
    return runSteps(this.doneSteps(idOfUrl));
  }

  /** {@link done} in steps of a column or a share of the rows each (for a server's refresh). */
  *doneSteps(idOfUrl?: (url: string) => number | undefined): Generator<void, SavedFacts> {
    const lang = this.lang.done();
    yield;
    const host = this.host.done();
    yield;
    const section = this.section.done();
    yield;
    const type = this.type.done();
    yield;
    // A copy or a pass over a million rows a step: together they held the event loop 60-70 ms.
    const relatedStarts = this.relatedStarts.done();
    const copyCounts = this.copyCounts.done();
    yield;
    const { related, namedLanguages } = this;
    const urls = this.urls.done();
    const namedCodes = namedLanguages.map((named) => lang.codeOf.get(named) ?? -1);
    const ids = this.ids.done();
    yield;
    const rowOfUrl = idOfUrl ? rowOfId(ids, idOfUrl) : urlMap(urls);
    const group = yield* groupRows(urls.length, relatedStarts, relatedStarts.subarray(1), related, rowOfUrl);
    const copyEnds = new Int32Array(urls.length);
    for (let row = 0; row < copyEnds.length; row++) copyEnds[row] = relatedStarts[row] + copyCounts[row];
    yield;
    const copyClass = yield* groupRows(urls.length, relatedStarts, copyEnds, related, rowOfUrl);
    const named = this.named.done();
    const urlLanguage = new Int32Array(named.length);
    for (let row = 0; row < named.length; row++) urlLanguage[row] = named[row] < 0 ? -1 : namedCodes[named[row]];
    yield;
    const indexed = this.indexed.done();
    const dates = this.dates.done();
    yield;
    const columns: FactColumns = {
      ids,
      indexed,
      dates,
      langValues: lang.values,
      langCodes: lang.codes,
      hostValues: host.values,
      hostCodes: host.codes,
      sectionValues: section.values,
      sectionCodes: section.codes,
      typeValues: type.values,
      typeCodes: type.codes,
      relatedStarts,
      related,
      copyCounts,
      group,
      copyClass,
      urlLanguage,
    };
    return { urls, columns };
  }
}

/** The row of a URL through its id (ids ascending: a binary search). */
function rowOfId(ids: Int32Array, idOfUrl: (url: string) => number | undefined): (url: string) => number | undefined {
  return (url) => {
    const id = idOfUrl(url);
    if (id === undefined) return undefined;
    const row = seek(ids, 0, ids.length, id);
    return row < ids.length && ids[row] === id ? row : undefined;
  };
}

/** The row of each URL, by the column's hash of its URLs (made at first use, kept for the table's two groupings). */
function urlMap(urls: StringColumn): (url: string) => number | undefined {
  return (url) => {
    const row = urls.indexOf(url);
    return row < 0 ? undefined : row;
  };
}

/** Rows a grouping goes over between two turns of the event loop. */
const ROWS_PER_STEP = 16_384;

/**
 * Joins rows related by URL (union–find): row r is joined with the rows of
 * related[starts[r] … ends[r]]. Each row's group is the smallest row of its set. Only rows
 * that relate to others cost a lookup.
 */
function* groupRows(rows: number, starts: Int32Array, ends: Int32Array, related: readonly string[], rowOfUrl: (url: string) => number | undefined): Generator<void, Int32Array> {
  const parent = new Int32Array(rows);
  for (let row = 0; row < rows; row++) parent[row] = row;
  const find = (row: number): number => {
    while (parent[row] !== row) {
      parent[row] = parent[parent[row]];
      row = parent[row];
    }
    return row;
  };
  for (let row = 0; row < rows; row++) {
    if (row % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    const end = ends[row];
    for (let at = starts[row]; at < end; at++) {
      const other = rowOfUrl(related[at]);
      if (other === undefined) continue;
      const a = find(row);
      const b = find(other);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  yield;
  for (let row = 0; row < rows; row++) {
    parent[row] = find(row);
    if (row % (ROWS_PER_STEP * 4) === ROWS_PER_STEP * 4 - 1) yield;
  }
  return parent;
}
