/**
 * The text index of a data directory: segments built in worker threads from at most
 * `maxSegmentDocs` pages each, merged in tiers in the background (merge-policy.ts), saved under
 * `<dataDir>/index/` with their documents and named by a manifest that is written last. Queries
 * run on an immutable snapshot (IndexHandle.current); rebuilds, updates and merges write new
 * segments and a new manifest generation, then swap. Builds and swaps run one at a time; merges
 * run beside them; queries never wait for either.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_MAX_TEXT_CHARS, normalizeDocument, type TextDocument } from './document.ts';
import { documentVersion } from './document-version.ts';
import { IndexCorruptError, TextIndexError } from './errors.ts';
import { fixedJson, MANIFEST_FORMAT, manifestParts, readManifest, writeManifest, type ManifestPart } from './manifest.ts';
import { DEFAULT_MERGE_POLICY, type MergePolicyOptions } from './merge-policy.ts';
import { searchSnapshot, type SearchOptions, type SearchResult } from './search.ts';
import { BackgroundMerges, warnMergeFailed, type MergeReport } from './background-merges.ts';
import { SegmentBuilderPool } from './segment-builder-pool.ts';
import { openSegment, SEGMENT_FILE_SUFFIXES, type StoredSegment } from './segment-files.ts';
import { PostingsCache } from './postings-cache.ts';
import { bestPosition, bodyPositions, definitionTerms, hitPassage, matchedDefinition, passageWindow, type HitPassage, type PassageOptions } from './passage.ts';
import { documentFields, openDocumentFilesOf, readAllStoredDocuments, readBodyWindows, readDefinitions, readDocumentHeads, readStoredDocuments, type DocumentHead } from './stored-documents.ts';
import type { SearchHit } from './scorer.ts';
import type { CompactSegment } from './compact-segment.ts';
import { nextTurn, timeSlices } from '../stepwise.ts';
import { deletedIds, IndexHandle, liveCount, makeSegmentSet, postingsOf, withDeletions, type LiveSegment, type SegmentSet } from './segment-set.ts';
import { BodyBlockCache } from './body-block-cache.ts';
import { frequentTerms, warmLongestLists, warmPostings, type ListsWarmed, type SegmentWarmer } from './segment-warmer.ts';
import { warmLiveFrequencies } from './live-frequencies.ts';
import { rehearseDeletions, type DeletionsRehearsed } from './deletion-rehearsal.ts';
import { VersionTable, versionsJson, type VersionSource } from './version-table.ts';

/** Work between two turns of the event loop while an update prepares its pages. */
const UPDATE_SLICE_MS = 8;
/**
 * The inflated body blocks kept for passages, as a share of the postings cache's budget (128 MB of
 * the default 1 GB: about 8,000 blocks of 16 KB, the windows of some 6,000 hits shown).
 */
const BODY_BLOCKS_SHARE = 1 / 8;

export interface TextIndexOptions {
  /**
   * Documents per segment (default 1,000: lunr's builder slows down and its heap grows faster than
   * linearly with segment size; at 100k pages 1,000 built in 47 s with a 1.2 GB peak, 2,000 in
   * 51–65 s with 1.74–1.80 GB, 5,000 slower still with twice that heap).
   */
  maxSegmentDocs?: number;
  /** Worker threads building segments (default: min(2, cores)); 0 builds on the calling thread. */
  workers?: number;
  /** Characters of page text indexed and stored (default 4,000,000: whole pages, see document.ts). */
  maxTextChars?: number;
  /**
   * Characters of text per segment (default 16 M): with whole pages, a thousand long pages would
   * make a segment whose analysis holds gigabytes; a segment closes at whichever bound comes first.
   */
  maxSegmentChars?: number;
  mergePolicy?: Partial<Omit<MergePolicyOptions, 'maxSegmentDocs'>>;
  /** Run the merge policy after every update (default true). */
  autoMerge?: boolean;
  /** Bytes of postings kept in memory once read (postings-cache.ts; default 1 GB). */
  postingsCacheBytes?: number;
}

export interface IndexChanges {
  /** New or changed pages (a changed page replaces its previous version). */
  upsert?: Iterable<TextDocument>;
  /** Page ids to remove. */
  remove?: Iterable<number>;
}

export interface SegmentInfo {
  name: string;
  docCount: number;
  liveCount: number;
}

export interface IndexInfo {
  generation: number;
  documentCount: number;
  segments: SegmentInfo[];
}

export type { MergeReport } from './background-merges.ts';

const DEFAULT_MAX_SEGMENT_CHARS = 16_000_000;

const SEGMENT_FILE = /^(seg-\d+)\.(lunr\.json|postings\.bin|docs\.jsonl|text\.bin)$/;

export class TextIndex {
  readonly handle: IndexHandle;
  private readonly pool: SegmentBuilderPool;
  private readonly maxSegmentDocs: number;
  private readonly maxTextChars: number;
  private readonly maxSegmentChars: number;
  private readonly mergePolicy: MergePolicyOptions;
  private readonly autoMerge: boolean;
  private nextSegmentNumber: number;
  /** The version (document-version.ts) of each live document of the current generation, when known. */
  private versions: VersionTable;
  private writing: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly merges: BackgroundMerges;
  /** What queries have read of the segments' postings (postings-cache.ts). */
  private readonly postingsCache: PostingsCache;
  /** Work done on new segments before a commit makes them visible (segment-warmer.ts). */
  private readonly warmers: SegmentWarmer[] = [];
  /** See {@link incomingSegments}. */
  private incoming: readonly CompactSegment[] = [];
  /** Inflated blocks of the bodies passages were cut from (body-block-cache.ts). */
  private readonly bodyBlocks: BodyBlockCache;

  private constructor(
    readonly directory: string,
    initial: SegmentSet,
    nextSegmentNumber: number,
    options: TextIndexOptions,
    postingsCache: PostingsCache,
    versions: VersionTable = new VersionTable(),
  ) {
    this.handle = new IndexHandle(initial);
    this.versions = versions;
    this.nextSegmentNumber = nextSegmentNumber;
    this.maxSegmentDocs = Math.max(1, Math.floor(options.maxSegmentDocs ?? DEFAULT_MERGE_POLICY.maxSegmentDocs));
    this.maxTextChars = options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
    this.maxSegmentChars = Math.max(1, options.maxSegmentChars ?? DEFAULT_MAX_SEGMENT_CHARS);
    this.mergePolicy = { ...DEFAULT_MERGE_POLICY, ...options.mergePolicy, maxSegmentDocs: this.maxSegmentDocs };
    this.autoMerge = options.autoMerge ?? true;
    this.pool = new SegmentBuilderPool(options.workers);
    this.postingsCache = postingsCache;
    this.bodyBlocks = new BodyBlockCache(Math.floor(postingsCache.budget * BODY_BLOCKS_SHARE));
    this.merges = new BackgroundMerges({
      directory: this.directory,
      pool: this.pool,
      policy: this.mergePolicy,
      current: () => this.handle.current,
      newSegmentName: () => this.newSegmentName(),
      openSegment: (name) => openSegment(this.directory, name, this.postingsCache),
      exclusive: (work) => this.exclusive(work),
      commit: (segments) => this.commit(segments, this.versions),
      removeSegmentFiles: (names) => this.removeSegmentFiles(names),
    });
  }

  /** Opens the index under `<dataDir>/index/`, loading the saved segments (empty when none). */
  static async open(dataDir: string, options: TextIndexOptions = {}): Promise<TextIndex> {
    const directory = join(dataDir, 'index');
    await mkdir(directory, { recursive: true });
    const manifest = await readManifest(directory);
    const segments: LiveSegment[] = [];
    const versions = new VersionTable((manifest?.segments ?? []).reduce((n, entry) => n + entry.docIds.length, 0));
    const cache = new PostingsCache(options.postingsCacheBytes);
    for (const entry of manifest?.segments ?? []) {
      const stored = openSegment(directory, entry.name, cache);
      const ids = stored.postings.docIds;
      if (ids.length !== entry.docIds.length || entry.docIds.some((id, i) => ids[i] !== id)) {
        throw new IndexCorruptError(`segment ${entry.name} does not hold the documents the manifest lists`);
      }
      const segment = withDeletions(stored, entry.deletedIds);
      if (entry.versions && entry.versions.length === ids.length) {
        entry.versions.forEach((version, i) => version !== '' && !segment.deleted?.[i] && versions.set(ids[i], version));
      }
      segments.push(segment);
    }
    const index = new TextIndex(directory, makeSegmentSet(manifest?.generation ?? 0, segments), manifest?.nextSegmentNumber ?? 0, options, cache, versions);
    await index.removeUnreferencedFiles(new Set(segments.map((s) => s.stored.postings.name)), true);
    return index;
  }

  /** Runs a typed query on the current snapshot (throws QuerySyntaxError on bad input). */
  search(query: string, options?: SearchOptions): SearchResult {
    return searchSnapshot(this.handle.current, query, options);
  }

  /** Does the current snapshot hold a live document of this page? (No I/O.) */
  has(id: number): boolean {
    return this.handle.current.locations.has(id);
  }

  /**
   * Does the current snapshot hold exactly this version of the document (the one
   * normalizeDocument makes of it)? False for a page indexed in another version, not indexed, or
   * indexed by an lse that recorded no versions.
   */
  holdsVersion(doc: TextDocument): boolean {
    const version = this.versions.get(doc.id);
    return version !== undefined && this.has(doc.id) && version === documentVersion(normalizeDocument(doc, this.maxTextChars));
  }

  /** The segments of the current snapshot (for work a search would do on its first query). */
  currentSegments(): CompactSegment[] {
    return this.handle.current.segments.map((segment) => segment.stored.postings);
  }

  /**
   * The segments a commit is about to make visible (an update's, a merge's), from the start of
   * their warming to the swap: their warmers ran with what was current then, and the commit writes
   * its manifest before the swap.
   */
  incomingSegments(): readonly CompactSegment[] {
    return this.incoming;
  }

  /** Page ids of the live documents of the current snapshot. */
  liveIds(): IterableIterator<number> {
    return this.handle.current.locations.keys();
  }

  /** Stored documents (title, url, host, headings, capped text) of live pages, by id. */
  async documents(ids: readonly number[]): Promise<Map<number, TextDocument>> {
    const set = this.handle.current;
    const bySegment = new Map<LiveSegment, Array<{ id: number; ordinal: number }>>();
    for (const id of ids) {
      const location = set.locations.get(id);
      if (!location) continue;
      let list = bySegment.get(location.segment);
      if (!list) bySegment.set(location.segment, (list = []));
      list.push({ id, ordinal: location.ordinal });
    }
    const result = new Map<number, TextDocument>();
    for (const [segment, wanted] of bySegment) {
      const { postings, docOffsets } = segment.stored;
      const docs = await readStoredDocuments(this.directory, postings.name, docOffsets, wanted.map((w) => w.ordinal), openDocumentFilesOf(postings));
      wanted.forEach((w, i) => result.set(w.id, docs[i]));
    }
    return result;
  }

  /**
   * Snippets of hits, from the passage where the query's terms stand closest in each page's
   * body (found through the postings' word positions, tokenised from the nearest checkpoint —
   * never the whole page), with the section that passage is in.
   */
  async passages(hits: readonly SearchHit[], options: PassageOptions = {}): Promise<Map<number, HitPassage & { document: Omit<TextDocument, 'text'> }>> {
    const set = this.handle.current;
    const bySegment = new Map<LiveSegment, Array<{ hit: SearchHit; ordinal: number }>>();
    for (const hit of hits) {
      const location = set.locations.get(hit.id);
      if (!location) continue;
      let list = bySegment.get(location.segment);
      if (!list) bySegment.set(location.segment, (list = []));
      list.push({ hit, ordinal: location.ordinal });
    }
    const result = new Map<number, HitPassage & { document: Omit<TextDocument, 'text'> }>();
    for (const [segment, wanted] of bySegment) {
      const { postings, docOffsets } = segment.stored;
      const files = openDocumentFilesOf(postings);
      const heads = await readDocumentHeads(this.directory, postings.name, docOffsets, wanted.map((w) => w.ordinal), files);
      // A hit on a definition shows it and links to its anchor; others, where their terms stand closest.
      const inDefinitions = wanted.map(({ hit, ordinal }) => definitionTerms(postings, ordinal, hit.matchedTerms));
      // Read only for hits that matched a definition.
      const stored = readDefinitions(this.directory, postings.name, heads.map((head, i): DocumentHead => (inDefinitions[i].length > 0 ? head : { ...head, defined: undefined, definitions: undefined })), files);
      const defined = wanted.map((_, i) => matchedDefinition(stored[i], inDefinitions[i], heads[i].lang));
      const positions = wanted.map(({ hit, ordinal }) => bodyPositions(postings, ordinal, hit.matchedTerms));
      const best = wanted.map((_, i) => defined[i]?.position ?? bestPosition(positions[i]));
      const windows = await readBodyWindows(this.directory, postings.name, heads.map((head, i) => ({ head, ...passageWindow(head, best[i], options) })), files, this.bodyBlocks);
      wanted.forEach(({ hit }, i) => {
        const passage = hitPassage(heads[i], windows[i], hit.matchedTerms, best[i], options, positions[i]);
        const definition = defined[i]?.definition;
        if (definition) {
          passage.sectionHeading = definition.name;
          if (definition.anchor) passage.sectionAnchor = definition.anchor;
          else delete passage.sectionAnchor;
        }
        result.set(hit.id, { ...passage, document: documentFields(heads[i]) });
      });
    }
    return result;
  }

  info(): IndexInfo {
    const set = this.handle.current;
    return {
      generation: set.generation,
      documentCount: set.documentCount,
      segments: set.segments.map((s) => ({ name: s.stored.postings.name, docCount: s.stored.postings.docIds.length, liveCount: liveCount(s) })),
    };
  }

  /**
   * Builds a new generation from all documents (later duplicates of an id win). The current
   * generation keeps answering until the new one is complete and swapped in. `afterBuild` runs
   * once it is, before the merges into tiers: work done there (the CLI saves what it gathered
   * from the same pass) does not hold memory beside the merges' largest.
   */
  rebuild(documents: Iterable<TextDocument> | AsyncIterable<TextDocument>, hooks: { afterBuild?: () => Promise<void> } = {}): Promise<IndexInfo> {
    return this.exclusive(async () => {
      await this.buildGeneration(documents);
      await hooks.afterBuild?.();
      // The builders' heaps are mostly garbage now (analysis of a thousand pages each); fresh
      // workers start for the merges instead of keeping it beside them.
      await this.pool.releaseIdle();
      // The new generation already answers; merging it into tiers is the rest of the build.
      if (this.autoMerge) await this.merges.rounds(false, true).catch((error: unknown) => warnMergeFailed(error));
      return this.info();
    });
  }

  /** The segments of a rebuild, written and swapped in (called under the lock). */
  private async buildGeneration(documents: Iterable<TextDocument> | AsyncIterable<TextDocument>): Promise<void> {
    const built: Array<Promise<string>> = [];
    const deletions = new Map<number, number[]>();
    const versions = new VersionTable();
    const chunkOf = new Map<number, number>();
    let chunk = new Map<number, TextDocument>();
    let chunkChars = 0;
    const flush = () => {
      if (chunk.size === 0) return;
      const name = this.newSegmentName();
      built.push(this.pool.build(this.directory, name, [...chunk.values()]).then(() => name));
      chunk = new Map();
      chunkChars = 0;
    };
    try {
      for await (const raw of documents) {
        const doc = normalizeDocument(raw, this.maxTextChars);
        const earlier = chunkOf.get(doc.id);
        if (earlier !== undefined && earlier !== built.length) {
          if (!deletions.has(earlier)) deletions.set(earlier, []);
          deletions.get(earlier)!.push(doc.id);
        }
        chunkOf.set(doc.id, built.length);
        chunk.set(doc.id, doc);
        versions.set(doc.id, documentVersion(doc));
        chunkChars += doc.text.length;
        if (chunk.size >= this.maxSegmentDocs || chunkChars >= this.maxSegmentChars) {
          flush();
          // Bound the documents in flight: wait for the oldest build when workers are all busy.
          const inFlight = Math.max(1, this.pool.size) + 1;
          if (built.length > inFlight) await built[built.length - 1 - inFlight];
        }
      }
      flush();
      const names = await Promise.all(built);
      chunkOf.clear();
      const segments = names.map((name, i) => withDeletions(openSegment(this.directory, name, this.postingsCache), deletions.get(i) ?? []));
      await this.commit(segments.filter((s) => liveCount(s) > 0), versions);
    } catch (error) {
      const settled = await Promise.allSettled(built);
      const names = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      await this.removeSegmentFiles(names);
      throw error;
    }
  }

  /** Re-indexes changed pages and removes deleted ones without touching unchanged segments. */
  update(changes: IndexChanges): Promise<IndexInfo> {
    return this.exclusive(async () => {
      const set = this.handle.current;
      // Normalised and hashed between turns of the event loop: a batch of thousands of pages at
      // once held it 40-90 ms beside searches.
      const turn = timeSlices(UPDATE_SLICE_MS);
      const upserts = new Map<number, TextDocument>();
      for (const raw of changes.upsert ?? []) {
        const doc = normalizeDocument(raw, this.maxTextChars);
        upserts.set(doc.id, doc);
        await turn();
      }
      const removed = new Set<number>([...(changes.remove ?? []), ...upserts.keys()]);
      const docs = [...upserts.values()];
      // The versions change in place once the generation is swapped in: copying the map of every
      // page at each update took a pause that grew with the index.
      const changed = new Map<number, string>();
      for (const doc of docs) {
        changed.set(doc.id, documentVersion(doc));
        await turn();
      }
      const versions: VersionChanges = {
        get: (id) => changed.get(id) ?? (removed.has(id) ? undefined : this.versions.get(id)),
        // `removed` holds every changed page too: their versions come from `get`.
        writeHex: (id, out, at) => !removed.has(id) && this.versions.writeHex(id, out, at),
        apply: () => {
          for (const id of removed) this.versions.delete(id);
          for (const [id, version] of changed) this.versions.set(id, version);
        },
      };
      const names = this.segmentGroups(docs).map((group) => ({ name: this.newSegmentName(), group }));
      const built: StoredSegment[] = [];
      try {
        const settled = await Promise.allSettled(names.map(({ name, group }) => this.pool.build(this.directory, name, group)));
        const failure = settled.find((result) => result.status === 'rejected');
        if (failure) throw (failure as PromiseRejectedResult).reason;
        for (const { name } of names) built.push(openSegment(this.directory, name, this.postingsCache));
      } catch (error) {
        await this.removeSegmentFiles(names.map(({ name }) => name));
        throw error;
      }
      const hits = new Map<LiveSegment, number[]>();
      for (const id of removed) {
        const segment = set.locations.get(id)?.segment;
        if (!segment) continue;
        const list = hits.get(segment);
        if (list) list.push(id);
        else hits.set(segment, [id]);
      }
      const kept = set.segments.map((segment) => {
        const hit = hits.get(segment);
        return hit ? withDeletions(segment.stored, hit, segment.deleted) : segment;
      });
      await this.commit([...kept.filter((s) => liveCount(s) > 0), ...built.map((s) => withDeletions(s, []))], versions);
      if (this.autoMerge) this.merges.schedule();
      return this.info();
    });
  }

  /**
   * Merges now, after the background merges: with `force` (the default) every tier that holds two
   * segments and every segment with a deleted page; without, what the policy asks for.
   */
  async merge(options: { force?: boolean } = {}): Promise<MergeReport> {
    if (this.closed || this.merges.closing) throw new TextIndexError('the text index is closed');
    await this.merges.settled();
    return this.merges.rounds(options.force ?? true, false);
  }

  /** Resolves once no background merge runs (updates start them). */
  mergesSettled(): Promise<void> {
    return this.merges.settled();
  }

  /**
   * Waits for running writes and the merge round in progress, stops the workers, and removes the
   * previous generation's files. Queries keep working on the last snapshot.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.merges.close();
    this.closed = true;
    await this.writing.catch(() => undefined);
    await this.pool.close();
    // The previous generation's files were kept for queries in flight; no query starts any more.
    await this.removeUnreferencedFiles(new Set(this.handle.current.segments.map((s) => s.stored.postings.name)), false).catch(() => undefined);
  }

  /**
   * Writes the next generation's manifest (with the version of each live document), swaps it in,
   * and removes files no longer needed.
   */
  private async commit(segments: LiveSegment[], versions: VersionTable | VersionChanges): Promise<void> {
    const previous = this.handle.current;
    const known = new Set(previous.segments.map((s) => s.stored));
    const fresh = segments.filter((s) => !known.has(s.stored));
    this.incoming = fresh.map(postingsOf);
    let next: SegmentSet;
    try {
      await this.warm(segments, fresh, previous.segments, versions);
      next = makeSegmentSet(previous.generation + 1, segments);
      // A stored segment's pages keep their versions while it lives (a changed page goes to a new
      // segment): its ids and versions are serialised once, its deletions at every commit.
      const header = { format: MANIFEST_FORMAT, generation: next.generation, nextSegmentNumber: this.nextSegmentNumber, maxTextChars: this.maxTextChars } as const;
      const manifest = manifestParts(header, segments.map((s) => ({ ...this.manifestPart(s, versions), deletedIds: deletedIds(s) })));
      await writeManifest(this.directory, manifest);
      this.handle.swap(next);
    } finally {
      this.incoming = [];
    }
    if (versions instanceof VersionTable) this.versions = versions;
    else versions.apply();
    // The previous generation's files stay one more generation: queries may still read its documents.
    const keep = new Set([...[...next.segments, ...previous.segments].map((s) => s.stored.postings.name), ...this.merges.busy]);
    await this.removeUnreferencedFiles(keep, false);
  }

  /**
   * Reads the current segments' longest lists into the postings cache (segment-warmer.ts), for at
   * most `budgetMs` and three quarters of the cache's budget: the first searches after opening
   * then find the lists of common words read and summarised.
   */
  warmLongestLists(budgetMs: number): Promise<ListsWarmed> {
    return warmLongestLists(this.currentSegments(), { budgetMs, maxBytes: Math.floor(this.postingsCache.budget * 0.75) });
  }

  /** The most frequent terms of the body of the largest segment, at most `count` (segment-warmer.ts). */
  frequentTerms(count: number): string[] {
    return frequentTerms(this.currentSegments(), count);
  }

  /**
   * Runs `queries` on a copy of the current snapshot in which every segment has deleted pages,
   * until `deadline` (deletion-rehearsal.ts): a server's first update then finds the search's code
   * compiled for segments with deletions.
   */
  rehearseDeletions(queries: readonly string[], deadline: number): Promise<DeletionsRehearsed> {
    return rehearseDeletions(this.handle.current, queries, deadline);
  }

  /** Adds work to do on new segments (a merge's, an update's) before they become visible. */
  addWarmer(warmer: SegmentWarmer): void {
    this.warmers.push(warmer);
  }

  /** Warms `freshSegments`, those of `segments` not in `previous`, with what queries asked of `previous`. Best effort: a failure is a warning. */
  private async warm(segments: readonly LiveSegment[], freshSegments: readonly LiveSegment[], previous: readonly LiveSegment[], versions: VersionTable | VersionChanges): Promise<void> {
    const fresh = freshSegments.map(postingsOf);
    try {
      // Segments that lost pages: their live term counts, else the first searches count them.
      await warmLiveFrequencies(segments, previous);
      if (fresh.length === 0) return;
      await warmPostings(fresh, previous.map(postingsOf));
      for (const warmer of this.warmers) await warmer(fresh);
      // Their fixed manifest parts (ids and versions), a segment a turn, rather than all in the commit's write.
      for (const segment of freshSegments) {
        await nextTurn();
        fixedJson(this.manifestPart(segment, versions));
      }
    } catch (error) {
      process.emitWarning(`warming new index segments failed: ${error instanceof Error ? error.message : String(error)}`, { code: 'LSE_INDEX_WARM_FAILED' });
    }
  }

  /** A segment's fixed part of the manifest: its ids and the versions of its live pages. */
  private manifestPart(s: LiveSegment, versions: VersionTable | VersionChanges): Pick<ManifestPart, 'key' | 'fixed'> {
    return {
      key: s.stored,
      fixed: () => {
        const docIds = Array.from(s.stored.postings.docIds);
        return { name: s.stored.postings.name, docIds, versionsJson: versionsJson(s.stored.postings.docIds, s.deleted, versions) };
      },
    };
  }

  /**
   * Serialises the open segments' fixed manifest parts ahead of the first commit, one segment
   * per turn of the event loop (tens of ms each at 100k pages, where a commit did them all at once).
   */
  async prepareCommits(): Promise<void> {
    for (const segment of this.handle.current.segments) {
      await nextTurn();
      fixedJson(this.manifestPart(segment, this.versions));
    }
  }

  private async removeUnreferencedFiles(keep: ReadonlySet<string>, includeTemporary: boolean): Promise<void> {
    for (const file of await readdir(this.directory)) {
      const match = SEGMENT_FILE.exec(file);
      const stale = match ? !keep.has(match[1]) : includeTemporary && file.endsWith('.tmp');
      if (stale) await rm(join(this.directory, file), { force: true });
    }
  }

  private async removeSegmentFiles(names: readonly string[]): Promise<void> {
    for (const name of names) {
      for (const suffix of SEGMENT_FILE_SUFFIXES) await rm(join(this.directory, `${name}${suffix}`), { force: true });
    }
  }

  /** Documents cut into segments of at most maxSegmentDocs documents and about maxSegmentChars characters. */
  private segmentGroups(docs: readonly TextDocument[]): TextDocument[][] {
    const groups: TextDocument[][] = [];
    let group: TextDocument[] = [];
    let chars = 0;
    for (const doc of docs) {
      group.push(doc);
      chars += doc.text.length;
      if (group.length >= this.maxSegmentDocs || chars >= this.maxSegmentChars) {
        groups.push(group);
        group = [];
        chars = 0;
      }
    }
    if (group.length > 0) groups.push(group);
    return groups;
  }

  private newSegmentName(): string {
    return `seg-${String(this.nextSegmentNumber++).padStart(6, '0')}`;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new TextIndexError('the text index is closed'));
    const run = this.writing.then(work, work);
    this.writing = run.catch(() => undefined);
    return run;
  }
}

/** The versions of the next generation, as changes to the current ones (applied once it is swapped in). */
interface VersionChanges extends VersionSource {
  apply(): void;
}
