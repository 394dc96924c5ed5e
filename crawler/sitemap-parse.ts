/**
 * Reading one sitemap (sitemaps.org protocol) as a stream: an XML `<urlset>` or `<sitemapindex>`,
 * or a text file of one URL per line, gzipped or not — gzip is told by its magic bytes, whatever
 * the Content-Type says. The protocol's limits hold per file: at most 50,000 URLs and 50 MB
 * uncompressed; what comes after is cut and reported. Nothing but the entries is kept, so a 50 MB
 * sitemap never sits in memory (htmlparser2 in XML mode parses chunk by chunk).
 *
 * Every byte is looked at a bounded number of times, whatever the file's shape (50 MB of white
 * space, one 50 MB line, a 50 MB `<loc>`): nothing is re-joined or re-split as chunks arrive, and
 * a URL or line longer than `SITEMAP_MAX_URL_CHARS` is dropped as it grows. The caller's signal
 * (a time budget) is checked between chunks.
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';

export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** Longest `<loc>` or text line kept: the protocol says URLs are under 2,048 characters. */
export const SITEMAP_MAX_URL_CHARS = 8192;
/** Deepest nesting of elements accepted (a sitemap needs 3, extensions such as images 5). */
export const SITEMAP_MAX_DEPTH = 32;

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
  /** Stops the reading (checked between chunks); the parse rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Parses a sitemap from its (content-decoded) bytes; throws `SitemapFormatError` for what is not one. */
export async function parseSitemap(source: AsyncIterable<Buffer>, limits: SitemapLimits = {}): Promise<SitemapParse> {
  const maxUrls = limits.maxUrls ?? SITEMAP_MAX_URLS;
  const maxBytes = limits.maxBytes ?? SITEMAP_MAX_BYTES;
  const start = new SignificantStart();
  let reader: SitemapReader | undefined;
  let size = 0;
  let truncated: SitemapParse['truncated'];
  for await (const chunk of uncompressed(source)) {
    limits.signal?.throwIfAborted();
    let piece = chunk;
    if (size + piece.length > maxBytes) {
      piece = piece.subarray(0, maxBytes - size);
      truncated = 'bytes';
    }
    size += piece.length;
    if (!reader) {
      const significant = start.skip(piece);
      if (significant) {
        reader = significant[0] === 0x3c ? new XmlSitemapReader(maxUrls) : new TextSitemapReader(maxUrls);
        piece = significant;
      }
    }
    reader?.write(piece);
    if (reader?.full) truncated = 'urls';
    if (truncated || reader?.failed) break;
  }
  limits.signal?.throwIfAborted();
  if (!reader) throw new SitemapFormatError('empty sitemap');
  return reader.end(truncated);
}

/**
 * Skips a leading UTF-8 byte order mark and white space, chunk by chunk, keeping at most the
 * two bytes of a byte order mark split across chunks: white space is dropped as it comes.
 */
class SignificantStart {
  /** Bytes of a possible byte order mark, while the stream's first three bytes are not all seen. */
  #head: Buffer | undefined = Buffer.alloc(0);

  /** The chunk from its first significant byte on, or undefined while there is none yet. */
  skip(chunk: Buffer): Buffer | undefined {
    let bytes = chunk;
    if (this.#head) {
      bytes = this.#head.length > 0 ? Buffer.concat([this.#head, chunk]) : chunk;
      if (bytes.length < BOM.length && BOM.subarray(0, bytes.length).equals(bytes)) {
        this.#head = bytes;
        return undefined;
      }
      this.#head = undefined;
      if (bytes.subarray(0, BOM.length).equals(BOM)) bytes = bytes.subarray(BOM.length);
    }
    let i = 0;
    while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
    return i < bytes.length ? bytes.subarray(i) : undefined;
  }
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

interface SitemapReader {
  readonly full: boolean;
  /** The file is refused already: the rest need not be read. */
  readonly failed: boolean;
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
  #entry: { loc: string; lastmod: string; overlong: boolean; alternates?: SitemapAlternate[] } | undefined;
  /** Where the last start tag ended (a close at the same place is a self-closing element's). */
  #openedAt = -1;
  #field: 'loc' | 'lastmod' | undefined;

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
        ontext: (text) => this.#text(text),
      },
      { xmlMode: true, decodeEntities: true },
    );
  }

  get full(): boolean {
    return this.#entries.length >= this.maxUrls;
  }

  get failed(): boolean {
    return this.#error !== undefined;
  }

  write(chunk: Buffer): void {
    if (this.#error === undefined) this.#parser.write(this.#decoder.decode(chunk, { stream: true }));
  }

  end(truncated: SitemapParse['truncated']): SitemapParse {
    if (!truncated && this.#error === undefined) {
      this.#parser.write(this.#decoder.decode());
      this.#parser.end();
    }
    if (this.#error !== undefined) throw new SitemapFormatError(this.#error);
    if (!this.#root) throw new SitemapFormatError('no <urlset> or <sitemapindex> element');
    return { kind: this.#root === 'urlset' ? 'urlset' : 'index', entries: this.#entries, truncated };
  }

  #open(name: string): void {
    if (this.#error !== undefined) return;
    // htmlparser2 keeps open elements in an array it shifts: deep nesting would cost quadratic time.
    if (this.#stack.length >= SITEMAP_MAX_DEPTH) return this.#fail(`elements nested deeper than ${SITEMAP_MAX_DEPTH}`);
    if (this.#stack.length === 0) {
      if (this.#root) return this.#fail(`a second root element <${name}> after </${this.#root}>`);
      if (name !== 'urlset' && name !== 'sitemapindex') return this.#fail(`the root element is <${name}>, not <urlset> or <sitemapindex>`);
      this.#root = name;
    } else if (this.#stack.length === 1 && (name === 'url' || name === 'sitemap')) {
      this.#entry = { loc: '', lastmod: '', overlong: false };
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
      if (loc !== '' && loc.length <= SITEMAP_MAX_URL_CHARS && !this.#entry.overlong && this.#entries.length < this.maxUrls) {
        const lastmod = parseLastmod(this.#entry.lastmod.trim());
        const entry: SitemapEntry = lastmod === undefined ? { loc } : { loc, lastmod };
        if (this.#entry.alternates) entry.alternates = this.#entry.alternates;
        this.#entries.push(entry);
      }
      this.#entry = undefined;
    }
  }

  /** Text of a `<loc>` or `<lastmod>`; one too long to be a URL marks its entry, which is dropped. */
  #text(text: string): void {
    const entry = this.#entry;
    const field = this.#field;
    if (!entry || !field || entry.overlong) return;
    if (entry[field].length + text.length > SITEMAP_MAX_URL_CHARS + 256) {
      entry.overlong = true;
      entry.loc = entry.lastmod = '';
    } else entry[field] += text;
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
    // Stops the tokenizer within its chunk: nothing after the fault matters.
    this.#parser.pause();
  }
}

class TextSitemapReader implements SitemapReader {
  readonly #entries: SitemapEntry[] = [];
  readonly #decoder = new TextDecoder('utf-8');
  /** The line read so far (not yet ended by a line feed), unless it grew too long to be a URL. */
  #partial = '';
  #overlong = false;

  constructor(private readonly maxUrls: number) {}

  get full(): boolean {
    return this.#entries.length >= this.maxUrls;
  }

  readonly failed = false;

  write(chunk: Buffer): void {
    const text = this.#decoder.decode(chunk, { stream: true });
    // Only the new text is searched for line ends: a line that spans chunks is not re-scanned.
    for (let from = 0; ; ) {
      const end = text.indexOf('\n', from);
      this.#append(end < 0 ? text.slice(from) : text.slice(from, end));
      if (end < 0) return;
      this.#endLine();
      from = end + 1;
    }
  }

  end(truncated: SitemapParse['truncated']): SitemapParse {
    if (!truncated) {
      this.#append(this.#decoder.decode());
      this.#endLine();
    }
    if (this.#entries.length === 0) throw new SitemapFormatError('not a sitemap: neither XML nor lines of http(s) URLs');
    return { kind: 'text', entries: this.#entries, truncated };
  }

  #append(text: string): void {
    if (this.#overlong || text.length === 0) return;
    if (this.#partial.length + text.length > SITEMAP_MAX_URL_CHARS + 2) {
      this.#overlong = true;
      this.#partial = '';
    } else this.#partial += text;
  }

  #endLine(): void {
    const line = this.#partial;
    const overlong = this.#overlong;
    this.#partial = '';
    this.#overlong = false;
    if (overlong) return;
    const url = ownString(line.trim());
    if (this.#entries.length < this.maxUrls && url.length <= SITEMAP_MAX_URL_CHARS && /^https?:\/\/\S+$/i.test(url)) this.#entries.push({ loc: url });
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

const MAX_ALTERNATES_PER_ENTRY = 200;

/** The translation a `<link>` element of a `<url>` entry names, when it is `rel=alternate` with an `hreflang`. */
export function sitemapAlternate(name: string, attributes: Record<string, string>): SitemapAlternate | undefined {
  if (name !== 'link') return undefined;
  const hreflang = attributes.hreflang?.trim().toLowerCase();
  const href = attributes.href?.trim();
  if (!hreflang || !href || !(attributes.rel ?? '').toLowerCase().split(/\s+/).includes('alternate')) return undefined;
  return { url: ownString(href), hreflang: ownString(hreflang) };
}
