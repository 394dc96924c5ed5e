/**
 * The page facts of the search as a table of columns: one row per local page, in id order, and
 * no object per page — URLs are the store's own strings (its URL table), facet values are codes
 * into a column's values, dates, flags and groups are typed arrays, and the pages each page is a
 * copy or translation of are one flat list with offsets. At a million pages that is tens of MB
 * where a fact object per page held hundreds.
 */
import type { CrawlStore } from '../store/crawl-store.ts';
import { FACET_NAMES, languageOfUrl, pageFact, type FacetName, type PageFact } from './page-facts.ts';

/** One facet dimension: its values, and each row's value as a code into them. */
export interface FacetColumn {
  values: string[];
  codeOf: Map<string, number>;
  codes: Uint16Array;
}

const EMPTY_ROWS = new Int32Array(0);

/** The compiled table: one row per page, columns per facet, groups of copies and translations. */
export class PageFacts {
  readonly ids: Int32Array;
  readonly columns: Record<FacetName, FacetColumn>;
  readonly dates: Float64Array;
  /** Row → its group (the smallest row of the pages joined by copies and translations). */
  readonly group: Int32Array;
  /** Group → how many rows it has (0 for a row that is not a group's smallest). */
  readonly groupSize: Int32Array;
  /** Row → its copy class: the smallest row of the pages joined by copies alone (the same text). */
  readonly copyClass: Int32Array;
  /** Row → the language its URL names (`/de/…`, `?lang=de`), as a `lang` column code; -1 for none. */
  readonly urlLanguage: Int32Array;
  private readonly urls: string[];
  /** 1: the text index holds the page. */
  private readonly indexed: Uint8Array;
  /** Row r's related URLs are related[relatedStarts[r] … relatedStarts[r + 1]], its copies first (copyCounts[r] of them). */
  private readonly relatedStarts: Int32Array;
  private readonly related: string[];
  private readonly copyCounts: Uint16Array;
  /** Rows of each group, by group: memberRows[memberStarts[g] … memberStarts[g] + groupSize[g]], ascending. */
  private readonly memberStarts: Int32Array;
  private readonly memberRows: Int32Array;
  /** Row of each page id (-1: none); ids are the store's, dense from 0. */
  private readonly rowOfId: Int32Array;
  private rowOfUrl: Map<string, number> | undefined;

  /** The table of these facts (read once: no fact object is kept). */
  constructor(records: ReadonlyMap<number, PageFact> | Iterable<[number, PageFact]>) {
    const entries = [...records].sort((a, b) => a[0] - b[0]);
    const facts = entries.map(([, fact]) => fact);
    this.ids = Int32Array.from(entries, ([id]) => id);
    this.rowOfId = new Int32Array(this.ids.length > 0 ? this.ids[this.ids.length - 1] + 1 : 0).fill(-1);
    this.ids.forEach((id, row) => (this.rowOfId[id] = row));
    this.urls = facts.map((f) => f.url);
    this.indexed = Uint8Array.from(facts, (f) => (f.indexed ? 1 : 0));
    this.columns = {
      lang: column(facts, (f) => f.lang),
      host: column(facts, (f) => f.host),
      section: column(facts, (f) => f.section),
      type: column(facts, (f) => f.type),
    };
    this.dates = Float64Array.from(facts, (f) => f.date);
    this.relatedStarts = new Int32Array(facts.length + 1);
    this.copyCounts = new Uint16Array(facts.length);
    this.related = [];
    facts.forEach((fact, row) => {
      const copies = fact.copies ?? [];
      // Copies first, then the rest of `related` (translations).
      const rest = fact.related.slice();
      for (const copy of copies) {
        const at = rest.indexOf(copy);
        if (at >= 0) rest.splice(at, 1);
      }
      for (const url of copies) this.related.push(url);
      for (const url of rest) this.related.push(url);
      this.copyCounts[row] = Math.min(copies.length, 0xffff);
      this.relatedStarts[row + 1] = this.related.length;
    });
    this.group = groupRows(this.urls, (row) => this.related.slice(this.relatedStarts[row], this.relatedStarts[row + 1]));
    this.copyClass = groupRows(this.urls, (row) => this.related.slice(this.relatedStarts[row], this.relatedStarts[row] + this.copyCounts[row]));
    this.urlLanguage = Int32Array.from(facts, (fact) => {
      const named = languageOfUrl(fact.url, fact.lang);
      return named === undefined ? -1 : (this.columns.lang.codeOf.get(named) ?? -1);
    });
    this.groupSize = new Int32Array(facts.length);
    for (const g of this.group) this.groupSize[g]++;
    this.memberStarts = new Int32Array(facts.length);
    let next = 0;
    this.groupSize.forEach((size, g) => {
      this.memberStarts[g] = next;
      next += size;
    });
    this.memberRows = new Int32Array(facts.length);
    const filled = new Int32Array(facts.length);
    this.group.forEach((g, row) => (this.memberRows[this.memberStarts[g] + filled[g]++] = row));
  }

  static empty(): PageFacts {
    return new PageFacts(new Map());
  }

  /** Number of rows (pages). */
  get size(): number {
    return this.ids.length;
  }

  urlOf(row: number): string {
    return this.urls[row];
  }

  langOf(row: number): string {
    return this.columns.lang.values[this.columns.lang.codes[row]];
  }

  isIndexed(row: number): boolean {
    return this.indexed[row] === 1;
  }

  /** The rows of a group (by its smallest row), ascending. */
  membersOf(group: number): Int32Array {
    return group >= 0 && group < this.groupSize.length ? this.memberRows.subarray(this.memberStarts[group], this.memberStarts[group] + this.groupSize[group]) : EMPTY_ROWS;
  }

  /** The groups (their smallest rows), ascending. */
  *groups(): IterableIterator<number> {
    for (let row = 0; row < this.groupSize.length; row++) if (this.groupSize[row] > 0) yield row;
  }

  /** The facts of one row, as they were given (for a refresh of the table). */
  factOf(row: number): PageFact {
    const start = this.relatedStarts[row];
    const related = this.related.slice(start, this.relatedStarts[row + 1]);
    return {
      url: this.urls[row],
      host: this.columns.host.values[this.columns.host.codes[row]],
      lang: this.langOf(row),
      type: this.columns.type.values[this.columns.type.codes[row]],
      section: this.columns.section.values[this.columns.section.codes[row]],
      date: this.dates[row],
      indexed: this.isIndexed(row),
      related,
      copies: related.slice(0, this.copyCounts[row]),
    };
  }

  idOfUrl(url: string): number | undefined {
    if (this.rowOfUrl === undefined) {
      this.rowOfUrl = new Map();
      this.urls.forEach((u, row) => this.rowOfUrl!.set(u, row));
    }
    const row = this.rowOfUrl.get(url);
    return row === undefined ? undefined : this.ids[row];
  }

  rowOf(id: number): number {
    return id >= 0 && id < this.rowOfId.length ? this.rowOfId[id] : -1;
  }

  /** The table with some pages changed (a fact) or gone (undefined). */
  withChanges(changes: Iterable<[number, PageFact | undefined]>): PageFacts {
    const changed = new Map(changes);
    const table = this;
    function* rows(): IterableIterator<[number, PageFact]> {
      for (let row = 0; row < table.ids.length; row++) if (!changed.has(table.ids[row])) yield [table.ids[row], table.factOf(row)];
      for (const [id, fact] of changed) if (fact) yield [id, fact];
    }
    return new PageFacts(rows());
  }

  /** Values of a facet present among indexed pages. */
  indexedValues(name: FacetName): string[] {
    const { values, codes } = this.columns[name];
    const seen = new Uint8Array(values.length);
    for (let row = 0; row < codes.length; row++) if (this.indexed[row] === 1) seen[codes[row]] = 1;
    return values.filter((value, code) => seen[code] === 1 && value !== '').sort();
  }
}

function column(facts: readonly PageFact[], valueOf: (fact: PageFact) => string): FacetColumn {
  const values: string[] = [];
  const codeOf = new Map<string, number>();
  const codes = new Uint16Array(facts.length);
  facts.forEach((fact, row) => {
    const value = valueOf(fact);
    let code = codeOf.get(value);
    if (code === undefined) {
      code = values.length;
      // A 16-bit code: past 65,535 distinct values the rest share the last one.
      if (code > 0xffff) code = 0xffff;
      else {
        values.push(value);
        codeOf.set(value, code);
      }
    }
    codes[row] = code;
  });
  return { values, codeOf, codes };
}

/** Joins rows related by URL (union–find); each row's group is the smallest row of its set. */
function groupRows(urls: readonly string[], relatedOf: (row: number) => readonly string[]): Int32Array {
  const parent = Int32Array.from(urls, (_, row) => row);
  const find = (row: number): number => {
    while (parent[row] !== row) {
      parent[row] = parent[parent[row]];
      row = parent[row];
    }
    return row;
  };
  const rowOfUrl = new Map<string, number>();
  urls.forEach((url, row) => rowOfUrl.set(url, row));
  urls.forEach((_, row) => {
    for (const url of relatedOf(row)) {
      const other = rowOfUrl.get(url);
      if (other === undefined) continue;
      const a = find(row);
      const b = find(other);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  });
  return Int32Array.from(parent, (_, row) => find(row));
}

/** Reads the facts of every local page of the store; URLs are the strings of the store's URL table. */
export async function loadPageFacts(store: CrawlStore): Promise<PageFacts> {
  async function* rows(): AsyncGenerator<[number, PageFact]> {
    for await (const [id, page] of store.pages()) {
      const fact = pageFact(page, (other) => store.urlOf(other));
      if (fact) yield [id, { ...fact, url: store.urlOf(id) ?? fact.url }];
    }
  }
  const collected: Array<[number, PageFact]> = [];
  for await (const row of rows()) collected.push(row);
  return new PageFacts(collected);
}

/** The table with the given pages read again from the store (after a crawl or a re-crawl). */
export async function refreshPageFacts(facts: PageFacts, store: CrawlStore, ids: readonly number[]): Promise<PageFacts> {
  const pages = await store.getPages(ids);
  return facts.withChanges(ids.map((id, i) => [id, pages[i] ? pageFact(pages[i], (other) => store.urlOf(other)) : undefined]));
}
