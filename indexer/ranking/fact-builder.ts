/**
 * The columns of the page-facts table (fact-table.ts), built one page at a time in id order: no
 * fact object is held past its `add`, so a pass over a million pages (the index build's, or the
 * facts' own) holds typed arrays and the strings the table keeps, never a list of facts.
 */
import type { FacetColumn, FactColumns, SavedFacts } from './fact-table.ts';
import { languageOfUrl, type PageFact } from './page-facts.ts';

type NumberArray = Int32Array | Uint16Array | Uint8Array | Float64Array;

/** A typed array that grows by doubling; `done` gives it at its length. */
class GrowingArray<A extends NumberArray> {
  private data: A;
  length = 0;

  constructor(private readonly make: (size: number) => A) {
    this.data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const larger = this.make(this.data.length * 2);
      larger.set(this.data);
      this.data = larger;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index];
  }

  done(): A {
    return this.data.slice(0, this.length) as A;
  }
}

/** One facet dimension being built: values in order of first use, a 16-bit code per row. */
class FacetBuilder {
  readonly values: string[] = [];
  private readonly codeOf = new Map<string, number>();
  private readonly codes = new GrowingArray((size) => new Uint16Array(size));

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

  done(): FacetColumn {
    return { values: this.values, codeOf: this.codeOf, codes: this.codes.done() };
  }
}

export class PageFactsBuilder {
  private readonly ids = new GrowingArray((size) => new Int32Array(size));
  private readonly indexed = new GrowingArray((size) => new Uint8Array(size));
  private readonly dates = new GrowingArray((size) => new Float64Array(size));
  private readonly lang = new FacetBuilder();
  private readonly host = new FacetBuilder();
  private readonly section = new FacetBuilder();
  private readonly type = new FacetBuilder();
  private readonly urls: string[] = [];
  private readonly relatedStarts = new GrowingArray((size) => new Int32Array(size));
  private readonly related: string[] = [];
  private readonly copyCounts = new GrowingArray((size) => new Uint16Array(size));
  /** The language each row's URL names, as a number into `namedLanguages` (-1: none). */
  private readonly named = new GrowingArray((size) => new Int32Array(size));
  private readonly namedLanguages: string[] = [];
  private readonly namedNumber = new Map<string, number>();

  constructor() {
    this.relatedStarts.push(0);
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
    this.urls.push(fact.url);
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
    let number = named === undefined ? -1 : this.namedNumber.get(named);
    if (number === undefined) {
      number = this.namedLanguages.push(named!) - 1;
      this.namedNumber.set(named!, number);
    }
    this.named.push(number);
  }

  /** The columns of the rows added. */
  done(): SavedFacts {
    const lang = this.lang.done();
    const host = this.host.done();
    const section = this.section.done();
    const type = this.type.done();
    const relatedStarts = this.relatedStarts.done();
    const copyCounts = this.copyCounts.done();
    const { urls, related, namedLanguages } = this;
    const namedCodes = namedLanguages.map((named) => lang.codeOf.get(named) ?? -1);
    const columns: FactColumns = {
      ids: this.ids.done(),
      indexed: this.indexed.done(),
      dates: this.dates.done(),
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
      group: groupRows(urls, (row) => related.slice(relatedStarts[row], relatedStarts[row + 1])),
      copyClass: groupRows(urls, (row) => related.slice(relatedStarts[row], relatedStarts[row] + copyCounts[row])),
      urlLanguage: this.named.done().map((number) => (number < 0 ? -1 : namedCodes[number])),
    };
    return { urls, columns };
  }
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
