/**
 * The robots.txt policy of the crawler (RFC 9309): fetch each origin's robots.txt once, cache it,
 * and answer "may we fetch this URL, and how slowly?".
 *
 * What a fetch result means (RFC 9309 §2.3.1):
 *   2xx           parse the body (first 500 KiB)
 *   3xx (final)   the fetcher gave up following redirects: unavailable → allow all (§2.3.1.2)
 *   429           treated as unreachable, like 5xx (the server asks us to slow down, as Google does)
 *   other 4xx     unavailable → allow all (§2.3.1.3)
 *   5xx, network  unreachable → disallow the whole origin, and ask again after `unreachableRetryMs`
 *                 (§2.3.1.4)
 * Parsed and unavailable results are cached for `cacheTtlMs` (24 h, §2.4).
 * Parsing and matching live in robots-rules.ts.
 */
import { ALLOW_ALL, DISALLOW_ALL, parseRobotsTxt, ROBOTS_MAX_BYTES, type RobotsRules } from './robots-rules.ts';

export interface RobotsFetchResponse {
  /** HTTP status after redirects; 0 for a network failure (a thrown error means the same). */
  readonly status: number;
  readonly body: string | Uint8Array;
  /** Why no response came (status 0): the fetcher's error kind and message. */
  readonly failure?: { readonly kind: string; readonly message: string };
}

/** Fetches `${origin}/robots.txt` (following up to 5 redirects). */
export type RobotsFetch = (origin: string) => Promise<RobotsFetchResponse>;

export type RobotsStatus = 'parsed' | 'unavailable' | 'unreachable';

export interface RobotsEntry {
  readonly origin: string;
  readonly status: RobotsStatus;
  /** HTTP status of the fetch (0 when unreachable without a response). */
  readonly httpStatus: number;
  readonly rules: RobotsRules;
  readonly fetchedAt: number;
  readonly expiresAt: number;
  /** Unreachable without a response: why (DNS, refused, TLS, …). */
  readonly failure?: { readonly kind: string; readonly message: string };
}

export interface RobotsDecision {
  readonly allowed: boolean;
  /** Why: allowed by the rules, disallowed by the rules, or robots.txt could not be fetched. */
  readonly reason: 'allowed' | 'disallowed' | 'unreachable';
  /** Crawl-delay for the origin in ms, capped at `maxCrawlDelayMs`; undefined when none is given. */
  readonly crawlDelayMs: number | undefined;
}

export interface RobotsPolicyOptions {
  /** Our product token, e.g. `lse-bot`. */
  readonly userAgent: string;
  readonly fetchRobots: RobotsFetch;
  /** Clock in ms (injectable for tests). */
  readonly now?: () => number;
  readonly cacheTtlMs?: number;
  readonly unreachableRetryMs?: number;
  readonly maxCrawlDelayMs?: number;
  readonly maxBytes?: number;
  /** Most origins kept in the cache; the least recently fetched are forgotten first. */
  readonly maxEntries?: number;
}

export class RobotsOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RobotsOptionError';
  }
}

export const ROBOTS_DEFAULTS = {
  cacheTtlMs: 24 * 60 * 60 * 1000,
  unreachableRetryMs: 10 * 60 * 1000,
  maxCrawlDelayMs: 30_000,
  maxEntries: 100_000,
} as const;

export class RobotsPolicy {
  readonly #userAgent: string;
  readonly #fetchRobots: RobotsFetch;
  readonly #now: () => number;
  readonly #cacheTtlMs: number;
  readonly #unreachableRetryMs: number;
  readonly #maxCrawlDelayMs: number;
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, RobotsEntry>();
  readonly #pending = new Map<string, Promise<RobotsEntry>>();

  constructor(options: RobotsPolicyOptions) {
    if (!/^[A-Za-z_-]+/.test(options.userAgent.trim())) {
      throw new RobotsOptionError(`user-agent "${options.userAgent}" has no product token (letters, "_" and "-")`);
    }
    this.#userAgent = options.userAgent;
    this.#fetchRobots = options.fetchRobots;
    this.#now = options.now ?? Date.now;
    this.#cacheTtlMs = positive('cacheTtlMs', options.cacheTtlMs ?? ROBOTS_DEFAULTS.cacheTtlMs);
    this.#unreachableRetryMs = positive('unreachableRetryMs', options.unreachableRetryMs ?? ROBOTS_DEFAULTS.unreachableRetryMs);
    this.#maxCrawlDelayMs = positive('maxCrawlDelayMs', options.maxCrawlDelayMs ?? ROBOTS_DEFAULTS.maxCrawlDelayMs);
    this.#maxBytes = positive('maxBytes', options.maxBytes ?? ROBOTS_MAX_BYTES);
    this.#maxEntries = positive('maxEntries', options.maxEntries ?? ROBOTS_DEFAULTS.maxEntries);
  }

  /** May we fetch `url`? Fetches the origin's robots.txt when it is not cached or has expired. */
  async check(url: string): Promise<RobotsDecision> {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return { allowed: false, reason: 'disallowed', crawlDelayMs: undefined };
    }
    const entry = await this.entry(origin);
    const crawlDelayMs = this.#crawlDelayMs(entry);
    const allowed = entry.rules.isAllowed(url);
    if (entry.status === 'unreachable') return { allowed, reason: 'unreachable', crawlDelayMs };
    return { allowed, reason: allowed ? 'allowed' : 'disallowed', crawlDelayMs };
  }

  /** The cached entry for an origin, fetching it when missing or expired (one fetch at a time per origin). */
  async entry(origin: string): Promise<RobotsEntry> {
    const key = new URL(origin).origin;
    const cached = this.#entries.get(key);
    if (cached && cached.expiresAt > this.#now()) return cached;
    const pending = this.#pending.get(key);
    if (pending) return pending;
    const fetching = this.#load(key).finally(() => this.#pending.delete(key));
    this.#pending.set(key, fetching);
    return fetching;
  }

  /** The cached entry without fetching (undefined when absent or expired). */
  peek(origin: string): RobotsEntry | undefined {
    const cached = this.#entries.get(new URL(origin).origin);
    return cached && cached.expiresAt > this.#now() ? cached : undefined;
  }

  /** Crawl-delay of a cached origin in ms (capped), undefined when none or not cached. */
  crawlDelayMs(origin: string): number | undefined {
    const entry = this.peek(origin);
    return entry ? this.#crawlDelayMs(entry) : undefined;
  }

  forget(origin: string): void {
    this.#entries.delete(new URL(origin).origin);
  }

  get size(): number {
    return this.#entries.size;
  }

  async #load(origin: string): Promise<RobotsEntry> {
    let response: RobotsFetchResponse;
    try {
      response = await this.#fetchRobots(origin);
    } catch (error) {
      response = { status: 0, body: '', failure: { kind: 'network', message: (error as Error).message } };
    }
    const fetchedAt = this.#now();
    const entry = this.#interpret(origin, response, fetchedAt);
    this.#entries.delete(origin);
    this.#entries.set(origin, entry);
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    return entry;
  }

  #interpret(origin: string, response: RobotsFetchResponse, fetchedAt: number): RobotsEntry {
    const status = response.status;
    const cached = (kind: RobotsStatus, rules: RobotsRules, ttl: number): RobotsEntry => ({
      origin,
      status: kind,
      httpStatus: status,
      rules,
      fetchedAt,
      expiresAt: fetchedAt + ttl,
      ...(response.failure ? { failure: response.failure } : {}),
    });
    if (status >= 200 && status < 300) {
      const rules = parseRobotsTxt(response.body, { userAgent: this.#userAgent, origin, maxBytes: this.#maxBytes });
      return cached('parsed', rules, this.#cacheTtlMs);
    }
    if (status === 429 || status >= 500 || status < 200) return cached('unreachable', DISALLOW_ALL, this.#unreachableRetryMs);
    return cached('unavailable', ALLOW_ALL, this.#cacheTtlMs);
  }

  #crawlDelayMs(entry: RobotsEntry): number | undefined {
    const seconds = entry.rules.crawlDelaySeconds;
    return seconds === undefined ? undefined : Math.min(seconds * 1000, this.#maxCrawlDelayMs);
  }
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) throw new RobotsOptionError(`robots option ${name} must be a positive number, got ${value}`);
  return value;
}
