/**
 * The one fetcher: every HTTP request of the crawler (pages, robots.txt, re-crawls) goes through
 * a `Fetcher`. It owns an undici Agent (keep-alive pools per origin) whose connector refuses
 * private addresses and applies `resolve` pins (guarded-connector.ts), a global concurrency
 * limit, timeouts, a body size cap, decompression, manual redirects checked hop by hop, and
 * conditional GETs. It never throws for a failed fetch: errors come back as values.
 *
 * Politeness (per-host spacing) and robots.txt are the caller's business (politeness.ts,
 * robots.ts); the redirect callback is where the caller re-applies them to every hop.
 *
 * Decompression (body-decoding.ts) uses node:zlib streams rather than undici 7's `interceptors.decompress`: that
 * one is marked experimental (it prints an ExperimentalWarning) and fails a response over its
 * size limit, where a crawler wants the first N bytes and a `truncated` flag. Our streams also
 * accept raw deflate and bodies cut short. Note undici checks its header/body timeouts on a
 * coarse timer tick, so they fire up to about a second late.
 */
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { decodedStream, readBody, type BodyRead } from './body-decoding.ts';
import { decodeBody, type DecodedBody } from './charset.ts';
import { createGuardedConnector, systemLookup, type HostLookup } from './guarded-connector.ts';
import { ResolvePins } from './resolve-pins.ts';
import { parseRetryAfter } from './retry-after.ts';
import type { HostCredentials } from './host-credentials.ts';
import { Semaphore } from './semaphore.ts';

export interface FetcherOptions {
  /** The full User-Agent header, e.g. `lse-bot/0.1 (+https://example.org/bot)`. */
  readonly userAgent: string;
  /** Requests in flight at once, over all hosts. */
  readonly maxConcurrency?: number;
  /** Keep-alive connections per origin; politeness keeps one request in flight per host by default. */
  readonly connectionsPerOrigin?: number;
  readonly connectTimeoutMs?: number;
  /** From sending the request to the end of the response headers. */
  readonly headersTimeoutMs?: number;
  /** Longest silence while the body streams in. */
  readonly bodyTimeoutMs?: number;
  /** Whole fetch, all hops included. */
  readonly totalTimeoutMs?: number;
  /** Decoded body bytes kept; beyond it the body is cut and flagged `truncated`. */
  readonly maxBodyBytes?: number;
  readonly maxRedirects?: number;
  /** Allow private, loopback and link-local addresses (the demo and the tests). */
  readonly allowPrivateNetworks?: boolean;
  /** curl-style pins: `{ "*.example:80": "127.0.0.1:8080" }`. */
  readonly resolve?: Readonly<Record<string, string>>;
  /** Name resolution (injectable for tests). */
  readonly lookup?: HostLookup;
  /** Headers, cookies and Basic credentials per host, added to requests to those hosts only. */
  readonly credentials?: HostCredentials;
  /** Clock for `startedAt` and Retry-After dates. */
  readonly now?: () => number;
}

export const FETCHER_DEFAULTS = {
  maxConcurrency: 16,
  connectionsPerOrigin: 1,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  totalTimeoutMs: 60_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
} as const;

export interface RedirectHop {
  readonly from: string;
  /** The URL followed (after the callback's rewrite, if any). */
  readonly to: string;
  readonly status: number;
}

export type RedirectDecision = { readonly follow: true; readonly url?: string } | { readonly follow: false; readonly reason: string };

/** Called before each redirect is followed: re-check scope, robots and URL rules here. */
export type RedirectCheck = (hop: RedirectHop) => RedirectDecision | Promise<RedirectDecision>;

export interface FetchOptions {
  /** `html` (default): keep bodies of HTML/XHTML only. `any`: keep every 2xx body (robots.txt). */
  readonly accept?: 'html' | 'any';
  /** Validators of the stored copy, for a conditional GET (sent on the first hop only). */
  readonly etag?: string | null;
  readonly lastModified?: string | null;
  readonly maxBodyBytes?: number;
  /** Fail with `too-large` instead of truncating. */
  readonly failWhenTooLarge?: boolean;
  readonly onRedirect?: RedirectCheck;
  /**
   * Reads a 2xx body as a stream of decoded bytes instead of keeping it (the result's `body` is
   * null); it runs under the fetch's deadline, and its error fails the fetch.
   */
  readonly consumeBody?: (body: Readable) => Promise<void>;
  /**
   * Documents (PDF, office files): the byte limit for a 2xx body of this media type and URL, or
   * undefined when it is not a document to keep. A larger document fails with `too-large`
   * (refused before its body is read when Content-Length says so).
   */
  readonly documentBytes?: (mediaType: string, url: string) => number | undefined;
  readonly signal?: AbortSignal;
}

export interface ResponseHeaders {
  readonly contentType?: string;
  readonly contentLength?: number;
  readonly contentEncoding?: string;
  readonly contentLanguage?: string;
  /** The `Link` header (RFC 8288): translations as `<url>; rel="alternate"; hreflang="de"`. */
  readonly link?: string;
  readonly etag?: string;
  readonly lastModified?: string;
  readonly location?: string;
  readonly retryAfter?: string;
  readonly xRobotsTag?: string;
  readonly cacheControl?: string;
  readonly date?: string;
}

export interface FetchTimings {
  /** Clock time when fetch() was called. */
  readonly startedAt: number;
  /** Waiting for a free concurrency slot (all hops). */
  readonly queuedMs: number;
  /** Request sent → response headers, for the last hop. */
  readonly headersMs: number;
  readonly totalMs: number;
}

export type FetchErrorKind =
  | 'invalid-url'
  | 'scheme'
  | 'private-address'
  | 'dns'
  | 'refused'
  | 'reset'
  | 'unreachable'
  | 'timeout'
  | 'tls'
  | 'decode'
  | 'too-large'
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'bad-redirect'
  | 'redirect-refused'
  | 'aborted'
  | 'network';

export type TimeoutPhase = 'connect' | 'headers' | 'body' | 'total';

interface FetchOutcomeBase {
  /** The URL asked for. */
  readonly url: string;
  /** The last URL requested (differs from `url` after redirects). */
  readonly finalUrl: string;
  readonly redirects: readonly RedirectHop[];
  readonly timings: FetchTimings;
}

export interface FetchResponse extends FetchOutcomeBase {
  readonly ok: true;
  readonly status: number;
  readonly headers: ResponseHeaders;
  /** Lower-cased media type without parameters; '' when the server sent none. */
  readonly mediaType: string;
  readonly isHtml: boolean;
  /** 304 to a conditional GET: the stored copy is current. */
  readonly notModified: boolean;
  /** Decoded (decompressed) body; only for 2xx responses of an accepted type. */
  readonly body: Buffer | null;
  /** The body as text, for HTML. */
  readonly text: string | null;
  readonly charset: Omit<DecodedBody, 'text'> | null;
  /** The body was cut at the size cap. */
  readonly truncated: boolean;
  /** For 429 and 503: how long the server asks us to wait, in ms. */
  readonly retryAfterMs: number | null;
}

export interface FetchFailure extends FetchOutcomeBase {
  readonly ok: false;
  readonly error: FetchErrorKind;
  readonly message: string;
  readonly timeoutPhase?: TimeoutPhase;
  /** The HTTP status when the failure came after a response (redirect refused, too large, …). */
  readonly status?: number;
}

export type FetchResult = FetchResponse | FetchFailure;

export class FetcherOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetcherOptionError';
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const RETRY_AFTER_STATUSES = new Set([429, 503]);

export class Fetcher {
  readonly #userAgent: string;
  readonly #agent: Agent;
  readonly #slots: Semaphore;
  readonly #now: () => number;
  readonly #headersTimeoutMs: number;
  readonly #bodyTimeoutMs: number;
  readonly #totalTimeoutMs: number;
  readonly #maxBodyBytes: number;
  readonly #maxRedirects: number;
  readonly #credentials: HostCredentials | undefined;

  /** Whether a request to this URL carries credentials (what it returns is then not public). */
  sendsCredentialsTo(url: string): boolean {
    return this.#credentials?.headersFor(url) !== undefined;
  }

  constructor(options: FetcherOptions) {
    if (options.userAgent.trim() === '' || /[\r\n]/.test(options.userAgent)) throw new FetcherOptionError('userAgent must be a non-empty single line');
    this.#userAgent = options.userAgent;
    this.#now = options.now ?? Date.now;
    this.#credentials = options.credentials;
    this.#headersTimeoutMs = positive('headersTimeoutMs', options.headersTimeoutMs ?? FETCHER_DEFAULTS.headersTimeoutMs);
    this.#bodyTimeoutMs = positive('bodyTimeoutMs', options.bodyTimeoutMs ?? FETCHER_DEFAULTS.bodyTimeoutMs);
    this.#totalTimeoutMs = positive('totalTimeoutMs', options.totalTimeoutMs ?? FETCHER_DEFAULTS.totalTimeoutMs);
    this.#maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes ?? FETCHER_DEFAULTS.maxBodyBytes);
    this.#maxRedirects = nonNegativeInteger('maxRedirects', options.maxRedirects ?? FETCHER_DEFAULTS.maxRedirects);
    this.#slots = new Semaphore(positiveInteger('maxConcurrency', options.maxConcurrency ?? FETCHER_DEFAULTS.maxConcurrency));
    let pins: ResolvePins;
    try {
      pins = new ResolvePins(options.resolve);
    } catch (error) {
      throw new FetcherOptionError((error as Error).message);
    }
    const connector = createGuardedConnector({
      allowPrivateNetworks: options.allowPrivateNetworks ?? false,
      pins,
      lookup: options.lookup ?? systemLookup,
      connectTimeoutMs: positive('connectTimeoutMs', options.connectTimeoutMs ?? FETCHER_DEFAULTS.connectTimeoutMs),
    });
    this.#agent = new Agent({
      connect: connector,
      connections: positiveInteger('connectionsPerOrigin', options.connectionsPerOrigin ?? FETCHER_DEFAULTS.connectionsPerOrigin),
      headersTimeout: this.#headersTimeoutMs,
      bodyTimeout: this.#bodyTimeoutMs,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 60_000,
    });
  }

  /** Requests currently holding a concurrency slot, and those waiting for one. */
  get load(): { active: number; waiting: number } {
    return { active: this.#slots.active, waiting: this.#slots.waiting };
  }

  async fetch(url: string, options: FetchOptions = {}): Promise<FetchResult> {
    const startedAt = this.#now();
    const started = performance.now();
    const redirects: RedirectHop[] = [];
    let queuedMs = 0;
    let headersMs = 0;
    let current = url;
    const timings = (): FetchTimings => ({ startedAt, queuedMs, headersMs, totalMs: performance.now() - started });
    const fail = (error: FetchErrorKind, message: string, extra: { timeoutPhase?: TimeoutPhase; status?: number } = {}): FetchFailure => ({
      ok: false,
      url,
      finalUrl: current,
      redirects,
      timings: timings(),
      error,
      message,
      ...extra,
    });

    const first = checkUrl(url);
    if (first) return fail(first.error, first.message);

    // One deadline for the whole fetch; the caller's signal aborts it too.
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, this.#totalTimeoutMs);
    const onCallerAbort = () => deadline.abort();
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    if (options.signal?.aborted) deadline.abort();

    try {
      const maxBodyBytes = options.maxBodyBytes ?? this.#maxBodyBytes;
      for (let hop = 0; ; hop++) {
        const queuedAt = performance.now();
        let release: () => void;
        try {
          release = await this.#slots.acquire(deadline.signal);
        } catch {
          return timedOut ? fail('timeout', 'timed out waiting for a free connection slot', { timeoutPhase: 'total' }) : fail('aborted', 'aborted');
        }
        queuedMs += performance.now() - queuedAt;
        try {
          const sentAt = performance.now();
          let response: Dispatcher.ResponseData;
          try {
            response = await this.#agent.request({
              origin: new URL(current).origin,
              path: pathOf(current),
              method: 'GET',
              // Credentials by the URL of this hop: a redirect to another host gets none.
              headers: { ...this.#credentials?.headersFor(current), ...this.#requestHeaders(options, hop === 0) },
              signal: deadline.signal,
              headersTimeout: this.#headersTimeoutMs,
              bodyTimeout: this.#bodyTimeoutMs,
            });
          } catch (error) {
            const failure = classifyError(error, timedOut);
            return fail(failure.error, failure.message, { timeoutPhase: failure.timeoutPhase });
          }
          headersMs = performance.now() - sentAt;
          const { statusCode: status } = response;
          const headers = headerSubset(response.headers);

          if (REDIRECT_STATUSES.has(status) && headers.location !== undefined) {
            discard(response.body);
            const next = resolveRedirect(headers.location, current);
            if (!next) return fail('bad-redirect', `${status} to "${headers.location}", not an http(s) URL`, { status });
            if (hop >= this.#maxRedirects) return fail('too-many-redirects', `more than ${this.#maxRedirects} redirects`, { status });
            const proposed: RedirectHop = { from: current, to: next, status };
            const decision = options.onRedirect ? await options.onRedirect(proposed) : ({ follow: true } as const);
            if (!decision.follow) return fail('redirect-refused', `redirect to ${next} refused: ${decision.reason}`, { status });
            const followed = decision.url ?? next;
            const check = checkUrl(followed);
            if (check) return fail('bad-redirect', check.message, { status });
            if (followed === url || redirects.some((h) => h.to === followed)) {
              return fail('redirect-loop', `redirect loop back to ${followed}`, { status });
            }
            redirects.push({ from: current, to: followed, status });
            current = followed;
            continue;
          }

          const mediaType = (headers.contentType ?? '').split(';')[0].trim().toLowerCase();
          const retryAfterMs = RETRY_AFTER_STATUSES.has(status) ? parseRetryAfter(headers.retryAfter, this.#now()) : null;
          const base = { ok: true as const, url, finalUrl: current, redirects, status, headers, mediaType, retryAfterMs };
          if (options.consumeBody && status >= 200 && status < 300) {
            try {
              await options.consumeBody(decodedStream(response.body, headers.contentEncoding));
            } catch (error) {
              response.body.destroy();
              const failure = classifyError(error, timedOut);
              return fail(failure.error, failure.message, { timeoutPhase: failure.timeoutPhase, status });
            }
            return { ...base, isHtml: false, notModified: false, body: null, text: null, charset: null, truncated: false, timings: timings() };
          }
          const documentCap = status >= 200 && status < 300 ? options.documentBytes?.(mediaType, current) : undefined;
          if (documentCap !== undefined) {
            if (headers.contentLength !== undefined && headers.contentLength > documentCap) {
              response.body.on('error', ignore);
              response.body.destroy();
              return fail('too-large', `${mediaType || 'document'} of ${headers.contentLength} bytes (Content-Length), over the limit of ${documentCap} bytes for its type`, { status });
            }
            let document: BodyRead;
            try {
              document = await readBody(response.body, headers.contentEncoding, documentCap);
            } catch (error) {
              const failure = classifyError(error, timedOut);
              return fail(failure.error, failure.message, { timeoutPhase: failure.timeoutPhase, status });
            }
            if (document.truncated) return fail('too-large', `${mediaType || 'document'} larger than the limit of ${documentCap} bytes for its type`, { status });
            return { ...base, isHtml: false, notModified: false, body: document.body, text: null, charset: null, truncated: false, timings: timings() };
          }
          const wanted = status >= 200 && status < 300 && (options.accept === 'any' || mediaType === '' || HTML_TYPES.has(mediaType));
          if (!wanted) {
            discard(response.body);
            const isHtml = HTML_TYPES.has(mediaType);
            return { ...base, isHtml, notModified: status === 304, body: null, text: null, charset: null, truncated: false, timings: timings() };
          }

          let read: BodyRead;
          try {
            read = await readBody(response.body, headers.contentEncoding, maxBodyBytes);
          } catch (error) {
            const failure = classifyError(error, timedOut);
            return fail(failure.error, failure.message, { timeoutPhase: failure.timeoutPhase, status });
          }
          if (read.truncated && options.failWhenTooLarge) return fail('too-large', `body larger than ${maxBodyBytes} bytes`, { status });
          // A missing Content-Type: look at the bytes, as browsers do.
          const isHtml = HTML_TYPES.has(mediaType) || (mediaType === '' && looksLikeHtml(read.body));
          if (!isHtml && options.accept !== 'any') {
            return { ...base, isHtml, notModified: false, body: null, text: null, charset: null, truncated: read.truncated, timings: timings() };
          }
          let text: string | null = null;
          let charset: Omit<DecodedBody, 'text'> | null = null;
          if (isHtml) {
            const decoded = decodeBody(read.body, headers.contentType);
            text = decoded.text;
            charset = { charset: decoded.charset, source: decoded.source, fallback: decoded.fallback };
          }
          return { ...base, isHtml, notModified: false, body: read.body, text, charset, truncated: read.truncated, timings: timings() };
        } finally {
          release();
        }
      }
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** Closes idle connections and waits for requests in flight. */
  async close(): Promise<void> {
    await this.#agent.close();
  }

  /** Drops every connection at once (requests in flight fail). */
  async destroy(): Promise<void> {
    await this.#agent.destroy();
  }

  #requestHeaders(options: FetchOptions, firstHop: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.#userAgent,
      accept: options.accept === 'any' ? '*/*' : 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
      'accept-encoding': 'gzip, deflate, br',
    };
    // Validators belong to the URL they were stored for, not to a redirect target.
    if (firstHop && options.etag) headers['if-none-match'] = options.etag;
    if (firstHop && options.lastModified) headers['if-modified-since'] = options.lastModified;
    return headers;
  }
}

function checkUrl(url: string): { error: FetchErrorKind; message: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: 'invalid-url', message: `not a URL: ${url}` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { error: 'scheme', message: `only http and https can be fetched: ${url}` };
  return null;
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function resolveRedirect(location: string, from: string): string | null {
  try {
    const next = new URL(location, from);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return null;
    next.hash = '';
    return next.href;
  } catch {
    return null;
  }
}

type RawHeaders = Record<string, string | string[] | undefined>;

function headerSubset(raw: RawHeaders): ResponseHeaders {
  const get = (name: string): string | undefined => {
    const value = raw[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const length = get('content-length');
  const headers: Record<string, string | number | undefined> = {
    contentType: get('content-type'),
    contentLength: length !== undefined && /^\s*[0-9]+\s*$/.test(length) ? Number(length) : undefined,
    contentEncoding: get('content-encoding'),
    contentLanguage: get('content-language'),
    link: get('link'),
    etag: get('etag'),
    lastModified: get('last-modified'),
    location: Array.isArray(raw.location) ? raw.location[0] : raw.location,
    retryAfter: get('retry-after'),
    xRobotsTag: get('x-robots-tag'),
    cacheControl: get('cache-control'),
    date: get('date'),
  };
  for (const key of Object.keys(headers)) if (headers[key] === undefined) delete headers[key];
  return headers as ResponseHeaders;
}

/** Lets the connection be reused when the rest of a body is small; destroys it otherwise. */
function discard(body: Readable & { dump?: (options?: { limit: number }) => Promise<void> }): void {
  body.on('error', ignore);
  if (typeof body.dump === 'function') body.dump({ limit: 64 * 1024 }).catch(() => {});
  else body.destroy();
}

function ignore(): void {}

function looksLikeHtml(body: Buffer): boolean {
  const head = body.subarray(0, 512).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart().toLowerCase();
  return /^(<!doctype html|<html|<head|<body|<title|<!--|<p[\s>]|<div|<a\s|<meta|<h1)/.test(head);
}

function classifyError(error: unknown, timedOut: boolean): { error: FetchErrorKind; message: string; timeoutPhase?: TimeoutPhase } {
  const err = error as { code?: unknown; name?: string; message?: string; cause?: { code?: unknown } };
  const rawCode = err?.code ?? err?.cause?.code;
  // DOMException (AbortError) carries a numeric legacy code.
  const code = typeof rawCode === 'string' ? rawCode : '';
  const message = err?.message ?? String(error);
  if (timedOut) return { error: 'timeout', message: 'the whole fetch took too long', timeoutPhase: 'total' };
  switch (code) {
    case 'ELSE_PRIVATE_ADDRESS':
      return { error: 'private-address', message };
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return { error: 'timeout', message, timeoutPhase: 'connect' };
    case 'UND_ERR_HEADERS_TIMEOUT':
      return { error: 'timeout', message, timeoutPhase: 'headers' };
    case 'UND_ERR_BODY_TIMEOUT':
      return { error: 'timeout', message, timeoutPhase: 'body' };
    case 'ECONNREFUSED':
      return { error: 'refused', message };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
    case 'ENODATA':
    case 'ELSE_DNS_TIMEOUT':
      return { error: 'dns', message };
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return { error: 'reset', message };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return { error: 'unreachable', message };
    case 'ELSE_UNSUPPORTED_ENCODING':
      return { error: 'decode', message };
    case 'UND_ERR_ABORTED':
    case 'ABORT_ERR':
      return { error: 'aborted', message };
    default:
      break;
  }
  if (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR__ZLIB')) return { error: 'decode', message };
  if (/^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|ERR_OSSL)/.test(code)) return { error: 'tls', message };
  if (err?.name === 'AbortError') return { error: 'aborted', message };
  return { error: 'network', message: code ? `${code}: ${message}` : message };
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) throw new FetcherOptionError(`fetcher option ${name} must be a positive number, got ${value}`);
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) throw new FetcherOptionError(`fetcher option ${name} must be a positive integer, got ${value}`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!(Number.isInteger(value) && value >= 0)) throw new FetcherOptionError(`fetcher option ${name} must be a non-negative integer, got ${value}`);
  return value;
}
