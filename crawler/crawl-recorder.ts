/**
 * Turns page outcomes into store records: the page, its links (with anchor text), the redirect
 * hops, newly found URLs for the frontier, the visit history. Writes are batched and committed
 * durably every few pages, so a killed crawl loses at most the pages of the last open batch —
 * pages that were never stored, and that a resumed crawl simply fetches.
 */
import type { ChangeRecord, CrawlStore, PageRecord, PageRole, StoredLink, StoredSketch, WriteBatch } from '../indexer/store/crawl-store.ts';
import { NearDuplicateIndex, resemblance, sketchNormalized, type MinHashSketch } from './duplicates.ts';
import { pageWords, type PageOutcome } from './page-fetch.ts';
import { decodeSketch, encodeSketch } from './stored-sketch.ts';
import { languageFields } from './page-language-fields.ts';
import { normalizeUrl, type UrlCheck, type UrlRejection, type UrlRules } from './url.ts';

export interface RecordContext {
  id: number;
  depth: number;
  role: PageRole;
  /** Role of the content page, when the caller decides it from the content (topic crawls); else `roleOf(url)`. */
  pageRole?: PageRole;
  previous?: PageRecord;
  /** The page's `<lastmod>` in a sitemap, when one lists it (else the stored one is kept). */
  sitemapLastmod?: number;
  /** Translations a sitemap names for the page (`xhtml:link`), beside those the page names. */
  sitemapAlternates?: ReadonlyArray<{ url: string; hreflang: string }>;
  now: number;
}

export interface FoundLink {
  id: number;
  url: string;
  /** Followed: not nofollow and the page allows following. */
  follow: boolean;
  /** Anchor text, when the link has one (focused crawling looks for topic terms in it). */
  anchor?: string;
}

export interface Recorded {
  /** Id of the page whose content was recorded (differs from the asked id after redirects). */
  contentId: number;
  state: PageRecord['state'];
  /** Links of the page (content page or unfollowed redirect), deduplicated. */
  links: FoundLink[];
  /** Ids of the redirect hops recorded on the way. */
  hops: number[];
  duplicateOf?: number;
  changed: boolean;
  /** A failed visit whose page was kept as it was (`failedVisit`): still indexable. */
  kept?: boolean;
}

export interface RecorderOptions {
  urlRules: UrlRules;
  /** Decides the role of a URL (local domain or outside it). */
  roleOf: (url: string) => PageRole;
  /** Pages per commit (default 25). */
  batchPages?: number;
  /** Local pages at least this similar (MinHash resemblance of word shingles) are near duplicates (default 0.9). */
  nearDuplicateThreshold?: number;
  /** True when a request to this URL carries credentials: what it returns is not public. */
  sendsCredentialsTo?: (url: string) => boolean;
  /**
   * A visit failed (HTTP error, network failure, robots.txt unreachable): the record to store
   * instead of the failure's (re-crawls keep a page that failed once, see server/jobs/recrawl.ts).
   */
  failedVisit?: (failure: PageRecord, previous: PageRecord | undefined) => PageRecord;
}

const MAX_ANCHOR = 200;
/**
 * Near-duplicate sketches read the first this many characters of a text: what duplicates share
 * shows in their opening, and the shingles of a 3 MB page would cost ~0.3 s and ~100 MB at once.
 */
const SKETCH_TEXT_LIMIT = 256 * 1024;
const NO_BINS = new BigUint64Array(0);
/** Normalised links remembered (navigation links repeat on every page of a site); cleared when full. */
const URL_CHECK_CACHE_SIZE = 20_000;

export class CrawlRecorder {
  private batch: WriteBatch;
  private pagesInBatch = 0;
  private readonly fingerprints = new Map<string, number>();
  private readonly nearIndex = new NearDuplicateIndex();
  private readonly sketches = new Map<number, MinHashSketch>();
  /** The first heading of each sketched page's main text (pages that title a different item are not copies). */
  private readonly leads = new Map<number, string>();
  private readonly urlChecks = new Map<string, UrlCheck>();
  /** Known pages' sketches read as saved, and computed from their text (saved since). */
  readonly knownSketches = { saved: 0, computed: 0 };
  /** Sketches of known pages computed at resume, to be saved (saveKnownSketches). */
  private unsavedSketches: Array<[number, StoredSketch]> = [];
  readonly rejected: Partial<Record<UrlRejection, number>> = {};

  constructor(
    private readonly store: CrawlStore,
    private readonly options: RecorderOptions,
  ) {
    this.batch = store.batch();
  }

  /**
   * Remembers a stored original page (not a duplicate) for duplicate detection: with the sketch
   * saved for it when that was made from its current text, else one computed now (and saved by
   * saveKnownSketches).
   */
  knowPage(id: number, page: PageRecord, saved?: StoredSketch): void {
    if (page.fingerprint && !this.fingerprints.has(page.fingerprint)) this.fingerprints.set(page.fingerprint, id);
    if (page.role !== 'local' || !page.text || this.sketches.has(id)) return;
    const lead = leadOf(page.headings);
    if (lead !== undefined) this.leads.set(id, lead);
    const decoded = saved && page.fingerprint !== undefined && saved.fingerprint === page.fingerprint ? decodeSketch(saved) : undefined;
    if (decoded && decoded.keys.length === (decoded.sketch.shingleCount === 0 ? 0 : this.nearIndex.bands) && decoded.sketch.bands === this.nearIndex.bands && decoded.sketch.rows === this.nearIndex.rows) {
      this.nearIndex.addKeys(id, decoded.keys);
      this.sketches.set(id, decoded.sketch);
      this.knownSketches.saved++;
      return;
    }
    const sketch = sketchOf(pageWords(page.title ?? '', page.text));
    const keys = this.addSketch(id, sketch);
    this.knownSketches.computed++;
    if (page.fingerprint !== undefined) this.unsavedSketches.push([id, encodeSketch(sketch, keys, page.fingerprint)]);
  }

  /** Saves the sketches knowPage computed, so that the next resume reads them. */
  async saveKnownSketches(): Promise<void> {
    const unsaved = this.unsavedSketches;
    this.unsavedSketches = [];
    for (let start = 0; start < unsaved.length; start += 1_000) {
      const batch = this.store.batch();
      for (const [id, sketch] of unsaved.slice(start, start + 1_000)) batch.putSketch(id, sketch);
      await batch.commit({ sync: false });
    }
  }

  /**
   * Near duplicates: the earliest stored local page whose shingles resemble this text enough and
   * whose main text opens with the same heading. Reference pages of one generator share most of
   * their text (rustdoc's iterator adapters each list the ~75 provided methods of `Iterator`)
   * while each defines another item, named in its first heading; copies keep that heading.
   */
  private nearDuplicateOf(id: number, normalized: string, fingerprint: string, lead: string | undefined): number | undefined {
    const sketch = sketchOf(normalized);
    const threshold = this.options.nearDuplicateThreshold ?? 0.9;
    for (const other of this.nearIndex.candidates(sketch)) {
      if (other === id || !sameLead(lead, this.leads.get(other))) continue;
      if (resemblance(sketch, this.sketches.get(other)!) >= threshold) return other;
    }
    // Only originals join the index, so later pages are matched against them.
    if (lead !== undefined && !this.sketches.has(id)) this.leads.set(id, lead);
    const keys = this.sketches.has(id) ? this.nearIndex.bandKeys(sketch) : this.addSketch(id, sketch);
    // Saved with the page, for a resumed crawl.
    this.batch.putSketch(id, encodeSketch(sketch, keys, fingerprint));
    return undefined;
  }

  /** Adds a page's sketch to the index; its band keys. */
  private addSketch(id: number, sketch: MinHashSketch): Float64Array {
    const keys = this.nearIndex.bandKeys(sketch);
    this.nearIndex.addKeys(id, keys);
    // Resemblance reads the minima only; the LSH bins live on in the index's buckets.
    this.sketches.set(id, { ...sketch, bins: NO_BINS });
    return keys;
  }

  /** Language and translations of a local page; the translations' URLs normalised as links are, so they meet the pages stored. */
  private languageFields(outcome: Extract<PageOutcome, { kind: 'page' }>, sitemapAlternates: RecordContext['sitemapAlternates']) {
    const page = sitemapAlternates && sitemapAlternates.length > 0 ? { ...outcome.page, alternates: [...outcome.page.alternates, ...sitemapAlternates] } : outcome.page;
    const fields = languageFields(page, outcome.finalUrl, outcome.contentLanguage);
    // Stored even when empty: a record without it predates translations read from every source (see storedWithAllTranslations).
    if (!fields.alternates) return { ...fields, alternates: [] };
    const alternates = fields.alternates.flatMap((alternate) => {
      const check = normalizeUrl(alternate.url, this.options.urlRules);
      return check.ok && check.url !== outcome.finalUrl ? [{ url: check.url, lang: alternate.lang }] : [];
    });
    const unique = alternates.filter((alternate, i) => alternates.findIndex((other) => other.url === alternate.url) === i);
    return { ...fields, alternates: unique };
  }

  /** Writes of the caller that must commit together with the page records (frontier entries). */
  get pending(): WriteBatch {
    return this.batch;
  }

  /** The record of a redirect hop the chain passed through: a visit of its own, first seen now. */
  private hopRecord(base: Omit<PageRecord, 'state' | 'status'>, url: string, status: number): PageRecord {
    return { ...base, sitemapLastmod: undefined, url, host: hostOf(url), role: this.options.roleOf(url), state: 'redirect', status, visits: 1, changes: 0 };
  }

  record(outcome: PageOutcome, context: RecordContext): Recorded {
    const batch = this.batch;
    const { id, depth, role, previous, now } = context;
    const url = this.store.urlOf(id)!;
    const sitemapLastmod = context.sitemapLastmod ?? previous?.sitemapLastmod;
    const base = { url, host: hostOf(url), role, depth, fetchedAt: now, firstFetchedAt: previous?.firstFetchedAt ?? previous?.fetchedAt ?? now, visits: (previous?.visits ?? 0) + 1, changes: previous?.changes ?? 0, ...(sitemapLastmod !== undefined ? { sitemapLastmod } : {}) };
    const hops: number[] = [];
    batch.removeFromFrontier(id);

    // Redirect hops: each source records a link to where it went.
    const redirects = 'redirects' in outcome ? outcome.redirects : [];
    for (const hop of redirects) {
      const from = batch.idFor(hop.from);
      const to = batch.idFor(hop.to);
      hops.push(from);
      batch.putPage(from, { ...this.hopRecord(base, hop.from, hop.status), redirectTo: to });
      batch.putLinks(from, [{ to }]);
      batch.removeFromFrontier(from);
    }

    let result: Recorded;
    switch (outcome.kind) {
      case 'page': {
        const contentId = batch.idFor(outcome.finalUrl);
        if (contentId !== id) batch.removeFromFrontier(contentId);
        const prior = contentId === id ? previous : undefined;
        // A change is the text changing, or a sitemap saying the page changed since the last visit
        // (markup-only edits leave the text alone): the change-rate estimate counts both.
        const changed = prior?.fingerprint !== undefined && (prior.fingerprint !== outcome.fingerprint || sitemapSaysChanged(prior, sitemapLastmod, now));
        const pageRole = context.pageRole ?? this.options.roleOf(outcome.finalUrl);
        const links = this.links(outcome, contentId, batch);
        const twin = this.fingerprints.get(outcome.fingerprint);
        let duplicateOf = twin !== undefined && twin !== contentId ? twin : undefined;
        if (duplicateOf === undefined) {
          this.fingerprints.set(outcome.fingerprint, contentId);
          if (pageRole === 'local') duplicateOf = this.nearDuplicateOf(contentId, outcome.normalizedText, outcome.fingerprint, leadOf(outcome.page.content.headings));
        }
        const canonicalCheck = outcome.page.canonical ? normalizeUrl(outcome.page.canonical, this.options.urlRules) : undefined;
        const canonical = canonicalCheck?.ok && canonicalCheck.url !== outcome.finalUrl ? canonicalCheck.url : undefined;
        const record: PageRecord = {
          ...base,
          url: outcome.finalUrl,
          host: hostOf(outcome.finalUrl),
          role: pageRole,
          state: 'fetched',
          status: outcome.status,
          contentType: outcome.contentType,
          fingerprint: outcome.fingerprint,
          title: outcome.page.title,
          // The main content (boilerplate left out, main-content.ts) is what is indexed and shown.
          headings: outcome.page.content.headings,
          // Global pages are fetched for their links only (never shown in results).
          text: pageRole === 'local' ? outcome.page.content.text : undefined,
          sections: pageRole === 'local' && outcome.page.content.sections.length > 0 ? outcome.page.content.sections : undefined,
          definitions: pageRole === 'local' && (outcome.page.content.definitions?.length ?? 0) > 0 ? outcome.page.content.definitions : undefined,
          description: outcome.page.description ?? undefined,
          // Language and translations matter for pages that are searched: local ones.
          ...(pageRole === 'local' ? this.languageFields(outcome, context.sitemapAlternates) : {}),
          breadcrumb: pageRole === 'local' && outcome.page.breadcrumb.length > 0 ? [...outcome.page.breadcrumb] : undefined,
          etag: outcome.etag,
          lastModified: outcome.lastModified,
          canonical,
          noindex: outcome.noindex || undefined,
          nofollow: outcome.nofollow || undefined,
          duplicateOf,
          truncated: outcome.truncated || undefined,
          type: outcome.type,
          private: this.options.sendsCredentialsTo?.(outcome.finalUrl) || undefined,
          visits: prior ? prior.visits + 1 : 1,
          changes: (prior?.changes ?? 0) + (changed ? 1 : 0),
        };
        batch.putPage(contentId, record);
        batch.putLinks(contentId, links.map(({ link }) => link));
        batch.appendHistory(contentId, { at: now, changed, status: outcome.status, fingerprint: outcome.fingerprint } satisfies ChangeRecord);
        result = { contentId, state: 'fetched', links: links.map(({ found }) => found), hops, duplicateOf, changed };
        break;
      }
      case 'not-modified': {
        batch.putPage(id, { ...previous!, ...base, failing: undefined, state: 'not-modified', status: 304, fingerprint: previous?.fingerprint, text: previous?.text, title: previous?.title });
        batch.appendHistory(id, { at: now, changed: false, status: 304, fingerprint: previous?.fingerprint });
        result = { contentId: id, state: 'not-modified', links: [], hops, changed: false };
        break;
      }
      case 'redirect': {
        // An unfollowed redirect is a link to its target from the last URL the chain reached.
        const links: FoundLink[] = [];
        const fromUrl = redirects.at(-1)?.to ?? url;
        const fromId = batch.idFor(fromUrl);
        const record: PageRecord = { ...(fromId === id ? { ...base, state: 'redirect', status: outcome.status } : this.hopRecord(base, fromUrl, outcome.status)), error: outcome.reason };
        if (fromId !== id) batch.removeFromFrontier(fromId);
        if (outcome.to) {
          const to = batch.idFor(outcome.to);
          record.redirectTo = to;
          batch.putLinks(fromId, [{ to }]);
          links.push({ id: to, url: outcome.to, follow: outcome.reason !== 'robots' });
        }
        batch.putPage(fromId, record);
        result = { contentId: fromId, state: 'redirect', links, hops, changed: false };
        break;
      }
      case 'not-html':
        batch.putPage(id, { ...base, state: 'not-html', status: outcome.status, contentType: outcome.contentType });
        result = { contentId: id, state: 'not-html', links: [], hops, changed: false };
        break;
      case 'http-error': {
        const gone = outcome.status === 404 || outcome.status === 410;
        const kept = this.putFailure(id, { ...base, state: gone ? 'gone' : 'error', status: outcome.status, error: `HTTP ${outcome.status}` }, previous);
        batch.appendHistory(id, { at: now, changed: previous?.state === 'fetched', status: outcome.status });
        result = { contentId: id, state: gone ? 'gone' : 'error', links: [], hops, changed: false, kept };
        break;
      }
      case 'disallowed': {
        const record: PageRecord = { ...base, state: 'disallowed', status: 0, error: outcome.reason };
        // robots.txt unreachable is an outage, not the site's wish: a failure like any other.
        const kept = outcome.reason === 'robots-unreachable' ? this.putFailure(id, record, previous) : (batch.putPage(id, record), false);
        result = { contentId: id, state: 'disallowed', links: [], hops, changed: false, kept };
        break;
      }
      case 'failed': {
        const kept = this.putFailure(id, { ...base, state: 'error', status: 0, error: `${outcome.error}: ${outcome.message}`.slice(0, 300) }, previous);
        result = { contentId: id, state: 'error', links: [], hops, changed: false, kept };
        break;
      }
      case 'retry-later':
        throw new Error('a retry-later outcome is not recorded: the crawl loop retries it');
    }
    this.pagesInBatch++;
    return result;
  }

  /** Stores a failed visit (or what `failedVisit` keeps instead); true when the page was kept. */
  private putFailure(id: number, failure: PageRecord, previous: PageRecord | undefined): boolean {
    const record = this.options.failedVisit?.(failure, previous) ?? failure;
    this.batch.putPage(id, record);
    return record.state === 'fetched' || record.state === 'not-modified';
  }

  private links(outcome: Extract<PageOutcome, { kind: 'page' }>, from: number, batch: WriteBatch): Array<{ link: StoredLink; found: FoundLink }> {
    const out: Array<{ link: StoredLink; found: FoundLink }> = [];
    const seen = new Set<number>();
    for (const link of outcome.page.links) {
      if (link.url === null) continue;
      const check = this.normalized(link.url);
      if (!check.ok) {
        this.rejected[check.reason] = (this.rejected[check.reason] ?? 0) + 1;
        continue;
      }
      const to = batch.idFor(check.url);
      if (to === from || seen.has(to)) continue;
      seen.add(to);
      const nofollow = link.nofollow || outcome.nofollow;
      const stored: StoredLink = { to };
      if (link.text) stored.anchor = link.text.slice(0, MAX_ANCHOR);
      if (nofollow) stored.nofollow = true;
      const found: FoundLink = { id: to, url: check.url, follow: !nofollow };
      if (link.text) found.anchor = link.text;
      out.push({ link: stored, found });
    }
    return out;
  }

  /** normalizeUrl with the recorder's rules (pure for fixed rules, so its answers are cached). */
  private normalized(url: string): UrlCheck {
    let check = this.urlChecks.get(url);
    if (check === undefined) {
      check = normalizeUrl(url, this.options.urlRules);
      if (this.urlChecks.size >= URL_CHECK_CACHE_SIZE) this.urlChecks.clear();
      this.urlChecks.set(url, check);
    }
    return check;
  }

  /** Commits when the batch is full (or always, with `force`). */
  async flush(force = false): Promise<void> {
    if (!force && this.pagesInBatch < (this.options.batchPages ?? 25)) return;
    const batch = this.batch;
    this.batch = this.store.batch();
    this.pagesInBatch = 0;
    await batch.commit();
  }
}

/** The sitemap lists a `<lastmod>` after the previous visit (and not in the future). */
function sitemapSaysChanged(previous: PageRecord, lastmod: number | undefined, now: number): boolean {
  return lastmod !== undefined && lastmod > previous.fetchedAt && lastmod <= now;
}

/** The first heading of a page's main text, compared without case or spacing. */
function leadOf(headings: readonly string[] | undefined): string | undefined {
  // Its opening is enough to tell two items apart, and bounds what a million pages keep.
  const first = headings?.[0]?.slice(0, 200).replace(/\s+/g, ' ').trim().toLowerCase();
  return first ? first : undefined;
}

/** Pages may be copies unless both open with a heading and the headings differ. */
function sameLead(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/** The sketch of a page's normalised words (see pageWords), from their opening. */
function sketchOf(normalized: string): MinHashSketch {
  if (normalized.length <= SKETCH_TEXT_LIMIT) return sketchNormalized(normalized);
  // Cut at a word boundary, so no shingle ends in half a word.
  const cut = normalized.lastIndexOf(' ', SKETCH_TEXT_LIMIT);
  return sketchNormalized(normalized.slice(0, cut > 0 ? cut : SKETCH_TEXT_LIMIT));
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
