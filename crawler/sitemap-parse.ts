/**
 * Reading one sitemap (sitemaps.org protocol) as a stream: an XML `<urlset>` or `<sitemapindex>`,
 * or a text file of one URL per line, gzipped or not — gzip is told by its magic bytes, whatever
 * the Content-Type says. The protocol's limits hold per file: at most 50,000 URLs and 50 MB
 * uncompressed; what comes after is cut and reported. Nothing but the entries is kept, so a 50 MB
 * sitemap never sits in memory (htmlparser2 in XML mode parses chunk by chunk).
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';

export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

export interface SitemapEntry {
  loc: string;
  /** `<lastmod>` in ms since the epoch, when given and readable. */
  lastmod?: number;
  /** `<xhtml:link rel="alternate" hreflang="de" href="…">`: the page's translations. */
  alternates?: SitemapAlternate[];
}

export interface SitemapAlternate {
  url: string;
  hreflang: string;
}

export interface SitemapParse {
  /** `urlset` and `text` list pages, `index` lists sitemaps. */
  kind: 'urlset' | 'index' | 'text';
  entries: SitemapEntry[];
  /** Why the file was cut (`urls`: more than the URL limit; `bytes`: larger than the size limit). */
  truncated?: 'urls' | 'bytes';
}

export class SitemapFormatError extends Error {
  readonly code = 'ELSE_SITEMAP_FORMAT';
  constructor(message: string) {
    super(message);
    this.name = 'SitemapFormatError';
  }
}

export interface SitemapLimits {
  maxUrls?: number;
  maxBytes?: number;
}

/** Parses a sitemap from its (content-decoded) bytes; throws `SitemapFormatError` for what is not one. */
export async function parseSitemap(source: AsyncIterable<Buffer>, limits: SitemapLimits = {}): Promise<SitemapParse> {
  const maxUrls = limits.maxUrls ?? SITEMAP_MAX_URLS;
  const maxBytes = limits.maxBytes ?? SITEMAP_MAX_BYTES;
  let reader: SitemapReader | undefined;
  /** Bytes before the first one that tells XML from text (a byte order mark, white space). */
  let lead = Buffer.alloc(0);
  let size = 0;
  let truncated: SitemapParse['truncated'];
  for await (const chunk of uncompressed(source)) {
    let piece = chunk;
    if (size + piece.length > maxBytes) {
      piece = piece.subarray(0, maxBytes - size);
      truncated = 'bytes';
    }
    size += piece.length;
    if (!reader) {
      lead = Buffer.concat([lead, piece]);
      const first = firstSignificantByte(lead);
      if (first !== undefined) {
        reader = first === 0x3c ? new XmlSitemapReader(maxUrls) : new TextSitemapReader(maxUrls);
        piece = lead;
      }
    }
    reader?.write(piece);
    if (reader?.full) truncated = 'urls';
    if (truncated) break;
  }
  if (!reader) throw new SitemapFormatError('empty sitemap');
  return reader.end(truncated);
}

interface SitemapReader {
  readonly full: boolean;
  write(chunk: Buffer): void;
  end(truncated: SitemapParse['truncated']): SitemapParse;
}

/** The bytes after gunzip when they start with the gzip magic bytes, else as they are. */
async function* uncompressed(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done) break;
    head = Buffer.concat([head, next.value]);
  }
  const rest = async function* () {
    yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  };
  if (!(head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b)) {
    yield* rest();
    return;
  }
  const gunzip = Readable.from(rest()).pipe(zlib.createGunzip());
  try {
    yield* gunzip as AsyncIterable<Buffer>;
  } catch (error) {
    throw new SitemapFormatError(`bad gzip data: ${(error as Error).message}`);
  } finally {
    gunzip.destroy();
  }
}

/** The first byte after a UTF-8 byte order mark and white space, if any yet. */
function firstSignificantByte(lead: Buffer): number | undefined {
  let i = lead[0] === 0xef && lead[1] === 0xbb && lead[2] === 0xbf ? 3 : 0;
  if (lead.length < 3 && (lead[0] === 0xef || lead.length === 0)) return undefined;
  while (i < lead.length && (lead[i] === 0x20 || lead[i] === 0x09 || lead[i] === 0x0a || lead[i] === 0x0d)) i++;
  return i < lead.length ? lead[i] : undefined;
}

/** A tag name without its namespace prefix, lower case. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return (colon >= 0 ? name.slice(colon + 1) : name).toLowerCase();
}

class XmlSitemapReader implements SitemapReader {
  readonly #entries: SitemapEntry[] = [];
  readonly #parser: Parser;
  readonly #decoder = new TextDecoder('utf-8');
  readonly #stack: string[] = [];
  #root: 'urlset' | 'sitemapindex' | undefined;
  #error: string | undefined;
  #entry: { loc: string; lastmod: string; alternates?: SitemapAlternate[] } | undefined;
  #field: 'loc' | 'lastmod' | undefined;
  /** Where the last start tag ended (a close at the same place is a self-closing element's). */
  #openedAt = -1;

  constructor(private readonly maxUrls: number) {
    this.#parser = new Parser(
      {
        onopentag: (name, attributes) => {
          this.#openedAt = this.#parser.endIndex;
          this.#open(localName(name));
          if (this.#entry && this.#stack.length === 3) this.#alternate(localName(name), attributes);
        },
        // A self-closing element (`<xhtml:link … />`) is closed "implied" at the end of its own tag.
        onclosetag: (name, isImplied) => this.#close(localName(name), isImplied && this.#parser.endIndex !== this.#openedAt),
        ontext: (text) => {
          if (this.#entry && this.#field) this.#entry[this.#field] += text;
        },
      },
      { xmlMode: true, decodeEntities: true },
    );
  }

  get full(): boolean {
    return this.#entries.length >= this.maxUrls;
  }

  write(chunk: Buffer): void {
    if (this.#error === undefined) this.#parser.write(this.#decoder.decode(chunk, { stream: true }));
  }

  end(truncated: SitemapParse['truncated']): SitemapParse {
    if (!truncated) {
      this.#parser.write(this.#decoder.decode());
      this.#parser.end();
    }
    if (this.#error !== undefined) throw new SitemapFormatError(this.#error);
    if (!this.#root) throw new SitemapFormatError('no <urlset> or <sitemapindex> element');
    return { kind: this.#root === 'urlset' ? 'urlset' : 'index', entries: this.#entries, truncated };
  }

  #open(name: string): void {
    if (this.#error !== undefined) return;
    if (this.#stack.length === 0) {
      if (this.#root) return this.#fail(`a second root element <${name}> after </${this.#root}>`);
      if (name !== 'urlset' && name !== 'sitemapindex') return this.#fail(`the root element is <${name}>, not <urlset> or <sitemapindex>`);
      this.#root = name;
    } else if (this.#stack.length === 1 && (name === 'url' || name === 'sitemap')) {
      this.#entry = { loc: '', lastmod: '' };
    } else if (this.#stack.length === 2 && this.#entry && (name === 'loc' || name === 'lastmod')) {
      this.#field = name;
    }
    this.#stack.push(name);
  }

  #close(name: string, isImplied: boolean): void {
    if (this.#error !== undefined) return;
    const top = this.#stack.pop();
    if (isImplied) return this.#fail(`<${name}> is never closed`);
    if (top !== name) return this.#fail(`</${name}> does not close <${top ?? 'nothing'}>`);
    if (this.#stack.length === 2) this.#field = undefined;
    else if (this.#stack.length === 1 && this.#entry) {
      // A copy: the parser's text is a slice of its chunk, which would otherwise stay alive with it.
      const loc = ownString(this.#entry.loc.trim());
      if (loc !== '' && this.#entries.length < this.maxUrls) {
        const lastmod = parseLastmod(this.#entry.lastmod.trim());
        const entry: SitemapEntry = lastmod === undefined ? { loc } : { loc, lastmod };
        if (this.#entry.alternates) entry.alternates = this.#entry.alternates;
        this.#entries.push(entry);
      }
      this.#entry = undefined;
    }
  }

  /** An `<xhtml:link rel=alternate hreflang href>` in a `<url>` entry (sitemaps' way to name translations). */
  #alternate(name: string, attributes: Record<string, string>): void {
    const alternate = sitemapAlternate(name, attributes);
    if (!alternate || !this.#entry) return;
    const list = (this.#entry.alternates ??= []);
    if (list.length < MAX_ALTERNATES_PER_ENTRY) list.push(alternate);
  }

  #fail(message: string): void {
    this.#error ??= message;
  }
}

const MAX_ALTERNATES_PER_ENTRY = 200;

/** The translation a `<link>` element of a `<url>` entry names, when it is `rel=alternate` with an `hreflang`. */
export function sitemapAlternate(name: string, attributes: Record<string, string>): SitemapAlternate | undefined {
  if (name !== 'link') return undefined;
  const hreflang = attributes.hreflang?.trim().toLowerCase();
  const href = attributes.href?.trim();
  if (!hreflang || !href || !(attributes.rel ?? '').toLowerCase().split(/\s+/).includes('alternate')) return undefined;
  return { url: ownString(href), hreflang: ownString(hreflang) };
}

class TextSitemapReader implements SitemapReader {
  readonly #entries: SitemapEntry[] = [];
  readonly #decoder = new TextDecoder('utf-8');
  #partial = '';

  constructor(private readonly maxUrls: number) {}

  get full(): boolean {
    return this.#entries.length >= this.maxUrls;
  }

  write(chunk: Buffer): void {
    const lines = (this.#partial + this.#decoder.decode(chunk, { stream: true })).split(/\r?\n/);
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#line(line);
  }

  end(truncated: SitemapParse['truncated']): SitemapParse {
    if (!truncated) this.#line(this.#partial + this.#decoder.decode());
    if (this.#entries.length === 0) throw new SitemapFormatError('not a sitemap: neither XML nor lines of http(s) URLs');
    return { kind: 'text', entries: this.#entries, truncated };
  }

  #line(line: string): void {
    const url = ownString(line.trim());
    if (this.#entries.length < this.maxUrls && /^https?:\/\/\S+$/i.test(url)) this.#entries.push({ loc: url });
  }
}

/** A string of its own, not a slice keeping a large parent string alive. */
function ownString(text: string): string {
  return text.length === 0 ? text : Buffer.from(text, 'utf8').toString('utf8');
}

/** W3C Datetime (`2024`, `2024-05`, `2024-05-17`, with a time and zone): ms since the epoch. */
export function parseLastmod(value: string): number | undefined {
  if (!/^\d{4}(-\d{2}(-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/.test(value)) return undefined;
  const time = Date.parse(value.length === 4 ? `${value}-01-01` : value.length === 7 ? `${value}-01` : value);
  return Number.isFinite(time) ? time : undefined;
}
