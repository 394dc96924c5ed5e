/**
 * Search analytics without personal data: per search the normalised query (e-mail addresses and
 * long digit runs masked), its filters, its hit count and the time; per click the query, the
 * URL and its position. No IP address, no cookie, no user agent. Records go to one JSON-lines
 * file per UTC day under `<dataDir>/analytics/`; days past the retention are deleted (at start
 * and whenever a new day begins). Past a number of records a day, a flood is counted but not
 * stored, so it cannot fill the disk. Summaries come from per-day counts kept in memory.
 */
import { appendFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface AnalyticsOptions {
  retentionDays: number;
  maxRecordsPerDay: number;
  now?: () => number;
}

export interface SearchRecord {
  kind: 'search';
  at: number;
  query: string;
  filters?: Record<string, string[]>;
  hits: number;
}

export interface ClickRecord {
  kind: 'click';
  at: number;
  query: string;
  url: string;
  position: number;
}

type AnalyticsRecord = SearchRecord | ClickRecord;

interface QueryCounts {
  searches: number;
  zero: number;
  clicks: number;
  /** Zero-result searches made with filters, by the filters (JSON): a filter may be why nothing was found. */
  zeroFilters?: Map<string, number>;
}

interface DayCounts {
  searches: number;
  zeroResults: number;
  clicks: number;
  /** Records past the day's limit: counted, not stored. */
  dropped: number;
  stored: number;
  queries: Map<string, QueryCounts>;
}

export interface AnalyticsSummary {
  days: number;
  from: string;
  to: string;
  searches: number;
  clicks: number;
  zeroResults: number;
  dropped: number;
  topQueries: Array<{ query: string; count: number; clickThrough: number }>;
  /** `filtered`: how many of them were made with filters, and the most frequent filters (when any). */
  zeroResultQueries: Array<{ query: string; count: number; filtered?: number; filters?: Record<string, string[]> }>;
  perDay: Array<{ day: string; searches: number; zeroResults: number; clicks: number }>;
}

const DAY_MS = 86_400_000;
/** Records are written together at most this long after the first of them (one append, not one a search). */
const WRITE_DELAY_MS = 200;
const MAX_QUERY_CHARS = 200;
const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;

/** How many zero-result searches of a query had filters, and the filters used most. */
function filteredZero(counts: QueryCounts): { filtered?: number; filters?: Record<string, string[]> } {
  if (!counts.zeroFilters || counts.zeroFilters.size === 0) return {};
  let filtered = 0;
  let best: [string, number] = ['{}', 0];
  for (const entry of counts.zeroFilters) {
    filtered += entry[1];
    if (entry[1] > best[1]) best = entry;
  }
  return { filtered, filters: JSON.parse(best[0]) as Record<string, string[]> };
}

export const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** E-mail addresses and runs of five or more digits (phone, card, id numbers) masked. */
export function maskPersonalData(text: string): string {
  return text.replace(/[^\s@]+@[^\s@]+\.[^\s@]+/g, '[email]').replace(/\d(?:[\s./-]?\d){4,}/g, '[number]');
}

/** The query as analytics keeps it: masked, lowercased, one space between words, capped. */
export function analyticsQuery(query: string): string {
  return maskPersonalData(query.normalize('NFC').replace(/\s+/g, ' ').trim()).toLowerCase().slice(0, MAX_QUERY_CHARS);
}

export class SearchAnalytics {
  private readonly days = new Map<string, DayCounts>();
  private writing: Promise<unknown> = Promise.resolve();
  /** Lines not yet handed to their day's file, by day. */
  private readonly pending = new Map<string, string[]>();
  private writeTimer: NodeJS.Timeout | undefined;
  private currentDay = '';
  private readonly now: () => number;

  private constructor(
    private readonly directory: string,
    private readonly options: AnalyticsOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  static async open(dataDir: string, options: AnalyticsOptions): Promise<SearchAnalytics> {
    const analytics = new SearchAnalytics(join(dataDir, 'analytics'), options);
    await mkdir(analytics.directory, { recursive: true });
    await analytics.prune();
    await analytics.load();
    analytics.currentDay = dayOf(analytics.now());
    return analytics;
  }

  recordSearch(query: string, filters: Record<string, string[]> | undefined, hits: number): void {
    const record: SearchRecord = { kind: 'search', at: this.now(), query: analyticsQuery(query), hits };
    if (filters && Object.keys(filters).length > 0) record.filters = filters;
    this.record(record);
  }

  recordClick(query: string, url: string, position: number): void {
    this.record({ kind: 'click', at: this.now(), query: analyticsQuery(query), url: url.slice(0, 2000), position });
  }

  /** Top and zero-result queries and counts per day over the last `days` days (today included). */
  summary(days: number, limit = 20): AnalyticsSummary {
    const today = Date.parse(dayOf(this.now()));
    const wanted = Array.from({ length: days }, (_, i) => dayOf(today - (days - 1 - i) * DAY_MS));
    const queries = new Map<string, QueryCounts>();
    const perDay = wanted.map((day) => {
      const counts = this.days.get(day);
      for (const [query, c] of counts?.queries ?? []) {
        const total = queries.get(query) ?? { searches: 0, zero: 0, clicks: 0 };
        total.searches += c.searches;
        total.zero += c.zero;
        total.clicks += c.clicks;
        for (const [key, n] of c.zeroFilters ?? []) (total.zeroFilters ??= new Map()).set(key, (total.zeroFilters.get(key) ?? 0) + n);
        queries.set(query, total);
      }
      return { day, searches: counts?.searches ?? 0, zeroResults: counts?.zeroResults ?? 0, clicks: counts?.clicks ?? 0 };
    });
    const entries = [...queries];
    const top = entries
      .filter(([, c]) => c.searches > 0)
      .sort((a, b) => b[1].searches - a[1].searches || a[0].localeCompare(b[0]))
      .slice(0, limit)
      .map(([query, c]) => ({ query, count: c.searches, clickThrough: Math.min(1, c.clicks / c.searches) }));
    const zero = entries
      .filter(([, c]) => c.zero > 0)
      .sort((a, b) => b[1].zero - a[1].zero || a[0].localeCompare(b[0]))
      .slice(0, limit)
      .map(([query, c]) => ({ query, count: c.zero, ...filteredZero(c) }));
    const sum = (key: 'searches' | 'zeroResults' | 'clicks') => perDay.reduce((total, day) => total + day[key], 0);
    const dropped = wanted.reduce((total, day) => total + (this.days.get(day)?.dropped ?? 0), 0);
    return { days, from: wanted[0], to: wanted[wanted.length - 1], searches: sum('searches'), clicks: sum('clicks'), zeroResults: sum('zeroResults'), dropped, topQueries: top, zeroResultQueries: zero, perDay };
  }

  /**
   * The queries searched most over the last `days` days that found pages, each by at least
   * `minSearches` searches that had results (a query one visitor typed once is not offered to
   * everyone): the search page's examples when the settings name none.
   */
  popularQueries(days: number, limit: number, minSearches = 2): string[] {
    const summary = this.summary(days, Number.MAX_SAFE_INTEGER);
    const zero = new Map(summary.zeroResultQueries.map((q) => [q.query, q.count]));
    return summary.topQueries
      .map((q) => ({ query: q.query, found: q.count - (zero.get(q.query) ?? 0) }))
      .filter((q) => q.found >= minSearches && q.query.length <= 100)
      .sort((a, b) => b.found - a.found || a.query.localeCompare(b.query))
      .slice(0, limit)
      .map((q) => q.query);
  }

  /** Deletes the day files past the retention. */
  async prune(): Promise<string[]> {
    const oldest = dayOf(this.now() - (this.options.retentionDays - 1) * DAY_MS);
    const removed: string[] = [];
    for (const name of await readdir(this.directory)) {
      const day = DAY_FILE.exec(name)?.[1];
      if (day === undefined || day >= oldest) continue;
      await rm(join(this.directory, name), { force: true });
      this.days.delete(day);
      removed.push(day);
    }
    return removed;
  }

  /** Waits for the records written so far to reach the disk. */
  async flush(): Promise<void> {
    this.writePending();
    await this.writing;
  }

  /**
   * Appends the lines recorded since the last write, one append per day file. Each append opens
   * and closes the file through the thread pool; one per search cost the main thread about
   * 0.15 ms of every answer.
   */
  private writePending(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    for (const [day, lines] of this.pending) {
      this.writing = this.writing
        .then(() => appendFile(join(this.directory, `${day}.jsonl`), lines.join('')))
        .catch((error) => process.stderr.write(`analytics: cannot write ${lines.length} record(s): ${String(error)}\n`));
    }
    this.pending.clear();
  }

  private record(record: AnalyticsRecord): void {
    const day = dayOf(record.at);
    if (day !== this.currentDay) {
      this.currentDay = day;
      this.writing = this.writing.then(() => this.prune()).catch((error) => process.stderr.write(`analytics: cannot drop old days: ${String(error)}\n`));
    }
    const counts = this.dayCounts(day);
    if (counts.stored >= this.options.maxRecordsPerDay) {
      counts.dropped++;
      return;
    }
    counts.stored++;
    this.count(counts, record);
    let lines = this.pending.get(day);
    if (lines === undefined) this.pending.set(day, (lines = []));
    lines.push(`${JSON.stringify(record)}\n`);
    if (this.writeTimer === undefined) {
      this.writeTimer = setTimeout(() => this.writePending(), WRITE_DELAY_MS);
      // The server flushes when it closes; a pending write does not keep a process alive.
      this.writeTimer.unref();
    }
  }

  private dayCounts(day: string): DayCounts {
    let counts = this.days.get(day);
    if (!counts) this.days.set(day, (counts = { searches: 0, zeroResults: 0, clicks: 0, dropped: 0, stored: 0, queries: new Map() }));
    return counts;
  }

  private count(counts: DayCounts, record: AnalyticsRecord): void {
    let query = counts.queries.get(record.query);
    if (!query) counts.queries.set(record.query, (query = { searches: 0, zero: 0, clicks: 0 }));
    if (record.kind === 'search') {
      counts.searches++;
      query.searches++;
      if (record.hits === 0) {
        counts.zeroResults++;
        query.zero++;
        if (record.filters && Object.keys(record.filters).length > 0) {
          const key = JSON.stringify(record.filters);
          (query.zeroFilters ??= new Map()).set(key, (query.zeroFilters.get(key) ?? 0) + 1);
        }
      }
    } else {
      counts.clicks++;
      query.clicks++;
    }
  }

  /** Reads the kept days back into the counts (a damaged line is skipped). */
  private async load(): Promise<void> {
    for (const name of (await readdir(this.directory)).sort()) {
      const day = DAY_FILE.exec(name)?.[1];
      if (day === undefined) continue;
      const counts = this.dayCounts(day);
      for (const line of (await readFile(join(this.directory, name), 'utf8')).split('\n')) {
        if (line === '') continue;
        try {
          const record = JSON.parse(line) as AnalyticsRecord;
          if ((record.kind === 'search' || record.kind === 'click') && typeof record.query === 'string') {
            counts.stored++;
            this.count(counts, record);
          }
        } catch {
          // A line cut by a crash: the rest of the day still counts.
        }
      }
    }
  }
}
