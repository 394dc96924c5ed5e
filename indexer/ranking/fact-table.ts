/**
 * The page facts of the search as a table of columns: one row per local page, in id order, and
 * no object per page — URLs are the store's (its URL table) held as bytes in a string column (a
 * million strings were +75 MB of heap objects at a million pages), facet values are codes
 * into a column's values, dates, flags and groups are typed arrays, and the pages each page is a
 * copy or translation of are one flat list with offsets. At a million pages that is tens of MB
 * where a fact object per page held hundreds.
 */
import { join } from 'node:path';
import type { CrawlStore, PageRecord } from '../store/crawl-store.ts';
import { readColumnFileAnyKey, writeColumnFile, type Column } from './column-file.ts';
import { PageFactsBuilder } from './fact-builder.ts';
import { facetTuples, facetTupleSteps, type FacetTuples } from './facet-tuples.ts';
import { runSteps, runStepsYielding } from '../stepwise.ts';
import { StringColumnBuilder, type StringColumn } from '../text-index/string-column.ts';
import { FACET_NAMES, pageFact, type FacetName, type PageFact } from './page-facts.ts';

/** One facet dimension: its values, and each row's value as a code into them. */
export interface FacetColumn {
  values: string[];
  codeOf: Map<string, number>;
  codes: Uint16Array;
}

const EMPTY_ROWS = new Int32Array(0);
/**
 * Rows a refresh copies between two yields: a server's first refresh runs before its code is
 * compiled, when 8,192 rows held the event loop 70-90 ms at a million pages.
 */
const ROWS_PER_STEP = 1_024;
/** Rows of a plain loop over the typed arrays between yields. */
const DERIVED_ROWS_PER_STEP = 16_384;
const derivedStepEnds = (row: number) => row % DERIVED_ROWS_PER_STEP === DERIVED_ROWS_PER_STEP - 1;

function addChanged(builder: PageFactsBuilder, [id, fact]: [number, PageFact | undefined]): void {
  if (fact) builder.add(id, fact);
}

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
  private readonly urls: StringColumn;
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
  private tuples: FacetTuples | undefined;
  private readonly saved: FactColumns;
  /** The store's page-write sequence the rows reflect, when a load, a pass or a refresh knows it (the page journal goes on from there). */
  asOf: number | undefined;

  /** The table of these facts (read once: no fact object is kept), or of saved columns (checked; `derived` when {@link steps} made them). */
  constructor(source: ReadonlyMap<number, PageFact> | Iterable<[number, PageFact]> | SavedFacts, derived?: DerivedRows) {
    const { columns: c, urls } = 'columns' in source ? (source as SavedFacts) : columnsOfFacts(source as Iterable<[number, PageFact]>);
    if (derived === undefined) runSteps(checkColumnsSteps(c, urls));
    this.saved = c;
    this.ids = c.ids;
    this.urls = urls;
    this.indexed = c.indexed;
    this.dates = c.dates;
    this.columns = {
      lang: facetColumn(c.langValues, c.langCodes),
      host: facetColumn(c.hostValues, c.hostCodes),
      section: facetColumn(c.sectionValues, c.sectionCodes),
      type: facetColumn(c.typeValues, c.typeCodes),
    };
    this.relatedStarts = c.relatedStarts;
    this.related = c.related;
    this.copyCounts = c.copyCounts;
    this.group = c.group;
    this.copyClass = c.copyClass;
    this.urlLanguage = c.urlLanguage;
    ({ rowOfId: this.rowOfId, groupSize: this.groupSize, memberStarts: this.memberStarts, memberRows: this.memberRows } = derived ?? runSteps(derivedRowsSteps(c.ids, c.group)));
  }

  /** The table of saved columns in steps of a column or a share of the rows (a server's refresh), its facet combinations numbered. */
  static *steps(saved: SavedFacts): Generator<void, PageFacts> {
    yield* checkColumnsSteps(saved.columns, saved.urls);
    const table = new PageFacts(saved, yield* derivedRowsSteps(saved.columns.ids, saved.columns.group));
    yield;
    table.tuples = yield* facetTupleSteps(FACET_NAMES.map((name) => table.columns[name].codes), table.group, table.groupSize);
    return table;
  }

  /** The columns to save (the URLs are the store's, by id). */
  toColumns(): FactColumns {
    return this.saved;
  }

  static empty(): PageFacts {
    return new PageFacts(new Map());
  }

  /** Number of rows (pages). */
  get size(): number {
    return this.ids.length;
  }

  urlOf(row: number): string {
    return this.urls.at(row);
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
      url: this.urls.at(row),
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

  /** The id of a row's URL (the column hashes its URLs' bytes at the first call, no Map of strings). */
  idOfUrl(url: string): number | undefined {
    const row = this.urls.indexOf(url);
    return row < 0 ? undefined : this.ids[row];
  }

  /** Each row's combination of facet values, numbered (made at the first count, then kept). */
  get facetTuples(): FacetTuples {
    this.tuples ??= facetTuples(FACET_NAMES.map((name) => this.columns[name].codes), this.group, this.groupSize);
    return this.tuples;
  }

  rowOf(id: number): number {
    return id >= 0 && id < this.rowOfId.length ? this.rowOfId[id] : -1;
  }

  /** The table with some pages changed (a fact) or gone (undefined). */
  withChanges(changes: Iterable<[number, PageFact | undefined]>, idOfUrl?: (url: string) => number | undefined): PageFacts {
    return runSteps(this.changedSteps(changes, idOfUrl));
  }

  /**
   * {@link withChanges} as steps, for {@link runStepsYielding}: the unchanged rows are copied
   * column by column (no fact object, no value looked up) and the changed ones encoded, in id
   * order, yielding every {@link ROWS_PER_STEP} rows. The table equals one built from scratch.
   */
  *changedSteps(changes: Iterable<[number, PageFact | undefined]>, idOfUrl?: (url: string) => number | undefined): Generator<void, PageFacts> {
    const changed = [...new Map(changes)].sort((a, b) => a[0] - b[0]);
    const builder = new PageFactsBuilder({ columns: this.saved, facets: this.columns, urls: this.urls });
    yield* builder.roomSteps();
    const ids = this.ids;
    let next = 0;
    for (let row = 0; row < ids.length; row++) {
      while (next < changed.length && changed[next][0] < ids[row]) addChanged(builder, changed[next++]);
      if (next < changed.length && changed[next][0] === ids[row]) addChanged(builder, changed[next++]);
      else builder.copyRow(row);
      if (row % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    }
    while (next < changed.length) addChanged(builder, changed[next++]);
    yield;
    // Facet combinations numbered here rather than by the first search after the refresh (100 ms at a million pages).
    return yield* PageFacts.steps(yield* builder.doneSteps(idOfUrl));
  }

  /** Values of a facet present among indexed pages. */
  indexedValues(name: FacetName): string[] {
    const { values, codes } = this.columns[name];
    const seen = new Uint8Array(values.length);
    for (let row = 0; row < codes.length; row++) if (this.indexed[row] === 1) seen[codes[row]] = 1;
    return values.filter((value, code) => seen[code] === 1 && value !== '').sort();
  }
}

/** The saved form of the table: every column but those derived at load (row of id, group members). */
export interface FactColumns {
  ids: Int32Array;
  indexed: Uint8Array;
  dates: Float64Array;
  langValues: string[];
  langCodes: Uint16Array;
  hostValues: string[];
  hostCodes: Uint16Array;
  sectionValues: string[];
  sectionCodes: Uint16Array;
  typeValues: string[];
  typeCodes: Uint16Array;
  relatedStarts: Int32Array;
  related: string[];
  copyCounts: Uint16Array;
  group: Int32Array;
  copyClass: Int32Array;
  urlLanguage: Int32Array;
}

export interface SavedFacts {
  columns: FactColumns;
  /** Each row's URL. */
  urls: StringColumn;
}

function columnsOfFacts(records: Iterable<[number, PageFact]>): SavedFacts {
  const builder = new PageFactsBuilder();
  for (const [id, fact] of [...records].sort((a, b) => a[0] - b[0])) builder.add(id, fact);
  return builder.done();
}

/** Throws when saved columns disagree in length or hold values out of range; yields every {@link ROWS_PER_STEP} × 8 rows. */
function* checkColumnsSteps(c: FactColumns, urls: { readonly length: number }): Generator<void, void> {
  const { ids, group, copyClass, langCodes, hostCodes, sectionCodes, typeCodes } = c;
  const rows = ids.length;
  const sameRows = [c.indexed, c.dates, langCodes, hostCodes, sectionCodes, typeCodes, c.copyCounts, group, copyClass, c.urlLanguage].every((column) => column.length === rows);
  let ok = sameRows && urls.length === rows && c.relatedStarts.length === rows + 1 && c.relatedStarts[rows] === c.related.length;
  const [langs, hosts, sections, types] = [c.langValues.length, c.hostValues.length, c.sectionValues.length, c.typeValues.length];
  for (let from = 0; ok && from < rows; from += ROWS_PER_STEP * 8) {
    const to = Math.min(rows, from + ROWS_PER_STEP * 8);
    for (let row = from; ok && row < to; row++) {
      ok =
        ids[row] >= 0 &&
        (row === 0 || ids[row] > ids[row - 1]) &&
        group[row] >= 0 &&
        group[row] < rows &&
        copyClass[row] >= 0 &&
        copyClass[row] < rows &&
        langCodes[row] < langs &&
        hostCodes[row] < hosts &&
        sectionCodes[row] < sections &&
        typeCodes[row] < types;
    }
    yield;
  }
  if (!ok) throw new Error('page facts: columns of inconsistent lengths or values');
}

/** What a table derives from its ids and groups at load: row of each id, and each group's size and rows. */
interface DerivedRows {
  rowOfId: Int32Array;
  groupSize: Int32Array;
  memberStarts: Int32Array;
  memberRows: Int32Array;
}

/** Plain loops over the typed arrays (a million rows at every load and refresh), in steps. */
function* derivedRowsSteps(ids: Int32Array, group: Int32Array): Generator<void, DerivedRows> {
  const rows = ids.length;
  const rowOfId = new Int32Array(rows > 0 ? ids[rows - 1] + 1 : 0).fill(-1);
  for (let row = 0; row < rows; row++) {
    rowOfId[ids[row]] = row;
    if (derivedStepEnds(row)) yield;
  }
  const groupSize = new Int32Array(rows);
  for (let row = 0; row < rows; row++) {
    groupSize[group[row]]++;
    if (derivedStepEnds(row)) yield;
  }
  const memberStarts = new Int32Array(rows);
  let next = 0;
  for (let g = 0; g < rows; g++) {
    memberStarts[g] = next;
    next += groupSize[g];
    if (derivedStepEnds(g)) yield;
  }
  const memberRows = new Int32Array(rows);
  const filled = new Int32Array(rows);
  for (let row = 0; row < rows; row++) {
    memberRows[memberStarts[group[row]] + filled[group[row]]++] = row;
    if (derivedStepEnds(row)) yield;
  }
  yield;
  return { rowOfId, groupSize, memberStarts, memberRows };
}

function facetColumn(values: string[], codes: Uint16Array): FacetColumn {
  return { values, codeOf: new Map(values.map((value, code) => [value, code])), codes };
}

const FACTS_FORMAT = 'lse-page-facts/1';
const factsFile = (store: CrawlStore) => join(store.directory, 'facts', 'page-facts.bin');
const factsKey = (store: CrawlStore) => ({ pageSequence: store.pageWriteSequence });

/**
 * The facts of every local page of the store: the table saved when the pages were last read,
 * with the pages written since then (the store's page journal lists them) read again and the
 * table saved anew; else, when there is no usable saved table or the journal no longer reaches
 * back to it, read from every page, and saved. URLs are the strings of the store's URL table.
 */
export async function loadPageFacts(store: CrawlStore): Promise<PageFacts> {
  // Read before the pages: a page written meanwhile makes the saved table stale, never wrong.
  const key = factsKey(store);
  const saved = await readColumnFileAnyKey(factsFile(store), FACTS_FORMAT);
  let reason = saved.reason;
  if (saved.columns) {
    try {
      const pageSequence = (saved.key as { pageSequence?: unknown } | undefined)?.pageSequence;
      const savedSequence = typeof pageSequence === 'number' ? pageSequence : undefined;
      const current = savedSequence === key.pageSequence;
      const written = current ? [] : savedSequence !== undefined && savedSequence < key.pageSequence ? await store.pageJournalSince(savedSequence) : undefined;
      if (written !== undefined) {
        const columns = Object.fromEntries(saved.columns) as unknown as FactColumns;
        const urls = new StringColumnBuilder();
        for (const id of columns.ids ?? []) urls.add(store.urlOf(id) ?? '');
        const facts = new PageFacts({ columns, urls: urls.done() });
        void facts.facetTuples;
        facts.asOf = savedSequence;
        return written.length === 0 ? facts : await refreshWritten(facts, store, [], key.pageSequence, written);
      }
      reason = savedSequence !== undefined && savedSequence > key.pageSequence ? 'saved for another store' : 'the page journal no longer reaches back to them';
    } catch (error) {
      reason = (error as Error).message;
    }
  }
  if (reason !== 'none saved') process.stderr.write(`reading the page facts from the pages (saved ones: ${reason})\n`);
  return savePageFacts(store);
}

/** Reads the facts of every page and saves them (`lse index`, `lse import`), for the server to load. */
export async function savePageFacts(store: CrawlStore): Promise<PageFacts> {
  const pass = new PageFactsPass(store);
  for await (const [id, page] of store.pages()) pass.add(id, page);
  return pass.save();
}

/**
 * The facts of the store's pages gathered as a pass reads them (this module's own, or the index
 * build's), in id order, then saved for the server to load.
 */
export class PageFactsPass {
  // Read before the pages: a page written during the pass makes the saved table stale, never wrong.
  private readonly key: { pageSequence: number };
  private readonly builder = new PageFactsBuilder();

  constructor(private readonly store: CrawlStore) {
    this.key = factsKey(store);
  }

  /** One stored page (ids ascending, as the store iterates them). */
  add(id: number, page: PageRecord): void {
    const fact = pageFact(page, (other) => this.store.urlOf(other));
    if (fact === undefined) return;
    fact.url = this.store.urlOf(id) ?? fact.url;
    this.builder.add(id, fact);
  }

  async save(): Promise<PageFacts> {
    const facts = new PageFacts(this.builder.done());
    void facts.facetTuples;
    await saveFacts(this.store, facts, this.key.pageSequence);
    return facts;
  }
}

/**
 * The table with the given pages read again from the store (after a crawl, a re-crawl or a push).
 * When the table knows the page-write sequence its rows reflect and the store's page journal
 * still reaches back to it, every page written since is read too: the table is then exactly the
 * store's as of now, and saved, so that the next start loads it rather than reading every page.
 */
export async function refreshPageFacts(facts: PageFacts, store: CrawlStore, ids: readonly number[]): Promise<PageFacts> {
  // Read before the pages: a page written meanwhile makes the saved table stale, never wrong.
  const sequence = store.pageWriteSequence;
  const written = facts.asOf !== undefined && facts.asOf <= sequence ? await store.pageJournalSince(facts.asOf) : undefined;
  return refreshWritten(facts, store, ids, sequence, written);
}

/** The table with `ids` and the journal's `written` pages read again; saved as of `sequence` when the journal was read. */
async function refreshWritten(facts: PageFacts, store: CrawlStore, ids: readonly number[], sequence: number, written: readonly number[] | undefined): Promise<PageFacts> {
  const changes: Array<[number, PageFact | undefined]> = [];
  for await (const [id, page] of store.pagesOf(written ? [...new Set([...ids, ...written])] : ids)) {
    const fact = page ? pageFact(page, (other) => store.urlOf(other)) : undefined;
    // The URL as the store's table holds it, as a full pass reads it (PageFactsPass).
    if (fact) fact.url = store.urlOf(id) ?? fact.url;
    changes.push([id, fact]);
  }
  const refreshed = await runStepsYielding(facts.changedSteps(changes, (url) => store.idOf(url)));
  if (written) {
    // A failure only costs the next start a full read.
    await saveFacts(store, refreshed, sequence).catch((error: Error) => process.stderr.write(`could not save the page facts: ${error.message}\n`));
  }
  return refreshed;
}

/** Saves the table as of the page-write sequence `asOf`. */
async function saveFacts(store: CrawlStore, facts: PageFacts, asOf: number): Promise<void> {
  await writeColumnFile(factsFile(store), FACTS_FORMAT, { pageSequence: asOf }, facts.toColumns() as unknown as Record<string, Column>);
  facts.asOf = asOf;
}
