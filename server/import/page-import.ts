/**
 * Pages pushed by a site (a CMS, a build step) rather than crawled: each checked line becomes a
 * local page of the store with its links, exactly as a crawled page would be stored, so the
 * index, the local PageRank and estimation rounds treat both alike. Importing a page again is an
 * update; an unchanged page is not written again (and so not re-indexed).
 */
import { fingerprintHex, normalizedFingerprint } from '../../crawler/duplicates.ts';
import { pageWords } from '../../crawler/page-fetch.ts';
import type { CrawlStore, PageRecord, StoredLink } from '../../indexer/store/crawl-store.ts';
import type { NumberedLine } from './jsonl-lines.ts';
import { IMPORT_LIMITS, ImportUrls, parsePageLine, type ImportedPage, type LineError } from './page-line.ts';
import { timeSlices } from '../../indexer/stepwise.ts';

export interface ImportOptions {
  /** Milliseconds since the epoch stamped on the pages (default: now). */
  now?: number;
  /** Pages per store commit (default 500). */
  batchPages?: number;
  /** Errors kept in the summary (all are counted; default 100). */
  keepErrors?: number;
  /** Told about every bad line as it is met. */
  onError?: (error: LineError) => void;
}

export interface ImportSummary {
  /** Non-blank lines read. */
  lines: number;
  /** Pages new to the store, pages changed, pages as they were. */
  added: number;
  updated: number;
  unchanged: number;
  /** Bad lines: how many, and the first `keepErrors` of them. */
  errorCount: number;
  errors: LineError[];
  /** Store ids of the pages added or changed: what the index must take up. */
  changedIds: number[];
  /** Why reading the input stopped early (the lines read before it went in). */
  inputError?: Error;
}

/**
 * Pages per commit when a server imports beside its searches. A commit's records are encoded and
 * handed to LevelDB in one go: at 500 pages, the 1 % update of a million-page store held the event
 * loop up to 21-24 ms, 29-31 times over 10 ms; at 100, 11-12 ms, 1-3 times, in the same time.
 */
export const SERVED_BATCH_PAGES = 100;

/** Longest stretch of parsing between two turns of the event loop. */
const SLICE_MS = 8;

export async function importPages(store: CrawlStore, lines: AsyncIterable<NumberedLine>, options: ImportOptions = {}): Promise<ImportSummary> {
  const now = options.now ?? Date.now();
  const batchPages = options.batchPages ?? 500;
  const keepErrors = options.keepErrors ?? 100;
  const summary: ImportSummary = { lines: 0, added: 0, updated: 0, unchanged: 0, errorCount: 0, errors: [], changedIds: [] };
  const error = (e: LineError): void => {
    summary.errorCount++;
    if (summary.errors.length < keepErrors) summary.errors.push(e);
    options.onError?.(e);
  };
  let pending: ImportedPage[] = [];
  const urls = new ImportUrls();
  const fresh = new FreshIds(store);
  // Lines read ahead come without a turn of the event loop between them: a server's searches get one every few ms.
  const turn = timeSlices(SLICE_MS);
  try {
    for await (const numbered of lines) {
      await turn();
      if ('tooLong' in numbered) {
        summary.lines++;
        error({ line: numbered.line, field: 'line', message: `longer than ${IMPORT_LIMITS.maxLineChars} characters` });
        continue;
      }
      if (numbered.text.trim() === '') continue;
      summary.lines++;
      const parsed = parsePageLine(numbered.text, numbered.line, urls);
      if (!parsed.ok) {
        error(parsed.error);
        continue;
      }
      pending.push(parsed.page);
      if (pending.length >= batchPages) {
        await writePages(store, pending, now, summary, fresh, turn);
        pending = [];
      }
    }
  } catch (failure) {
    // The input broke off (a cut request, a read error): what was read still goes in.
    summary.inputError = failure instanceof Error ? failure : new Error(String(failure));
  }
  if (pending.length > 0) await writePages(store, pending, now, summary, fresh, turn);
  return summary;
}

/**
 * The URLs that got their id in this import (ids from the store's URL count at its start on)
 * and whose page it has not written yet: the store holds no page for them, so none is read. Only
 * while no one else writes pages (a crawl beside a push): from the first page write not the
 * import's own, every page is read again.
 */
class FreshIds {
  private written = new Uint8Array(1024);
  private readonly firstId: number;
  /** The store's page-write sequence after the import's last commit. */
  private sequence: number;
  private othersWrote = false;

  constructor(private readonly store: CrawlStore) {
    this.firstId = store.urlCount;
    this.sequence = store.pageWriteSequence;
  }

  hasNoPage(id: number): boolean {
    if (this.store.pageWriteSequence !== this.sequence) this.othersWrote = true;
    return !this.othersWrote && id >= this.firstId && this.written[id - this.firstId] !== 1;
  }

  /** After a commit of the import's that wrote these pages. */
  committed(ids: readonly number[]): void {
    if (ids.length > 0) this.sequence++;
    for (const id of ids) {
      if (id < this.firstId) continue;
      const at = id - this.firstId;
      if (at >= this.written.length) {
        const larger = new Uint8Array(Math.max(this.written.length * 2, at + 1));
        larger.set(this.written);
        this.written = larger;
      }
      this.written[at] = 1;
    }
  }
}

/** The stored pages of these ids (undefined for none), reading only those the store may hold. */
async function storedPages(store: CrawlStore, ids: readonly number[], fresh: FreshIds): Promise<Array<PageRecord | undefined>> {
  const read = ids.filter((id) => !fresh.hasNoPage(id));
  const pages = read.length > 0 ? await store.getPages(read) : [];
  const byId = new Map(read.map((id, i) => [id, pages[i]]));
  return ids.map((id) => byId.get(id));
}

/** Writes one batch of pages (and their links and visit history) in one atomic commit. */
async function writePages(store: CrawlStore, pages: readonly ImportedPage[], now: number, summary: ImportSummary, fresh: FreshIds, turn: () => Promise<void> | undefined): Promise<void> {
  const batch = store.batch();
  const changedBefore = summary.changedIds.length;
  const ids = pages.map((page) => batch.idFor(page.url));
  const previous = await storedPages(store, ids, fresh);
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i];
    const id = ids[i];
    const before = previous[i];
    const links: StoredLink[] = page.links.map((url) => ({ to: batch.idFor(url) }));
    const record = pageRecord(page, before, now);
    if (before !== undefined && sameContent(before, record) && sameLinks(await store.getLinks(id), links)) {
      summary.unchanged++;
      continue;
    }
    const changed = before?.fingerprint !== undefined && before.fingerprint !== record.fingerprint;
    if (changed) record.changes++;
    batch.putPage(id, record).putLinks(id, links).appendHistory(id, { at: now, changed, status: 200, fingerprint: record.fingerprint });
    if (before === undefined) summary.added++;
    else summary.updated++;
    summary.changedIds.push(id);
    await turn();
  }
  await batch.commit();
  fresh.committed(summary.changedIds.slice(changedBefore));
}

function pageRecord(page: ImportedPage, before: PageRecord | undefined, now: number): PageRecord {
  const record: PageRecord = {
    url: page.url,
    host: new URL(page.url).host,
    role: 'local',
    state: 'fetched',
    status: 200,
    fetchedAt: now,
    firstFetchedAt: before?.firstFetchedAt ?? before?.fetchedAt ?? now,
    depth: 0,
    fingerprint: fingerprintHex(normalizedFingerprint(pageWords(page.title, page.body))),
    title: page.title,
    text: page.body,
    visits: (before?.visits ?? 0) + 1,
    changes: before?.changes ?? 0,
    imported: true,
  };
  if (page.lang !== undefined) record.lang = page.lang;
  if (page.type !== undefined) record.type = page.type;
  if (page.lastModified !== undefined) record.lastModified = page.lastModified;
  // A trail ends with the page's own crumb, which never names its section.
  if (page.section !== undefined) record.breadcrumb = [{ name: page.section }, { name: page.title, url: page.url }];
  return record;
}

/** Same text and facts as stored (visit counters and times aside). */
function sameContent(before: PageRecord, after: PageRecord): boolean {
  return (
    before.imported === true &&
    before.role === 'local' &&
    before.state === 'fetched' &&
    before.fingerprint === after.fingerprint &&
    before.title === after.title &&
    before.text === after.text &&
    before.lang === after.lang &&
    before.type === after.type &&
    before.lastModified === after.lastModified &&
    before.breadcrumb?.[0]?.name === after.breadcrumb?.[0]?.name
  );
}

function sameLinks(a: readonly StoredLink[], b: readonly StoredLink[]): boolean {
  return a.length === b.length && a.every((link, i) => link.to === b[i].to);
}
