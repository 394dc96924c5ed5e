/**
 * Fetching one page for the crawl: robots.txt, the one fetcher with every redirect hop
 * re-checked (URL rules, robots, and the caller's scope), and one parse. Returns what happened
 * as a value; writing it to the store is the recorder's job.
 */
import { fingerprintHex, normalizedFingerprint, normalizeText } from './duplicates.ts';
import { DocumentError, documentTypeOf, type DocumentType, type TextSection } from './documents/types.ts';
import type { DocumentPool } from './documents/worker-pool.ts';
import type { Fetcher, FetchResponse, FetchResult, RedirectHop } from './fetcher.ts';
import { RenderError, type PageRenderer } from './render/renderer.ts';
import { parseHtml, type PageAlternate, type ParsedPage } from './html.ts';
import type { RobotsPolicy } from './robots.ts';
import { normalizeUrl, type UrlRejection, type UrlRules } from './url.ts';

export type PageOutcome =
  | {
      kind: 'page';
      /** The URL asked for and the URL whose content this is (after redirects). */
      url: string;
      finalUrl: string;
      redirects: readonly RedirectHop[];
      status: number;
      contentType: string;
      page: ParsedPage;
      noindex: boolean;
      nofollow: boolean;
      etag?: string;
      lastModified?: string;
      /** The `Content-Language` header (one of the page's language signals). */
      contentLanguage?: string;
      truncated: boolean;
      /** Fingerprint of the normalised text: exact duplicates and change detection. */
      fingerprint: string;
      /** Title and text as {@link pageWords} gives them: what the fingerprint and the near-duplicate sketch read. */
      normalizedText: string;
      /** A document's type (absent for HTML); where its pages start is in `page.content.sections`. */
      type?: DocumentType;
    }
  | { kind: 'not-modified'; url: string; status: 304 }
  | { kind: 'not-html'; url: string; finalUrl: string; redirects: readonly RedirectHop[]; status: number; contentType: string }
  | { kind: 'http-error'; url: string; finalUrl: string; redirects: readonly RedirectHop[]; status: number }
  /** 429 / 503: the host asks us to come back later. */
  | { kind: 'retry-later'; url: string; status: number; retryAfterMs: number | null }
  | { kind: 'disallowed'; url: string; reason: 'robots' | 'robots-unreachable' }
  /** A redirect we do not follow (out of scope, disallowed, or a refused URL): recorded as a link. */
  | { kind: 'redirect'; url: string; redirects: readonly RedirectHop[]; status: number; to: string | null; reason: string }
  | { kind: 'failed'; url: string; redirects: readonly RedirectHop[]; error: string; message: string };

export interface PageFetchOptions {
  /** Stored validators for a conditional GET. */
  etag?: string | null;
  lastModified?: string | null;
  /**
   * May a redirect lead to this (normalised) URL? `true`, or the reason not to (the local crawl
   * keeps to its scope and does not fetch a stored page again); the hop is then recorded as a link.
   */
  mayFollow?: (url: string) => true | string;
  /**
   * Called once the body of an HTML page has been read, before it is parsed; awaited. The request
   * is over at this point, so the crawl loop frees the host's politeness slot here and lets the
   * next request to the host go out while this page is parsed and stored.
   */
  onDownloaded?: () => void | Promise<void>;
  /** Where a rendered page's own requests may go (the crawl's scope); without it nothing is rendered. */
  inScope?: (url: string) => boolean;
  signal?: AbortSignal;
}

export interface PageFetcherDeps {
  fetcher: Fetcher;
  robots: RobotsPolicy;
  urlRules: UrlRules;
  /** Our product token for `<meta name=…>` and X-Robots-Tag lines addressed to us. */
  robotsAgent: string;
  /** Reading PDF and office documents (absent: they are recorded as not-html). */
  documents?: DocumentReader;
  /** Rendering pages built by scripts (absent: off). */
  rendering?: Rendering;
}

export interface Rendering {
  renderer: PageRenderer;
  /** Render this page (a URL pattern the admin names, or too little static text)? */
  wants: (url: string, page: ParsedPage) => boolean;
}

export interface DocumentReader {
  pool: DocumentPool;
  /** Largest body kept per document type. */
  maxBytes: Readonly<Record<DocumentType, number>>;
}

/**
 * X-Robots-Tag: `noindex, nofollow`, `none`, or lines addressed to a bot (`otherbot: noindex`),
 * which apply only when they name us.
 */
export function xRobotsDirectives(header: string | undefined, agent: string): { noindex: boolean; nofollow: boolean } {
  const result = { noindex: false, nofollow: false };
  if (!header) return result;
  for (const part of header.split(/\n|,(?=\s*[A-Za-z_-]+\s*:)/)) {
    let text = part.trim().toLowerCase();
    const named = /^([a-z_-]+)\s*:\s*(.*)$/.exec(text);
    if (named && !['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview'].includes(named[1])) {
      if (named[1] !== agent.toLowerCase()) continue;
      text = named[2];
    }
    const directives = text.split(',').map((d) => d.trim());
    if (directives.includes('noindex') || directives.includes('none')) result.noindex = true;
    if (directives.includes('nofollow') || directives.includes('none')) result.nofollow = true;
  }
  return result;
}

export class PageFetcher {
  constructor(private readonly deps: PageFetcherDeps) {}

  async fetchPage(url: string, options: PageFetchOptions = {}): Promise<PageOutcome> {
    const { fetcher, robots, urlRules, documents } = this.deps;
    const decision = await robots.check(url);
    if (!decision.allowed) return { kind: 'disallowed', url, reason: decision.reason === 'unreachable' ? 'robots-unreachable' : 'robots' };

    let refused: { to: string | null; reason: string; status: number } | undefined;
    const result: FetchResult = await fetcher.fetch(url, {
      accept: 'html',
      etag: options.etag,
      lastModified: options.lastModified,
      signal: options.signal,
      documentBytes: documents ? (mediaType, target) => maxBytesOf(documents, mediaType, target) : undefined,
      onRedirect: async (hop) => {
        const target = normalizeUrl(hop.to, urlRules);
        if (!target.ok) {
          refused = { to: null, reason: `url-${target.reason satisfies UrlRejection}`, status: hop.status };
          return { follow: false, reason: refused.reason };
        }
        const verdict = options.mayFollow ? options.mayFollow(target.url) : true;
        if (verdict !== true) {
          refused = { to: target.url, reason: verdict, status: hop.status };
          return { follow: false, reason: refused.reason };
        }
        const allowed = await robots.check(target.url);
        if (!allowed.allowed) {
          refused = { to: target.url, reason: 'robots', status: hop.status };
          return { follow: false, reason: refused.reason };
        }
        return { follow: true, url: target.url };
      },
    });

    if (!result.ok) {
      if (result.error === 'redirect-refused' && refused) {
        return { kind: 'redirect', url, redirects: result.redirects, status: refused.status, to: refused.to, reason: refused.reason };
      }
      return { kind: 'failed', url, redirects: result.redirects, error: result.error, message: result.message };
    }
    if (result.notModified) return { kind: 'not-modified', url, status: 304 };
    if (result.status === 429 || result.status === 503) return { kind: 'retry-later', url, status: result.status, retryAfterMs: result.retryAfterMs };
    if (result.status >= 400) return { kind: 'http-error', url, finalUrl: result.finalUrl, redirects: result.redirects, status: result.status };
    const contentType = result.mediaType;
    const documentType = documents && result.body ? documentTypeOf(contentType, result.finalUrl) : undefined;
    if (documentType && result.body) {
      await options.onDownloaded?.();
      return this.readDocument(documents!, documentType, result, url);
    }
    if (!result.isHtml || result.text === null) return { kind: 'not-html', url, finalUrl: result.finalUrl, redirects: result.redirects, status: result.status, contentType };

    await options.onDownloaded?.();
    const page = parseHtml(result.text, result.finalUrl, { robotsName: this.deps.robotsAgent });
    return this.pageOutcome(url, result, await this.rendered(result.finalUrl, result.text, page, options));
  }

  /** The page as rendered, when rendering is wanted and gives more text; else the static parse. */
  private async rendered(url: string, html: string, page: ParsedPage, options: PageFetchOptions): Promise<ParsedPage> {
    const { rendering, robots, urlRules } = this.deps;
    const inScope = options.inScope;
    if (!rendering || !inScope || !rendering.wants(url, page)) return page;
    const mayLoad = async (target: string) => {
      const check = normalizeUrl(target, urlRules);
      return check.ok && inScope(check.url) && (await robots.check(check.url)).allowed;
    };
    try {
      const dom = await rendering.renderer.render(url, html, mayLoad, options.signal);
      const after = parseHtml(dom, url, { robotsName: this.deps.robotsAgent });
      return after.text.length > page.text.length ? after : page;
    } catch (error) {
      if (error instanceof RenderError) return page;
      throw error;
    }
  }

  /** The outcome of a parsed page or document: robots directives of page and header, fingerprint. */
  private pageOutcome(url: string, result: FetchResponse, page: ParsedPage, document?: { type: DocumentType }): PageOutcome {
    const header = xRobotsDirectives(result.headers.xRobotsTag, this.deps.robotsAgent);
    // Normalised once: the fingerprint and the near-duplicate sketch both read it. The main content,
    // as stored: a changed menu or footer is not a changed page, and a restarted crawl sketches stored text alike.
    const normalizedText = pageWords(page.title, page.content.text);
    const linked = linkHeaderAlternates(result.headers.link, result.finalUrl);
    if (linked.length > 0) page = { ...page, alternates: [...page.alternates, ...linked] };
    return {
      kind: 'page',
      url,
      finalUrl: result.finalUrl,
      redirects: result.redirects,
      status: result.status,
      contentType: result.mediaType,
      page,
      noindex: page.robots.noindex || header.noindex,
      nofollow: page.robots.nofollow || header.nofollow,
      etag: result.headers.etag,
      lastModified: result.headers.lastModified,
      contentLanguage: result.headers.contentLanguage,
      truncated: result.truncated,
      fingerprint: fingerprintHex(normalizedFingerprint(normalizedText)),
      normalizedText,
      ...(document ? { type: document.type } : {}),
    };
  }

  /** A document body parsed in the worker pool: a page with its type, or a failure saying why. */
  private async readDocument(documents: DocumentReader, type: DocumentType, result: FetchResponse, url: string): Promise<PageOutcome> {
    let extracted;
    try {
      extracted = await documents.pool.extract(type, result.body!, result.finalUrl);
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      return { kind: 'failed', url, redirects: result.redirects, error: 'document', message: `${type}: ${error.message}` };
    }
    return this.pageOutcome(url, result, extracted.page, extracted);
  }
}

/** The byte limit for a body of this media type and URL when it is a document, else undefined. */
function maxBytesOf(documents: DocumentReader, mediaType: string, url: string): number | undefined {
  const type = documentTypeOf(mediaType, url);
  return type ? documents.maxBytes[type] : undefined;
}

/** The normalised words of a page's title and text (what its fingerprint and sketch are made of). */
export function pageWords(title: string, text: string): string {
  return normalizeText(`${title}\n${text}`);
}

/**
 * Translations an HTTP `Link` header names (RFC 8288: `<https://x/de/>; rel="alternate";
 * hreflang="de", <…>; rel=alternate; hreflang=fr`), resolved against the page's URL. The way
 * to name the translations of a PDF, and some sites name those of their pages so.
 */
export function linkHeaderAlternates(header: string | undefined, pageUrl: string): PageAlternate[] {
  if (!header) return [];
  const alternates: PageAlternate[] = [];
  // One link value: `<target>` and its parameters, up to the next `, <`.
  for (const match of header.slice(0, 20_000).matchAll(/<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"[^"]*"|[^;,]*))?)*)/g)) {
    const params = new Map<string, string>();
    for (const param of match[2].matchAll(/;\s*([^;,=\s]+)\s*(?:=\s*(?:"([^"]*)"|([^;,]*)))?/g)) {
      const name = param[1].toLowerCase();
      if (!params.has(name)) params.set(name, (param[2] ?? param[3] ?? '').trim());
    }
    const hreflang = params.get('hreflang')?.toLowerCase();
    if (!hreflang || !(params.get('rel') ?? '').toLowerCase().split(/\s+/).includes('alternate')) continue;
    try {
      const url = new URL(match[1].trim(), pageUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      url.hash = '';
      alternates.push({ url: url.href, hreflang });
    } catch {
      continue;
    }
    if (alternates.length >= 200) break;
  }
  return alternates;
}
