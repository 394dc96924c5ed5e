/**
 * The store: one embedded database (level) that is the single source of truth of a data
 * directory. Everything in memory — graph arrays, the text index, the crawl frontier's order — is
 * rebuilt from it.
 *
 * Sublevels (keys sort as written; ids are fixed-width hex so they sort numerically):
 * - `urls`      url → id          dense integer ids, assigned once, never reused
 * - `url-ids`   id → url          the same, by id: what a URL table snapshot lacks is read from here
 * - `pages`     id → PageRecord   one record per fetched (or attempted) page
 * - `links`     id → StoredLink[] out-links of a fetched page, with anchor text
 * - `frontier`  id → FrontierEntry URLs discovered but not fetched yet
 * - `hosts`     host → HostState  robots, politeness and budget state
 * - `history`   id/time → ChangeRecord   one entry per visit (change detection, λ estimates)
 * - `ranks`     name/version → RankVersion   rank vectors (local PageRank, global estimates)
 * - `jobs`      id → job state    crawls, estimation rounds, re-crawls
 * - `meta`      key → JSON        settings the data directory was made with, counters
 * - `sketches`  id → StoredSketch   near-duplicate sketch of an original local page (crawler/stored-sketch.ts)
 * - `journal`   sequence → ids    the ids whose page or links each commit wrote (see pageJournalSince)
 *
 * All writes go through {@link WriteBatch}: one atomic `batch` per commit, optionally fsynced, so
 * a crash (even SIGKILL) loses nothing that was committed and never leaves half a page.
 *
 * Beside the database, `url-table.bin` snapshots the URL table (url-table-file.ts), so that
 * opening a store of a million URLs reads one file rather than a million entries.
 */
import type { ClassicLevel } from 'classic-level';
import { Level } from 'level';
import { StoreError } from './errors.ts';
import { decodeRanks, encodeRankPiece, encodeRanks, rankPieceKey, rankRow, readRankPieces, readRankValue, rowHasBytes, type RankRow, type RankVersionValue } from './rank-rows.ts';
import { writeUrlTableFile } from './url-table-file.ts';
import { loadUrlTable, urlIdKey, type UrlTableLoad } from './url-table-load.ts';
import { UrlTable } from './url-table.ts';

export type { PageRole, PageState, PageRecord, PageFailures, PageAlternateRecord, BreadcrumbRecord, PageSection, StoredLink, FrontierEntry, HostState, ChangeRecord, StoredSketch, RankVersion } from './records.ts';
import type { ChangeRecord, FrontierEntry, HostState, PageRecord, RankVersion, StoredLink, StoredSketch } from './records.ts';

export { StoreError };

const idKey = (id: number) => id.toString(16).padStart(8, '0');
const keyId = (key: string) => Number.parseInt(key, 16);
const sequenceKey = (sequence: number) => sequence.toString(16).padStart(12, '0');
const PAGE_SEQUENCE_KEY = 'page-write-sequence';
/**
 * Whole-store scans read up to 4 MB a call into LevelDB (up to its 1,000 entries a call) instead
 * of classic-level's 16 KB: about 8 pages a call. Every call ends in a turn of the event loop, and
 * while a job runs a search takes each turn; a scan of a million pages then waited behind 125,000
 * searches, and an update's job did not end within 15 minutes of continuous searches.
 */
const SCAN: Record<string, unknown> = { highWaterMarkBytes: 4 * 1024 * 1024 };
const JOURNAL_PRUNED_KEY = 'page-journal-pruned';
const versionKey = (name: string, version: number) => `${name}/${version.toString(16).padStart(8, '0')}`;

type Json = Record<string, unknown> | unknown[];

// Values are JSON; their shapes are the record types above, checked at this module's boundary.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Stored = any;
/** A sublevel of JSON values, or of raw bytes (`view`: Uint8Array values). */
function openSublevel(db: Level<string, Stored>, name: string, valueEncoding: 'json' | 'view' = 'json') {
  return db.sublevel<string, Stored>(name, { valueEncoding });
}
type Sub<_V = unknown> = ReturnType<typeof openSublevel>;

/**
 * Table files LevelDB keeps open (its default is 1,000). Each open table (about 2 MB) is mapped
 * into memory, and a pass over every page leaves every one it read resident, counted in the
 * process's RSS: 1.4 GB of mapped tables at a million pages during an index build. With 200,
 * at most about 400 MB; a random read whose table was closed opens it again (10k random page
 * reads of a 300k-page store: 0.4 s with every table open, 1.7–2.2 s with 100 open).
 */
const STORE_MAX_OPEN_FILES = 200;

/** A snapshot is (re)written once this many saved ids, and as many as it holds, are past it. */
const URL_SNAPSHOT_MIN_TAIL = 50_000;

export class CrawlStore {
  private urls = new UrlTable();
  /** URLs given an id whose mapping no commit has written yet: every commit carries them. */
  private readonly unsavedUrls = new Map<string, number>();
  /** Ids the URL table snapshot file holds, and the write of one under way. */
  private snapshotUrls = 0;
  private savingSnapshot: Promise<void> | undefined;
  /** After a failed snapshot write, commits try again only once the saved ids reach this. */
  private snapshotRetryAt = 0;
  /** How the URL table was loaded at open (ids from the snapshot, store entries read). */
  urlTableLoad: UrlTableLoad = { fromSnapshot: 0, entriesRead: 0, rebuilt: false };
  /** `rankData`: the arrays of the rank vectors in `ranks`, as raw bytes under the same keys (rank-rows.ts). */
  private readonly subs: Record<'urls' | 'urlIds' | 'pages' | 'links' | 'frontier' | 'hosts' | 'history' | 'ranks' | 'rankData' | 'jobs' | 'meta' | 'journal' | 'sketches', Sub<unknown>>;
  /** The sequence number of the last commit that wrote pages (0: none since the journal began). */
  private pageSequence = 0;

  private constructor(
    private readonly db: Level<string, Stored>,
    readonly directory: string,
  ) {
    const sub = (name: string) => openSublevel(db, name);
    this.subs = {
      urls: sub('urls'),
      urlIds: sub('url-ids'),
      pages: sub('pages'),
      links: sub('links'),
      frontier: sub('frontier'),
      hosts: sub('hosts'),
      history: sub('history'),
      ranks: sub('ranks'),
      jobs: sub('jobs'),
      meta: sub('meta'),
      journal: sub('journal'),
      sketches: sub('sketches'),
      rankData: openSublevel(db, 'rank-data', 'view'),
    };
  }

  /** Opens (creating if needed) the store of a data directory and loads the URL table. */
  static async open(directory: string): Promise<CrawlStore> {
    const db = new Level<string, Stored>(directory, { valueEncoding: 'json', maxOpenFiles: STORE_MAX_OPEN_FILES });
    try {
      await db.open();
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause;
      const detail = cause?.message ?? (error as Error).message;
      if (/lock/i.test(detail)) throw new StoreError(`the data directory ${directory} is in use by another lse process`, { cause: error });
      throw new StoreError(`cannot open the data directory ${directory}: ${detail}`, { cause: error });
    }
    const store = new CrawlStore(db, directory);
    try {
      const { table, load } = await loadUrlTable(directory, store.subs.urls, store.subs.urlIds);
      store.urls = table;
      store.urlTableLoad = load;
      store.snapshotUrls = load.fromSnapshot;
      store.pageSequence = (await store.getMeta<number>(PAGE_SEQUENCE_KEY)) ?? 0;
      await store.snapshotWhenBehind();
    } catch (error) {
      await db.close();
      throw error;
    }
    return store;
  }

  /**
   * Compacts the whole database now. After a bulk write (an import, an index build) LevelDB holds
   * overwritten and deleted entries until its background compactions reach them, which they do
   * over the next runs: on disk meanwhile, and run beside the next start's reads.
   */
  async compact(): Promise<void> {
    // In Node.js `level` is classic-level, whose compactRange its universal type does not name.
    await (this.db as unknown as ClassicLevel<string, Stored>).compactRange('\u0000', '\u{10ffff}', { keyEncoding: 'utf8' });
  }

  /** Closes the database, first snapshotting the URL table when ids were saved since the last snapshot. */
  async close(): Promise<void> {
    try {
      await this.saveUrlSnapshot();
    } finally {
      await this.db.close();
    }
  }

  /** Number of URLs ever given an id (fetched or not). */
  get urlCount(): number {
    return this.urls.size;
  }

  idOf(url: string): number | undefined {
    return this.urls.idOf(url);
  }

  /** The URL of an id (decoded from the table on each call). */
  urlOf(id: number): string | undefined {
    return this.urls.urlOf(id);
  }

  /**
   * Writes the URL table snapshot of the ids saved so far, unless the snapshot already holds them.
   * A failed write is reported as a warning: the snapshot is a cache, the store keeps the truth.
   */
  async saveUrlSnapshot(): Promise<void> {
    while (this.savingSnapshot) await this.savingSnapshot;
    // Unsaved ids are always the newest (every commit carries them all).
    const saved = this.urls.size - this.unsavedUrls.size;
    if (saved <= this.snapshotUrls) return;
    this.savingSnapshot = writeUrlTableFile(this.directory, this.urls.parts(saved)).then(
      () => {
        this.snapshotUrls = Math.max(this.snapshotUrls, saved);
      },
      (error: unknown) => {
        this.snapshotRetryAt = saved + Math.max(URL_SNAPSHOT_MIN_TAIL, saved);
        process.emitWarning(`cannot write the URL table snapshot of ${this.directory}: ${(error as Error).message}`, { code: 'LSE_URL_TABLE_UNSAVED' });
      },
    );
    try {
      await this.savingSnapshot;
    } finally {
      this.savingSnapshot = undefined;
    }
  }

  /** Snapshots when the saved ids past the snapshot are many (doubling: each URL is written O(1) times). */
  private async snapshotWhenBehind(): Promise<void> {
    const saved = this.urls.size - this.unsavedUrls.size;
    if (saved - this.snapshotUrls < Math.max(URL_SNAPSHOT_MIN_TAIL, this.snapshotUrls) || saved < this.snapshotRetryAt) return;
    if (!this.savingSnapshot) await this.saveUrlSnapshot();
  }

  batch(): WriteBatch {
    return new WriteBatch(this);
  }

  /** The id of a URL, assigning the next one when it is new (saved by the next commit). */
  assignId(url: string): number {
    const known = this.urls.idOf(url);
    if (known !== undefined) return known;
    const id = this.urls.add(url);
    this.unsavedUrls.set(url, id);
    return id;
  }

  /** Sublevel handles for WriteBatch (same module). */
  get sublevels(): CrawlStore['subs'] {
    return this.subs;
  }

  /** Commits operations atomically, together with every URL id not saved yet. */
  async write(ops: BatchOp[], sync: boolean): Promise<void> {
    const urls = [...this.unsavedUrls];
    if (urls.length === 0 && ops.length === 0) return;
    // Keys prefixed and values encoded here (what the sublevels would write, byte for byte):
    // abstract-level's per-operation sublevel delegation was 5 % of a crawl's CPU.
    const urlPrefix = this.subs.urls.prefix;
    const urlIdPrefix = this.subs.urlIds.prefix;
    const encoded: EncodedOp[] = new Array(2 * urls.length + ops.length);
    let n = 0;
    for (const [url, id] of urls) {
      encoded[n++] = { type: 'put', key: urlPrefix + url, value: JSON.stringify(id) };
      encoded[n++] = { type: 'put', key: urlIdPrefix + urlIdKey(id), value: JSON.stringify(url) };
    }
    // Links too: what is derived from them (the local graph) reads the journal as pages' readers do.
    const pageIds = new Set<number>();
    for (const op of ops) {
      const key = op.sublevel.prefix + op.key;
      encoded[n++] = op.type === 'del' ? { type: 'del', key } : 'bytes' in op ? { type: 'put', key, value: op.bytes, valueEncoding: 'view' } : { type: 'put', key, value: JSON.stringify(op.value) };
      if (op.sublevel === this.subs.pages || op.sublevel === this.subs.links) pageIds.add(keyId(op.key));
    }
    if (pageIds.size > 0) {
      // In the same atomic batch: what reads the journal never misses a page this commit wrote.
      const sequence = ++this.pageSequence;
      encoded.push({ type: 'put', key: this.subs.journal.prefix + sequenceKey(sequence), value: JSON.stringify([...pageIds]) });
      encoded.push({ type: 'put', key: this.subs.meta.prefix + PAGE_SEQUENCE_KEY, value: JSON.stringify(sequence) });
    }
    await this.batchWrite(encoded, sync);
    for (const [url] of urls) this.unsavedUrls.delete(url);
    if (urls.length > 0) await this.snapshotWhenBehind();
  }

  /** Writes one value on its own, not synced: for what nothing reads until a later {@link write} (a rank vector's pieces). */
  async writeValue(sublevel: Sub<unknown>, key: string, bytes: Uint8Array): Promise<void> {
    await this.batchWrite([{ type: 'put', key: sublevel.prefix + key, value: bytes, valueEncoding: 'view' }], false);
  }

  /** One LevelDB batch of encoded operations; a failure is a StoreError naming the directory. */
  private async batchWrite(encoded: EncodedOp[], sync: boolean): Promise<void> {
    try {
      await this.db.batch(encoded as never, { sync, keyEncoding: 'utf8', valueEncoding: 'utf8' });
    } catch (error) {
      throw new StoreError(`cannot write to ${this.directory}: ${(error as Error).message}`, { cause: error });
    }
  }

  async getPage(id: number): Promise<PageRecord | undefined> {
    return (await this.subs.pages.get(idKey(id))) as PageRecord | undefined;
  }

  async getPages(ids: readonly number[]): Promise<Array<PageRecord | undefined>> {
    if (ids.length === 0) return [];
    return (await this.subs.pages.getMany(ids.map(idKey))) as Array<PageRecord | undefined>;
  }

  /**
   * The pages of many ids, read a few hundred at a time: LevelDB decodes a read's pages in one go
   * (10k pages in about 0.5 s at a million pages), which a server must not do in one turn.
   */
  async *pagesOf(ids: readonly number[], perRead = 256): AsyncGenerator<[number, PageRecord | undefined]> {
    for (let from = 0; from < ids.length; from += perRead) {
      const chunk = ids.slice(from, from + perRead);
      const pages = await this.getPages(chunk);
      for (let i = 0; i < chunk.length; i++) yield [chunk[i], pages[i]];
    }
  }

  async getLinks(id: number): Promise<StoredLink[]> {
    return ((await this.subs.links.get(idKey(id))) as StoredLink[] | undefined) ?? [];
  }

  /** The out-links of many ids (none for an id without), read a few hundred at a time as {@link pagesOf} reads pages. */
  async *linksOf(ids: readonly number[], perRead = 256): AsyncGenerator<[number, StoredLink[]]> {
    for (let from = 0; from < ids.length; from += perRead) {
      const chunk = ids.slice(from, from + perRead);
      const links = (await this.subs.links.getMany(chunk.map(idKey))) as Array<StoredLink[] | undefined>;
      for (let i = 0; i < chunk.length; i++) yield [chunk[i], links[i] ?? []];
    }
  }

  /**
   * Sequence number of the last commit that wrote pages. It only grows: a reader that recorded
   * it (the text index, the suggestions) knows whether any page was written since.
   */
  get pageWriteSequence(): number {
    return this.pageSequence;
  }

  /**
   * The ids of the pages written by commits after `sequence`, or undefined when the journal no
   * longer reaches back that far (pruned past it): then only a full pass over the pages is exact.
   */
  async pageJournalSince(sequence: number): Promise<number[] | undefined> {
    const pruned = (await this.getMeta<number>(JOURNAL_PRUNED_KEY)) ?? 0;
    if (sequence < pruned) return undefined;
    const ids = new Set<number>();
    for await (const value of this.subs.journal.values({ ...SCAN, gt: sequenceKey(sequence) })) for (const id of value as unknown as number[]) ids.add(id);
    return [...ids].sort((a, b) => a - b);
  }

  /** Drops the journal up to `sequence` (its reader has applied it). */
  async prunePageJournal(sequence: number): Promise<void> {
    const pruned = (await this.getMeta<number>(JOURNAL_PRUNED_KEY)) ?? 0;
    if (sequence <= pruned) return;
    const ops: EncodedOp[] = [];
    for await (const key of this.subs.journal.keys({ lte: sequenceKey(sequence) })) ops.push({ type: 'del', key: this.subs.journal.prefix + key });
    ops.push({ type: 'put', key: this.subs.meta.prefix + JOURNAL_PRUNED_KEY, value: JSON.stringify(sequence) });
    await this.db.batch(ops as never, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  }

  /** Every fetched page, in id order. */
  async *pages(): AsyncGenerator<[number, PageRecord]> {
    for await (const [key, value] of this.subs.pages.iterator(SCAN)) yield [keyId(key), value as unknown as PageRecord];
  }

  /** Every page's out-links, in id order. */
  async *allLinks(): AsyncGenerator<[number, StoredLink[]]> {
    for await (const [key, value] of this.subs.links.iterator(SCAN)) yield [keyId(key), value as unknown as StoredLink[]];
  }

  /** Every saved near-duplicate sketch, in id order. */
  async *sketches(): AsyncGenerator<[number, StoredSketch]> {
    for await (const [key, value] of this.subs.sketches.iterator(SCAN)) yield [keyId(key), value as unknown as StoredSketch];
  }

  async *frontier(): AsyncGenerator<[number, FrontierEntry]> {
    for await (const [key, value] of this.subs.frontier.iterator(SCAN)) yield [keyId(key), value as unknown as FrontierEntry];
  }

  async getHost(host: string): Promise<HostState | undefined> {
    return (await this.subs.hosts.get(host)) as HostState | undefined;
  }

  async *hosts(): AsyncGenerator<[string, HostState]> {
    for await (const [key, value] of this.subs.hosts.iterator()) yield [key, value as HostState];
  }

  async history(id: number): Promise<ChangeRecord[]> {
    const prefix = `${idKey(id)}/`;
    const out: ChangeRecord[] = [];
    for await (const value of this.subs.history.values({ gte: prefix, lt: `${prefix}~` })) out.push(value as unknown as ChangeRecord);
    return out;
  }

  async getMeta<T>(key: string): Promise<T | undefined> {
    return (await this.subs.meta.get(key)) as T | undefined;
  }

  async getJob<T>(id: string): Promise<T | undefined> {
    return (await this.subs.jobs.get(id)) as T | undefined;
  }

  async *jobs<T>(): AsyncGenerator<[string, T]> {
    for await (const [key, value] of this.subs.jobs.iterator()) yield [key, value as T];
  }

  /** The newest version of a rank vector, if any. */
  async latestRanks(name: string): Promise<RankVersion | undefined> {
    for await (const value of this.subs.ranks.values({ gte: `${name}/`, lt: `${name}/~`, reverse: true, limit: 1 })) return this.rankVersion(value as unknown as RankRow);
    return undefined;
  }

  /** One version of a rank vector. */
  async getRanks(name: string, version: number): Promise<RankVersion | undefined> {
    const row = await this.subs.ranks.get(versionKey(name, version));
    return row === undefined ? undefined : this.rankVersion(row as unknown as RankRow);
  }

  /** Every version of a rank vector, oldest first. */
  async rankHistory(name: string): Promise<RankVersion[]> {
    // A version at a time: one in pieces is read a piece at a time, and a history holds a version a round.
    const versions: RankVersion[] = [];
    for (const row of await this.rankRows(name)) versions.push(await this.rankVersion(row));
    return versions;
  }

  /**
   * The value of one id in every version of a rank vector, oldest first (null where it has none):
   * only what may hold the id is read, not whole vectors (rank-rows.ts).
   */
  async rankValueHistory(name: string, id: number): Promise<RankVersionValue[]> {
    const history: RankVersionValue[] = [];
    let near = -1;
    for (const row of await this.rankRows(name)) {
      const { value, position } = await readRankValue(row, versionKey(row.name, row.version), id, this.getRankData, near);
      if (position >= 0) near = position;
      history.push({ version: row.version, createdAt: row.createdAt, value });
    }
    return history;
  }

  /** The rows of every version of a rank vector, oldest first. */
  private async rankRows(name: string): Promise<RankRow[]> {
    const rows: RankRow[] = [];
    for await (const value of this.subs.ranks.values({ gte: `${name}/`, lt: `${name}/~` })) rows.push(value as unknown as RankRow);
    return rows;
  }

  private async rankVersion(row: RankRow): Promise<RankVersion> {
    const key = versionKey(row.name, row.version);
    if (row.pieces !== undefined) return readRankPieces(row, key, this.getRankData);
    return decodeRanks(row, rowHasBytes(row) ? await this.getRankData(key) : undefined);
  }

  private readonly getRankData = async (key: string): Promise<Uint8Array | undefined> => (await this.subs.rankData.get(key)) as Uint8Array | undefined;
}

type EncodedOp = { type: 'put'; key: string; value: string } | { type: 'put'; key: string; value: Uint8Array; valueEncoding: 'view' } | { type: 'del'; key: string };
type BatchOp = { type: 'put'; sublevel: Sub<unknown>; key: string; value: Json | number } | { type: 'put'; sublevel: Sub<unknown>; key: string; bytes: Uint8Array } | { type: 'del'; sublevel: Sub<unknown>; key: string };

/**
 * Collects writes to several sublevels and commits them atomically. Ids for new URLs are
 * assigned at once (so links can refer to them in the same batch) and persisted with the batch.
 */
export class WriteBatch {
  private ops: BatchOp[] = [];
  /** Values written one at a time ahead of the batch, made when written: the pieces of large rank vectors. */
  private pieces: Array<{ key: string; bytes: () => Uint8Array }> = [];

  constructor(private readonly store: CrawlStore) {}

  /** The store's sublevels: a batch reaches them through the store, not copies of its own. */
  private get subs(): CrawlStore['subs'] {
    return this.store.sublevels;
  }

  get size(): number {
    return this.ops.length;
  }

  /** The id of a URL, assigning the next one when it is new. */
  idFor(url: string): number {
    return this.store.assignId(url);
  }

  putPage(id: number, page: PageRecord): this {
    this.ops.push({ type: 'put', sublevel: this.subs.pages, key: idKey(id), value: page as unknown as Json });
    return this;
  }

  putLinks(id: number, links: readonly StoredLink[]): this {
    this.ops.push({ type: 'put', sublevel: this.subs.links, key: idKey(id), value: links as unknown as Json });
    return this;
  }

  putSketch(id: number, sketch: StoredSketch): this {
    this.ops.push({ type: 'put', sublevel: this.subs.sketches, key: idKey(id), value: sketch as unknown as Json });
    return this;
  }

  addToFrontier(id: number, entry: FrontierEntry): this {
    this.ops.push({ type: 'put', sublevel: this.subs.frontier, key: idKey(id), value: entry as unknown as Json });
    return this;
  }

  removeFromFrontier(id: number): this {
    this.ops.push({ type: 'del', sublevel: this.subs.frontier, key: idKey(id) });
    return this;
  }

  putHost(host: string, state: HostState): this {
    this.ops.push({ type: 'put', sublevel: this.subs.hosts, key: host, value: state as Json });
    return this;
  }

  appendHistory(id: number, record: ChangeRecord): this {
    this.ops.push({ type: 'put', sublevel: this.subs.history, key: `${idKey(id)}/${record.at.toString(16).padStart(12, '0')}`, value: record as unknown as Json });
    return this;
  }

  /**
   * A rank vector. One of more than a piece's entries (rank-rows.ts) is written at commit, a piece
   * per write before the others: its arrays must not change until the commit is done.
   */
  putRanks(version: Omit<RankVersion, 'createdAt'> & { createdAt?: number }): this {
    const full = { ...version, createdAt: version.createdAt ?? Date.now() };
    const row = rankRow(full);
    const key = versionKey(version.name, version.version);
    this.ops.push({ type: 'put', sublevel: this.subs.ranks, key, value: row as unknown as Json });
    if (row.pieces === undefined) this.ops.push({ type: 'put', sublevel: this.subs.rankData, key, bytes: encodeRanks(full).bytes });
    else for (let piece = 0; piece < row.pieces; piece++) this.pieces.push({ key: rankPieceKey(key, piece), bytes: () => encodeRankPiece(full, piece) });
    return this;
  }

  putJob(id: string, state: Json): this {
    this.ops.push({ type: 'put', sublevel: this.subs.jobs, key: id, value: state });
    return this;
  }

  putMeta(key: string, value: Json): this {
    this.ops.push({ type: 'put', sublevel: this.subs.meta, key, value });
    return this;
  }

  /**
   * Writes everything atomically, with the URL ids handed out since the last commit.
   * `sync: true` (default) waits for the disk, so the batch survives power loss as well as a
   * killed process. A failed commit leaves the store as it was; its URL ids go out with the next.
   */
  async commit(options: { sync?: boolean } = {}): Promise<void> {
    const ops = this.ops;
    const pieces = this.pieces;
    this.ops = [];
    this.pieces = [];
    // Unread until the rows that name them are written, below; LevelDB's log is in order, so the sync of the last write covers them.
    for (const piece of pieces) await this.store.writeValue(this.subs.rankData, piece.key, piece.bytes());
    await this.store.write(ops, options.sync ?? true);
  }
}
