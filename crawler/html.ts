/**
 * Parses a fetched page once into everything the crawler, the indexer and the link graph need, in
 * one streaming pass: htmlparser2's tokenizer (the tokens of the HTML standard: raw text in
 * script/style/title/textarea, entities decoded) and a small tree builder of our own that keeps
 * only a stack of open element names. No DOM is built: text, headings, links with their anchor
 * text, `<base>`, canonical, meta robots/description/language are collected as the tokens go by.
 *
 * The builder follows the parts of the HTML standard's tree construction that decide what a
 * reader sees (checked against parse5, test/helpers/html-dom-reference.ts):
 *   - the head: until the body starts (a `<body>` tag, a non-head element, or non-blank text),
 *     only title/meta/link/base/script/style/… are open, and nothing there is page text;
 *   - implied end tags: a block start tag closes an open `<p>`, `<li>` closes `<li>`, `<dd>`/`<dt>`,
 *     table cells and rows, `<option>`, headings, and a new `<a>` closes the open one;
 *   - end tags close what they match within the element's scope (a `</div>` closes the spans
 *     left open inside it; an unmatched `</span>` stops at a block and is ignored);
 *   - noscript, iframe, noembed and noframes are raw text (parse5 with scripting on): neither
 *     their text nor the links inside them count;
 *   - self-closing tags count only inside svg and math.
 * Differences from a DOM builder that a crawler does not need: no foster parenting of stray table
 * content (text order only), no reconstruction of formatting elements across blocks (spaces
 * only). Pure: no I/O, no URL rules — links are resolved to absolute URLs (fragment dropped) and
 * the crawl loop decides which to keep. Iterative throughout: hostile pages nest deeper than
 * the JS stack, and an end tag looks at most {@link MAX_END_TAG_SEARCH} open elements down.
 */
import { QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { isTrailContainer, MarkupTrailReader, resolveTrail, trailFromJsonLd, MAX_JSON_LD_CHARS, type Crumb, type RawCrumb } from './breadcrumb.ts';
import { DefinitionReader } from './definitions.ts';
import { mainContent, type ContentRegion, type HeadingMark, type MainContent } from './main-content.ts';
import { linkResolver, resolveLink } from './url.ts';

export interface ParsedLink {
  /** The href as written. */
  readonly href: string;
  /** Absolute http(s) URL without fragment, resolved against `<base href>` or the page; null otherwise. */
  readonly url: string | null;
  /** Visible anchor text (the alt text of images inside when the anchor has no text). */
  readonly text: string;
  /** rel tokens, lower-cased. */
  readonly rel: readonly string[];
  /** rel contains `nofollow`. (`ugc` and `sponsored` are kept in `rel` for the caller to weigh.) */
  readonly nofollow: boolean;
}

export interface MetaRobots {
  readonly noindex: boolean;
  readonly nofollow: boolean;
  /** Every directive seen, lower-cased (`noarchive`, `nosnippet`, …). */
  readonly directives: readonly string[];
}

export interface Heading {
  readonly level: 1 | 2 | 3;
  readonly text: string;
}

export interface ParsedPage {
  readonly title: string;
  readonly headings: readonly Heading[];
  /** Visible body text, whitespace collapsed; blocks separated by a space. */
  readonly text: string;
  readonly links: readonly ParsedLink[];
  /** `<base href>` resolved against the page URL, or null. */
  readonly baseHref: string | null;
  /** `<link rel=canonical>` resolved, or null. */
  readonly canonical: string | null;
  readonly robots: MetaRobots;
  readonly description: string | null;
  /** `<html lang>`, else `<meta http-equiv=content-language>`, lower-cased; null when absent. */
  readonly language: string | null;
  /** `rel=alternate hreflang` on a `<link>` or an `<a>`: the page's translations (and itself), hreflang lower-cased. */
  readonly alternates: readonly PageAlternate[];
  /** The main content: text without boilerplate, its headings, and sections (main-content.ts). */
  readonly content: MainContent;
  /** The page's breadcrumb trail, home first (breadcrumb.ts); empty when it has none. */
  readonly breadcrumb: readonly Crumb[];
  /** Links past `maxLinks` that were left out (absent when none were). */
  readonly linksDropped?: number;
}

export interface PageAlternate {
  readonly url: string;
  readonly hreflang: string;
}

export interface ParseHtmlOptions {
  /** Our product token: `<meta name="lse-bot">` counts like `<meta name="robots">`. */
  readonly robotsName?: string;
  /** Links kept per page, the first in document order (default {@link DEFAULT_MAX_LINKS}). */
  readonly maxLinks?: number;
}

/** Links kept per page: Heritrix keeps 6,000, Nutch 100; one page's million links must not flood a crawl. */
export const DEFAULT_MAX_LINKS = 5000;

/** A page lists its translations; more than this is not a list of translations. */
const MAX_ALTERNATES = 200;

/** How far down the stack of open elements an end tag looks for its element. */
export const MAX_END_TAG_SEARCH = 512;

export function parseHtml(html: string, pageUrl: string, options: ParseHtmlOptions = {}): ParsedPage {
  const builder = new PageBuilder(html, options.robotsName?.toLowerCase(), options.maxLinks ?? DEFAULT_MAX_LINKS);
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, builder);
  tokenizer.write(html);
  tokenizer.end();
  return builder.result(pageUrl);
}

// ---------------------------------------------------------------- element table

const BLOCK = 1; // breaks a line when rendered: its text must not run into the neighbours'
const INVISIBLE = 2; // its content is never seen as text
const VOID = 4; // no content, no end tag
const RAW = 8; // raw text for parse5 with scripting on: tags inside are not elements
const HEADING = 16;
const CLOSES_P = 32; // its start tag closes a `<p>` in button scope
const SPECIAL = 64; // "special" in the HTML standard: an unmatched end tag stops here
const SCOPE = 128; // bounds the default scope
const FOREIGN = 256; // svg, math: self-closing tags count
const IN_HEAD = 512; // may stay in the head
const FORMATTING = 1024;
const LIST = 2048; // ol, ul: bound the list-item scope
const TABLE = 4096; // html, table, template: bound the table scope
const TABLE_PART = 8192; // caption, colgroup, tbody, thead, tfoot, tr, td, th: end tags use the table scope
const BREAKS_OUT = 16384; // an HTML element that ends foreign content
/** Set on a stack entry whose element hides its content (invisible or hidden by its attributes). */
const HIDES = 1 << 20;
/** Set on a stack entry inside svg or math. */
const IN_FOREIGN = 1 << 21;

const TAGS = new Map<string, number>();
function tags(flags: number, names: string): void {
  for (const name of names.split(' ')) TAGS.set(name, (TAGS.get(name) ?? 0) | flags);
}
// Navigation menus and breadcrumbs repeat on every page: their links are kept, their text is not page content.
tags(INVISIBLE, 'script style noscript template head title iframe object embed svg canvas select textarea nav noembed noframes');
tags(
  BLOCK,
  'address article aside blockquote br caption dd details dialog div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 ' +
    'header hr li main nav ol p pre section summary table tbody td tfoot th thead tr ul option img input button label legend menu',
);
tags(VOID, 'area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr');
tags(RAW, 'noscript iframe noembed noframes');
tags(HEADING, 'h1 h2 h3 h4 h5 h6');
tags(
  CLOSES_P,
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup main menu nav ol p ' +
    'search section summary ul h1 h2 h3 h4 h5 h6 pre listing form li dd dt plaintext table hr xmp',
);
tags(
  SPECIAL,
  'address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div dl dt ' +
    'embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li ' +
    'link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section select source ' +
    'style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp mi mo mn ms mtext annotation-xml foreignobject desc',
);
tags(SCOPE, 'applet caption html table td th marquee object template mi mo mn ms mtext annotation-xml foreignobject desc');
tags(FOREIGN, 'svg math');
tags(IN_HEAD, 'base basefont bgsound link meta title noscript noframes style script template');
tags(FORMATTING, 'a b big code em font i nobr s small strike strong tt u');
tags(LIST, 'ol ul');
tags(TABLE, 'html table template');
tags(TABLE_PART, 'caption colgroup tbody thead tfoot tr td th table');
tags(
  BREAKS_OUT,
  'b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta nobr ol p pre ruby s ' +
    'small span strong strike sub sup table tt u ul var',
);

// Attributes read; each tag reads only those it needs (so other values are never sliced out).
const A_HREF = 0;
const A_REL = 1;
const A_ALT = 2;
const A_HIDDEN = 3;
const A_STYLE = 4;
const A_TYPE = 5;
const A_NAME = 6;
const A_CONTENT = 7;
const A_HTTP_EQUIV = 8;
const A_LANG = 9;
const A_HREFLANG = 10;
const A_ID = 11;
const A_ROLE = 12;
const A_CLASS = 13;
const A_ARIA_LABEL = 14;
const A_ITEMTYPE = 15;
const A_TYPEOF = 16;
const ATTRIBUTE_COUNT = 17;
const TRAIL_ATTRIBUTES = (1 << A_ARIA_LABEL) | (1 << A_ITEMTYPE) | (1 << A_TYPEOF) | (1 << A_ID) | (1 << A_CLASS);
// id, role and class tell landmarks, cookie banners and section anchors (main-content.ts);
// aria-label, itemtype and typeof a breadcrumb trail (breadcrumb.ts).
const ANY_ELEMENT = (1 << A_HIDDEN) | (1 << A_STYLE) | (1 << A_ID) | (1 << A_ROLE) | (1 << A_CLASS) | (1 << A_ARIA_LABEL) | (1 << A_ITEMTYPE) | (1 << A_TYPEOF);
const ATTRIBUTES_OF = new Map<string, number>([
  ['a', ANY_ELEMENT | (1 << A_HREF) | (1 << A_REL) | (1 << A_NAME) | (1 << A_HREFLANG)],
  ['area', ANY_ELEMENT | (1 << A_HREF) | (1 << A_REL) | (1 << A_ALT)],
  ['img', ANY_ELEMENT | (1 << A_ALT)],
  ['base', ANY_ELEMENT | (1 << A_HREF)],
  ['link', ANY_ELEMENT | (1 << A_HREF) | (1 << A_REL) | (1 << A_HREFLANG)],
  ['meta', ANY_ELEMENT | (1 << A_NAME) | (1 << A_CONTENT) | (1 << A_HTTP_EQUIV)],
  ['html', ANY_ELEMENT | (1 << A_LANG)],
  ['input', ANY_ELEMENT | (1 << A_TYPE)],
  ['script', ANY_ELEMENT | (1 << A_TYPE)],
]);

/** svg and math elements whose content is HTML again. */
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:;|!|$)/i;
const NO_TOKENS: readonly string[] = Object.freeze([]);

/** Text gathered for one element (a heading, a link): what is visible inside it. */
interface Collector {
  /** Stack depth of its element. */
  readonly depth: number;
  /** Hiding elements open when it started: text counts while no more are. */
  readonly hiddenBase: number;
  /** The element itself is hidden: it collects nothing (links still take their images' alt text). */
  readonly dead: boolean;
  text: CollapsedText;
  /** Links: alt texts of the images inside. */
  alts: string[] | null;
}

interface PendingLink {
  href: string;
  rel: string | undefined;
  /** Area elements: their alt text stands in for the text. */
  areaAlt: string | undefined;
  collector: Collector | null;
}

interface PendingHeading {
  level: 1 | 2 | 3;
  collector: Collector;
  /** Offset in the visible text where it starts, and its anchor. */
  start: number;
  anchor: string | undefined;
}

/** What an open element means for the main content (main-content.ts); null for most elements. */
interface RegionFrame {
  kind: ContentRegion['kind'] | 'block';
  start: number;
  links: number;
  linkChars: number;
  id: string | undefined;
  /** Its id or class names site chrome (a hint, weighed against its text when it closes). */
  chromeName?: boolean;
  /** Headings inside it: a block of links with headings is a section of content (an index, signatures), not a menu. */
  headings?: number;
}

const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
/** Class or id names of site chrome: navigation bars, menus, breadcrumbs, sidebars, footers, cookie banners. */
const BANNER_NAMES = /\b(?:nav\w*|menu\w*|breadcrumbs?|sidebar\w*|site-?(?:header|footer)|footer\w*|cookie\w*|consent\w*|gdpr\w*|skip-?links?)\b/i;
/** Blocks whose link density is measured: menus and sidebars are lists, tables or divs of links. */
const DENSITY_BLOCKS = new Set(['div', 'ul', 'ol', 'table', 'section', 'td', 'dl', 'p']);
/**
 * A block with at least this many links and this share of its text in links is a menu, a table of
 * contents or a sidebar (a long chapter that links a lot is not: its share stays low).
 */
const LINK_LIST_MIN_LINKS = 10;
const LINK_LIST_MIN_SHARE = 0.5;
/**
 * A block named like chrome (`menu`, `footer`, `sidebar`…) is chrome when it is made of links, or
 * short and without headings; prose or a headed section under such a name is content (a docs
 * section `id="menus"`, Django's setting `csrf-cookie-name`).
 */
const CHROME_NAME_MAX_PROSE = 400;
const CHROME_NAME_MIN_LINK_SHARE = 0.3;

class PageBuilder implements TokenizerCallbacks {
  // The stack of open elements (html, head and body are implied and not on it).
  readonly #names: string[] = [];
  readonly #flags: number[] = [];
  #hidden = 0; // hiding elements open
  #foreign = 0; // svg/math open
  #paragraphs = 0; // p open
  #anchors = 0; // a open
  #tables = 0; // table open
  #selects = 0; // select open: only options (and scripts) go inside
  #raw: string | null = null; // inside a raw-text element: only its end tag counts
  #bodyStarted = false;
  #bodyHidden = false;

  // The tag being read.
  #tagName = '';
  #tagFlags = 0;
  #tagWants = 0; // attributes it reads
  #attributeSeen = 0;
  readonly #attributes: Array<string | undefined> = new Array<string | undefined>(ATTRIBUTE_COUNT).fill(undefined);
  #attribute = -1; // the one being read, or -1
  #attributeValue = '';

  // What is collected.
  readonly #text = new CollapsedText();
  readonly #collectors: Collector[] = [];
  readonly #links: PendingLink[] = [];
  #linksDropped = 0;
  readonly #headings: PendingHeading[] = [];
  readonly #frames: Array<RegionFrame | null> = [];
  readonly #regions: ContentRegion[] = [];
  #openFrames = 0;
  #sectioning = 0; // main or article open: their headers and footers are content
  #title: CollapsedText | null = null;
  #titleDepth = -1;
  #base: string | undefined;
  #canonical: string | undefined;
  readonly #alternates: Array<{ href: string; hreflang: string }> = [];
  #lang: string | undefined;
  readonly #directives: string[] = [];
  #description: string | null = null;
  #contentLanguage: string | null = null;
  readonly #trail = new MarkupTrailReader();
  /** The JSON-LD script being read: its depth and text so far (null when too long). */
  #jsonLd: { depth: number; parts: string[] | null; chars: number } | null = null;
  #jsonLdTrail: RawCrumb[] | null = null;
  readonly #definitions = new DefinitionReader();

  constructor(
    private readonly html: string,
    private readonly robotsName: string | undefined,
    private readonly maxLinks: number,
  ) {}

  /** Whether one more link fits under the cap (a link past it is counted, not kept). */
  #keepLink(): boolean {
    if (this.#links.length < this.maxLinks) return true;
    this.#linksDropped++;
    return false;
  }

  result(pageUrl: string): ParsedPage {
    while (this.#names.length > 0) this.#pop();
    const baseHref = this.#base === undefined ? null : resolveLink(this.#base, pageUrl);
    const resolve = linkResolver(pageUrl, baseHref);
    const links: ParsedLink[] = new Array(this.#links.length);
    for (let i = 0; i < this.#links.length; i++) {
      const link = this.#links[i];
      const collector = link.collector;
      let text = collector === null ? '' : collector.text.toString();
      if (text === '' && collector !== null && collector.alts !== null) text = collapse(collector.alts.join(' '));
      if (text === '' && link.areaAlt !== undefined) text = collapse(link.areaAlt);
      const rel = link.rel === undefined ? NO_TOKENS : tokens(link.rel);
      links[i] = { href: link.href, url: httpUrl(resolve(link.href)), text, rel, nofollow: rel.length > 0 && rel.includes('nofollow') };
    }
    const headings: Heading[] = [];
    const marks: HeadingMark[] = [];
    for (const heading of this.#headings) {
      const text = heading.collector.text.toString();
      if (text === '') continue;
      headings.push({ level: heading.level, text });
      marks.push(heading.anchor === undefined ? { text, start: heading.start } : { text, start: heading.start, anchor: heading.anchor });
    }
    const fullText = this.#bodyHidden ? '' : this.#text.toString();
    const directives = this.#directives;
    const none = directives.includes('none');
    const lang = (this.#lang ?? '').trim().toLowerCase();
    return {
      title: this.#title === null ? '' : this.#title.toString(),
      headings,
      // A hidden body hides all of it, including text before a late `<body hidden>` tag.
      text: fullText,
      links,
      baseHref,
      canonical: this.#canonical === undefined ? null : httpUrl(resolve(this.#canonical)),
      robots: { noindex: none || directives.includes('noindex'), nofollow: none || directives.includes('nofollow'), directives },
      description: this.#description,
      language: lang !== '' ? lang : this.#contentLanguage,
      alternates: this.#alternateUrls(resolve),
      content: mainContent(fullText, this.#bodyHidden ? [] : this.#regions, this.#bodyHidden ? [] : marks, this.#bodyHidden ? [] : this.#definitions.definitions(marks[headings.findIndex((h) => h.level === 1)] ?? null)),
      breadcrumb: resolveTrail(this.#jsonLdTrail ?? this.#trail.trail ?? [], resolve),
      ...(this.#linksDropped > 0 ? { linksDropped: this.#linksDropped } : {}),
    };
  }

  #alternateUrls(resolve: (href: string) => string | null): PageAlternate[] {
    const alternates: PageAlternate[] = [];
    for (const { href, hreflang } of this.#alternates) {
      const url = httpUrl(resolve(href.trim()));
      if (url !== null) alternates.push({ url, hreflang });
    }
    return alternates;
  }

  // ---- tokenizer callbacks

  ontext(start: number, end: number): void {
    this.#addText(this.html.slice(start, end));
  }

  ontextentity(codepoint: number): void {
    this.#addText(String.fromCodePoint(codepoint));
  }

  onopentagname(start: number, end: number): void {
    const name = lowerName(this.html, start, end);
    this.#tagName = name;
    this.#tagFlags = TAGS.get(name) ?? 0;
    this.#tagWants = this.#raw === null ? (ATTRIBUTES_OF.get(name) ?? ANY_ELEMENT) : 0;
    this.#attributeSeen = 0;
    this.#attribute = -1;
  }

  onattribname(start: number, end: number): void {
    const id = attributeId(this.html, start, end);
    this.#attribute = id >= 0 && (this.#tagWants & (1 << id)) !== 0 && (this.#attributeSeen & (1 << id)) === 0 ? id : -1;
    this.#attributeValue = '';
  }

  onattribdata(start: number, end: number): void {
    if (this.#attribute >= 0) this.#attributeValue += this.html.slice(start, end);
  }

  onattribentity(codepoint: number): void {
    if (this.#attribute >= 0) this.#attributeValue += String.fromCodePoint(codepoint);
  }

  onattribend(_quote: QuoteType): void {
    const id = this.#attribute;
    if (id < 0) return;
    // The first of duplicate attributes wins, as in browsers.
    this.#attributeSeen |= 1 << id;
    this.#attributes[id] = this.#attributeValue;
    this.#attribute = -1;
    this.#attributeValue = '';
  }

  onopentagend(): void {
    this.#openTag(false);
  }

  onselfclosingtag(): void {
    this.#openTag(true);
  }

  onclosetag(start: number, end: number): void {
    this.#closeTag(lowerName(this.html, start, end));
  }

  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
  onend(): void {}

  // ---- tree building

  #attr(id: number): string | undefined {
    return (this.#attributeSeen & (1 << id)) !== 0 ? this.#attributes[id] : undefined;
  }

  #openTag(selfClosing: boolean): void {
    if (this.#raw !== null) return;
    const name = this.#tagName;
    let flags = this.#tagFlags;
    // Inside svg or math, elements are foreign (self-closing counts) until an HTML one breaks out.
    if (this.#foreign > 0) {
      const top = this.#flags.length - 1;
      if (top >= 0 && (this.#flags[top] & IN_FOREIGN) !== 0 && (this.#flags[top] & SCOPE) === 0) {
        if ((flags & BREAKS_OUT) !== 0) {
          while (this.#flags.length > 0 && (this.#flags[this.#flags.length - 1] & IN_FOREIGN) !== 0) this.#pop();
        } else {
          // A foreign element: only the name-based text rules apply; integration points hold HTML again.
          flags = (flags & (INVISIBLE | BLOCK | FOREIGN)) | (INTEGRATION.has(name) ? SCOPE : 0) | IN_FOREIGN;
        }
      }
    }
    if (name === 'html') {
      this.#lang ??= this.#attr(A_LANG);
      return;
    }
    if (name === 'head') return;
    if (name === 'body') {
      this.#bodyStarted = true;
      if (this.#isHidden(name)) this.#bodyHidden = true;
      return;
    }
    if (!this.#bodyStarted && (flags & IN_HEAD) === 0) this.#bodyStarted = true;
    if ((flags & FOREIGN) !== 0) flags |= IN_FOREIGN;
    if (this.#selects > 0 && (flags & IN_FOREIGN) === 0 && !this.#inSelect(name)) return;
    if ((flags & TABLE_PART) !== 0 && name !== 'table' && this.#tables === 0) return; // cells and rows outside a table are ignored
    if ((flags & IN_FOREIGN) === 0) this.#impliedEndTags(name, flags);
    const closed = (flags & VOID) !== 0 || (selfClosing && (flags & IN_FOREIGN) !== 0);

    if (this.#isHidden(name) || (flags & INVISIBLE) !== 0) flags |= HIDES;
    this.#elementData(name);
    const depth = this.#names.length;
    if (this.#hidden === 0 && (flags & (HIDES | IN_HEAD)) === 0) this.#definitionCandidate(name, depth, flags, closed);
    if (name === 'a') {
      const pending = this.#headings[this.#headings.length - 1];
      if (pending !== undefined && pending.anchor === undefined && this.#collectors.includes(pending.collector)) pending.anchor = this.#attr(A_ID) ?? this.#attr(A_NAME);
      const href = this.#attr(A_HREF)?.trim();
      if (href !== undefined && href !== '' && this.#openFrames > 0) this.#countLink();
      // Same-page anchors are not links to another document.
      if (href !== undefined && href !== '' && href.charCodeAt(0) !== 0x23 /* # */ && this.#keepLink()) {
        this.#links.push({ href, rel: this.#attr(A_REL), areaAlt: undefined, collector: closed ? null : this.#collector(depth, flags, true) });
        this.#alternateLink(href);
      }
    }
    if (closed) {
      if ((flags & (HIDES | BLOCK)) === BLOCK) {
        this.#space();
        this.#space();
      }
      return;
    }
    if ((flags & HEADING) !== 0) for (const frame of this.#frames) if (frame !== null) frame.headings = (frame.headings ?? 0) + 1;
    if ((flags & HEADING) !== 0 && name.charCodeAt(1) <= 0x33 /* h1–h3 */) {
      this.#headings.push({ level: (name.charCodeAt(1) - 0x30) as 1 | 2 | 3, collector: this.#collector(depth, flags, false), start: this.#text.nextStart, anchor: this.#attr(A_ID) ?? this.#sectionAnchor() });
    } else if (name === 'title' && this.#title === null) {
      this.#title = new CollapsedText();
      this.#titleDepth = depth;
    }
    if ((flags & HIDES) !== 0) this.#hidden++;
    else if ((flags & BLOCK) !== 0) this.#space();
    this.#trailElement(name, depth);
    this.#names.push(name);
    this.#flags.push(flags);
    this.#frames.push((flags & HIDES) !== 0 ? null : this.#regionFrame(name));
    if ((flags & FOREIGN) !== 0) this.#foreign++;
    if (name === 'p') this.#paragraphs++;
    else if (name === 'a') this.#anchors++;
    else if (name === 'table') this.#tables++;
    else if (name === 'select') this.#selects++;
    if ((flags & RAW) !== 0) this.#raw = name;
  }

  /** Anchored elements, and the headings and terms an empty anchor just before may name (definitions.ts). */
  #definitionCandidate(name: string, depth: number, flags: number, closed: boolean): void {
    const id = this.#attr(A_ID) ?? (name === 'a' ? this.#attr(A_NAME) : undefined);
    const naming = DefinitionReader.wantsText(name, this.#attr(A_CLASS));
    if (id === undefined && (!naming || name === 'a' || !this.#definitions.acceptsUnanchored(name, this.#text.nextStart))) return;
    const collector = naming && !closed ? this.#collector(depth, flags, false) : null;
    this.#definitions.add(name, id ?? null, this.#text.nextStart, collector === null ? null : () => collector.text.toString());
  }

  /** Breadcrumbs: a trail's container or crumbs, a JSON-LD script. */
  #trailElement(name: string, depth: number): void {
    if (name === 'script') {
      if (this.#jsonLdTrail === null && /ld\+json/i.test(this.#attr(A_TYPE) ?? '')) this.#jsonLd = { depth, parts: [], chars: 0 };
      return;
    }
    const trail = this.#trail;
    if (trail.reading) trail.open(depth, name, name === 'a' ? this.#attr(A_HREF)?.trim() || undefined : undefined);
    else if (!trail.done && (this.#attributeSeen & TRAIL_ATTRIBUTES) !== 0) {
      const container = isTrailContainer(this.#attr(A_ARIA_LABEL), this.#attr(A_ITEMTYPE), this.#attr(A_TYPEOF), this.#attr(A_ID), this.#attr(A_CLASS));
      // A container hidden by its attributes is not the trail a visitor sees.
      if (container && !this.#isHidden(name)) trail.start(depth, this.#hidden);
    }
  }

  /** What void and other elements contribute through their attributes. */
  #elementData(name: string): void {
    switch (name) {
      case 'img': {
        const alt = this.#attr(A_ALT);
        if (alt === undefined) return;
        for (const collector of this.#collectors) if (collector.alts !== null) collector.alts.push(alt);
        return;
      }
      case 'area': {
        const href = this.#attr(A_HREF);
        const trimmed = href?.trim();
        if (trimmed !== undefined && trimmed !== '' && trimmed.charCodeAt(0) !== 0x23 && this.#keepLink()) this.#links.push({ href: trimmed, rel: this.#attr(A_REL), areaAlt: this.#attr(A_ALT) ?? '', collector: null });
        return;
      }
      case 'base':
        this.#base ??= this.#attr(A_HREF);
        return;
      case 'link': {
        const rel = this.#attr(A_REL);
        const href = this.#attr(A_HREF);
        if (rel === undefined || href === undefined) return;
        const relTokens = tokens(rel);
        if (this.#canonical === undefined && relTokens.includes('canonical')) this.#canonical = href;
        if (relTokens.includes('alternate')) this.#alternateLink(href);
        return;
      }
      case 'meta':
        this.#meta();
        return;
      default:
        return;
    }
  }

  /**
   * A translation named by `rel=alternate hreflang`: a `<link>` in the head, or an `<a>` anywhere
   * (a language bar in the body is how many documentation sites name their translations).
   */
  #alternateLink(href: string): void {
    const hreflang = this.#attr(A_HREFLANG)?.trim().toLowerCase();
    if (!hreflang || this.#alternates.length >= MAX_ALTERNATES) return;
    const rel = this.#attr(A_REL);
    if (rel !== undefined && tokens(rel).includes('alternate')) this.#alternates.push({ href, hreflang });
  }

  #meta(): void {
    const name = (this.#attr(A_NAME) ?? '').trim().toLowerCase();
    const content = this.#attr(A_CONTENT) ?? '';
    if (name === 'robots' || (this.robotsName !== undefined && name === this.robotsName)) {
      for (const directive of content.split(',')) {
        const d = directive.trim().toLowerCase();
        if (d !== '') this.#directives.push(d);
      }
    } else if (name === 'description') {
      if (this.#description === null) this.#description = collapse(content);
    } else if (this.#contentLanguage === null && (this.#attr(A_HTTP_EQUIV) ?? '').trim().toLowerCase() === 'content-language') {
      this.#contentLanguage = content.split(',')[0].trim().toLowerCase() || null;
    }
  }

  /** Starts collecting the text of the element about to be pushed at `depth`. */
  #collector(depth: number, flags: number, link: boolean): Collector {
    const dead = (flags & HIDES) !== 0;
    const collector: Collector = { depth, hiddenBase: this.#hidden + (dead ? 1 : 0), dead, text: new CollapsedText(), alts: link ? [] : null };
    this.#collectors.push(collector);
    return collector;
  }

  #isHidden(name: string): boolean {
    if (this.#attr(A_HIDDEN) !== undefined) return true;
    if (name === 'input' && (this.#attr(A_TYPE) ?? '').toLowerCase() === 'hidden') return true;
    const style = this.#attr(A_STYLE);
    return style !== undefined && HIDDEN_STYLE.test(style);
  }

  /**
   * A start tag while a select is open: options go in, a select or form control closes it, the
   * rest is ignored (parse5's "in select" insertion mode). Whether to go on with the tag.
   */
  #inSelect(name: string): boolean {
    switch (name) {
      case 'option':
      case 'optgroup':
      case 'script':
      case 'template':
      case 'style':
        return true;
      case 'select':
        this.#closeIn('select', 0, false);
        return false;
      case 'input':
      case 'keygen':
      case 'textarea':
        this.#closeIn('select', 0, false);
        return true;
      default:
        return false;
    }
  }

  /** End tags a start tag implies (the HTML standard's "in body" rules that matter here). */
  #impliedEndTags(name: string, flags: number): void {
    if ((flags & CLOSES_P) !== 0 && this.#paragraphs > 0) this.#closeIn('p', SCOPE, true);
    if ((flags & HEADING) !== 0) {
      const top = this.#flags.length - 1;
      if (top >= 0 && (this.#flags[top] & HEADING) !== 0) this.#popTo(top);
      return;
    }
    switch (name) {
      case 'li':
        this.#closeListItem('li');
        return;
      case 'dd':
      case 'dt':
        this.#closeListItem('dd');
        return;
      case 'a':
        if (this.#anchors > 0) this.#closeIn('a', SCOPE, false);
        return;
      case 'td':
      case 'th':
        this.#closeTablePart((n) => n === 'td' || n === 'th');
        return;
      case 'tr':
        this.#closeTablePart((n) => n === 'tr');
        return;
      case 'tbody':
      case 'thead':
      case 'tfoot':
        this.#closeTablePart((n) => n === 'tbody' || n === 'thead' || n === 'tfoot');
        return;
      case 'option':
      case 'optgroup': {
        const top = this.#names.length - 1;
        if (top >= 0 && this.#names[top] === 'option') this.#pop();
        if (name === 'optgroup' && this.#names.length > 0 && this.#names[this.#names.length - 1] === 'optgroup') this.#pop();
        return;
      }
      default:
        return;
    }
  }

  /** `<li>` closes the open li; `<dd>`/`<dt>` the open dd or dt (stopping at other special elements). */
  #closeListItem(kind: 'li' | 'dd'): void {
    const names = this.#names;
    const stop = Math.max(0, names.length - MAX_END_TAG_SEARCH);
    for (let i = names.length - 1; i >= stop; i--) {
      const n = names[i];
      if (kind === 'li' ? n === 'li' : n === 'dd' || n === 'dt') {
        this.#popTo(i);
        return;
      }
      if ((this.#flags[i] & SPECIAL) !== 0 && n !== 'address' && n !== 'div' && n !== 'p') return;
    }
  }

  #closeTablePart(matches: (name: string) => boolean): void {
    const names = this.#names;
    const stop = Math.max(0, names.length - MAX_END_TAG_SEARCH);
    for (let i = names.length - 1; i >= stop; i--) {
      if (matches(names[i])) {
        this.#popTo(i);
        return;
      }
      if ((this.#flags[i] & TABLE) !== 0) return;
    }
  }

  /** Closes the nearest open `name` inside the scope bounded by `bound` elements (and `button` for p). */
  #closeIn(name: string, bound: number, buttonScope: boolean): boolean {
    const names = this.#names;
    const stop = Math.max(0, names.length - MAX_END_TAG_SEARCH);
    for (let i = names.length - 1; i >= stop; i--) {
      if (names[i] === name) {
        this.#popTo(i);
        return true;
      }
      if ((this.#flags[i] & bound) !== 0 || (buttonScope && names[i] === 'button')) return false;
    }
    return false;
  }

  #closeTag(name: string): void {
    if (this.#raw !== null) {
      if (name === this.#raw) {
        this.#raw = null;
        const top = this.#names.lastIndexOf(name);
        if (top >= 0) this.#popTo(top);
      }
      return;
    }
    const names = this.#names;
    const stop = Math.max(0, names.length - MAX_END_TAG_SEARCH);
    if (this.#foreign > 0) {
      // In svg and math, an end tag closes the foreign element of its name; HTML rules resume below them.
      let i = names.length - 1;
      for (; i >= stop && (this.#flags[i] & IN_FOREIGN) !== 0; i--) {
        if (names[i] === name) return this.#popTo(i);
      }
    }
    if (this.#selects > 0) {
      // Inside a select only options and the select itself close.
      const top = names.length - 1;
      if (name === 'option' || name === 'optgroup') {
        if (top >= 0 && names[top] === name) this.#pop();
      } else if (name === 'select') this.#closeIn('select', 0, false);
      else if (name === 'template' || name === 'script' || name === 'style') this.#closeIn(name, SCOPE, false);
      return;
    }
    const flags = TAGS.get(name) ?? 0;
    switch (name) {
      case 'html':
      case 'head':
      case 'body':
        return;
      case 'br':
        // `</br>` is a `<br>`.
        this.#space();
        this.#space();
        return;
      case 'p':
        if (!this.#closeIn('p', SCOPE, true)) {
          // `</p>` without an open p makes an empty paragraph.
          this.#space();
          this.#space();
        }
        return;
      case 'li':
        this.#closeIn('li', SCOPE | LIST, false);
        return;
      default:
        break;
    }
    if ((flags & HEADING) !== 0) {
      // Any heading end tag closes the open heading, whatever its level.
      for (let i = names.length - 1; i >= stop; i--) {
        if ((this.#flags[i] & HEADING) !== 0) return this.#popTo(i);
        if ((this.#flags[i] & SCOPE) !== 0) return;
      }
      return;
    }
    if ((flags & (SPECIAL | FORMATTING)) !== 0) {
      // Closes the element if it is in scope, with everything open inside it.
      const bound = (flags & TABLE_PART) !== 0 ? TABLE : SCOPE;
      for (let i = names.length - 1; i >= stop; i--) {
        if (names[i] === name) return this.#popTo(i);
        if ((this.#flags[i] & bound) !== 0) return;
      }
      return;
    }
    // Any other end tag: the element if it is open above the nearest special element.
    for (let i = names.length - 1; i >= stop; i--) {
      if (names[i] === name) return this.#popTo(i);
      if ((this.#flags[i] & SPECIAL) !== 0) return;
    }
  }

  #popTo(index: number): void {
    while (this.#names.length > index) this.#pop();
  }

  #pop(): void {
    const depth = this.#names.length - 1;
    const name = this.#names.pop()!;
    const flags = this.#flags.pop()!;
    const frame = this.#frames.pop();
    if (frame) this.#closeFrame(frame);
    if ((flags & HIDES) !== 0) this.#hidden--;
    else if ((flags & BLOCK) !== 0) this.#space();
    if ((flags & FOREIGN) !== 0) this.#foreign--;
    if (name === 'p') this.#paragraphs--;
    else if (name === 'a') this.#anchors--;
    else if (name === 'table') this.#tables--;
    else if (name === 'select') this.#selects--;
    else if (name === this.#raw) this.#raw = null;
    if (this.#trail.reading) this.#trail.close(depth, name);
    if (this.#jsonLd !== null && this.#jsonLd.depth === depth) {
      const parts = this.#jsonLd.parts;
      this.#jsonLd = null;
      if (parts !== null) this.#jsonLdTrail = trailFromJsonLd(parts.join(''));
    }
    const collectors = this.#collectors;
    for (let c = collectors.length - 1; c >= 0; c--) {
      if (collectors[c].depth === depth) collectors.splice(c, 1);
    }
    if (depth === this.#titleDepth) this.#titleDepth = -1;
  }

  #space(): void {
    this.#addText(' ');
  }

  /** The frame an element opens: main, article, boilerplate, a block whose links are counted, or none. */
  #regionFrame(name: string): RegionFrame | null {
    const role = this.#attr(A_ROLE)?.trim().toLowerCase();
    let kind: RegionFrame['kind'] | null = null;
    if (name === 'main' || role === 'main') kind = 'main';
    else if (name === 'article') kind = 'article';
    else if (name === 'aside' || (role !== undefined && BOILERPLATE_ROLES.has(role))) kind = 'boilerplate';
    else if ((name === 'header' || name === 'footer') && this.#sectioning === 0) kind = 'boilerplate';
    // A heading is the body's structure whatever its id (MkDocs' `<h2 id="navigation">`): the block around it decides.
    const heading = (this.#tagFlags & HEADING) !== 0;
    const chromeName = kind === null && !heading && (BANNER_NAMES.test(this.#attr(A_ID) ?? '') || BANNER_NAMES.test(this.#attr(A_CLASS) ?? ''));
    if (kind === null && (chromeName || DENSITY_BLOCKS.has(name))) kind = 'block';
    const id = this.#attr(A_ID);
    // An element with an id is kept too: a heading inside may take it as its section's anchor.
    if (kind === null && id === undefined) return null;
    if (kind === 'main' || kind === 'article') this.#sectioning++;
    this.#openFrames++;
    const frame: RegionFrame = { kind: kind ?? 'block', start: this.#text.nextStart, links: 0, linkChars: 0, id };
    if (chromeName) frame.chromeName = true;
    return frame;
  }

  #closeFrame(frame: RegionFrame): void {
    const end = this.#text.length;
    if (frame.kind === 'main' || frame.kind === 'article') this.#sectioning--;
    this.#openFrames--;
    if (frame.kind !== 'block') {
      this.#regions.push({ kind: frame.kind, start: frame.start, end });
      return;
    }
    const length = end - frame.start;
    const linkShare = length > 0 ? frame.linkChars / length : 0;
    // Blocks that hold headings are sections (an index of settings, rustdoc signatures), never a menu by density alone.
    const sectioned = (frame.headings ?? 0) > 0;
    const linkList = !sectioned && frame.links >= LINK_LIST_MIN_LINKS && linkShare >= LINK_LIST_MIN_SHARE;
    const chrome = frame.chromeName === true && ((!sectioned && length - frame.linkChars <= CHROME_NAME_MAX_PROSE) || linkShare >= CHROME_NAME_MIN_LINK_SHARE);
    if (linkList || chrome) this.#regions.push({ kind: 'boilerplate', start: frame.start, end });
  }

  #countLink(): void {
    for (const frame of this.#frames) if (frame !== null) frame.links++;
  }

  #countLinkChars(chars: number): void {
    for (const frame of this.#frames) if (frame !== null) frame.linkChars += chars;
  }

  /** The id of the innermost open element whose text starts where a heading does (the section it opens). */
  #sectionAnchor(): string | undefined {
    const at = this.#text.nextStart;
    for (let i = this.#frames.length - 1; i >= 0; i--) {
      const frame = this.#frames[i];
      if (frame === null) continue;
      if (frame.start < at) return undefined;
      if (frame.id !== undefined) return frame.id;
    }
    return undefined;
  }

  #addText(text: string): void {
    if (this.#raw !== null) return;
    const jsonLd = this.#jsonLd;
    if (jsonLd !== null && jsonLd.parts !== null) {
      jsonLd.chars += text.length;
      if (jsonLd.chars > MAX_JSON_LD_CHARS) jsonLd.parts = null;
      else jsonLd.parts.push(text);
    }
    if (this.#title !== null && this.#titleDepth >= 0) this.#title.add(text);
    if (!this.#bodyStarted) {
      // Blank text stays in the head; anything else starts the body.
      if (this.#names.length > 0 || isBlank(text)) return;
      this.#bodyStarted = true;
    }
    const hidden = this.#hidden;
    if (this.#trail.reading) this.#trail.text(text, hidden);
    if (hidden === 0) {
      if (this.#anchors > 0 && this.#openFrames > 0) {
        const before = this.#text.length;
        this.#text.add(text);
        this.#countLinkChars(this.#text.length - before);
      } else this.#text.add(text);
    }
    const collectors = this.#collectors;
    for (let c = 0; c < collectors.length; c++) {
      const collector = collectors[c];
      if (!collector.dead && collector.hiddenBase === hidden) collector.text.add(text);
    }
  }
}

/** A tag name, lower-cased (sliced once; no copy when it is lower case already). */
function lowerName(html: string, start: number, end: number): string {
  const name = html.slice(start, end);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return name.toLowerCase();
  }
  return name;
}

/** Which of the attributes we read a name is (compared case-insensitively in place), or -1. */
function attributeId(html: string, start: number, end: number): number {
  const length = end - start;
  switch (length) {
    case 2:
      return sameLower(html, start, 'id') ? A_ID : -1;
    case 3:
      return sameLower(html, start, 'rel') ? A_REL : sameLower(html, start, 'alt') ? A_ALT : -1;
    case 4:
      return sameLower(html, start, 'href') ? A_HREF : sameLower(html, start, 'name') ? A_NAME : sameLower(html, start, 'type') ? A_TYPE : sameLower(html, start, 'lang') ? A_LANG : sameLower(html, start, 'role') ? A_ROLE : -1;
    case 5:
      return sameLower(html, start, 'style') ? A_STYLE : sameLower(html, start, 'class') ? A_CLASS : -1;
    case 6:
      return sameLower(html, start, 'hidden') ? A_HIDDEN : sameLower(html, start, 'typeof') ? A_TYPEOF : -1;
    case 7:
      return sameLower(html, start, 'content') ? A_CONTENT : -1;
    case 8:
      return sameLower(html, start, 'hreflang') ? A_HREFLANG : sameLower(html, start, 'itemtype') ? A_ITEMTYPE : -1;
    case 10:
      return sameLower(html, start, 'http-equiv') ? A_HTTP_EQUIV : sameLower(html, start, 'aria-label') ? A_ARIA_LABEL : -1;
    default:
      return -1;
  }
}

function sameLower(html: string, start: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    let c = html.charCodeAt(start + i);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== word.charCodeAt(i)) return false;
  }
  return true;
}

/** Only the HTML standard's ASCII whitespace (a no-break space is text). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0c && c !== 0x0d) return false;
  }
  return true;
}

/**
 * Text gathered piece by piece, kept as `collapse` would make the whole: whitespace runs (also
 * across pieces) as one space, none at either end. Pieces go in as slices of the page without
 * a regular expression or a copy of the joined text (the parser's biggest allocation before).
 */
export class CollapsedText {
  #parts: string[] = [];
  #pendingSpace = false;
  #length = 0;

  /** Length of the text so far (a pending space not counted). */
  get length(): number {
    return this.#length;
  }

  /** Where the next text added will start (after the pending space, if any). */
  get nextStart(): number {
    return this.#pendingSpace && this.#parts.length > 0 ? this.#length + 1 : this.#length;
  }

  add(piece: string): void {
    const parts = this.#parts;
    const end = piece.length;
    let i = 0;
    while (i < end) {
      // Skip a whitespace run.
      const runStart = i;
      while (i < end && isWhitespaceUnit(piece.charCodeAt(i))) i++;
      if (i > runStart) this.#pendingSpace = true;
      if (i >= end) return;
      // A segment: words with single spaces between them, taken as one slice.
      const start = i;
      while (i < end) {
        const c = piece.charCodeAt(i);
        if (c === 0x20 && i + 1 < end && !isWhitespaceUnit(piece.charCodeAt(i + 1))) {
          i += 2;
          continue;
        }
        if (isWhitespaceUnit(c)) break;
        i++;
      }
      if (this.#pendingSpace && parts.length > 0) {
        parts.push(' ');
        this.#length++;
      }
      this.#pendingSpace = false;
      parts.push(start === 0 && i === end ? piece : piece.slice(start, i));
      this.#length += i - start;
    }
  }

  toString(): string {
    const parts = this.#parts;
    return parts.length === 0 ? '' : parts.length === 1 ? parts[0] : parts.join('');
  }
}

/** Whitespace runs (JavaScript's `\s`) as one space, trimmed; a text that needs no change is returned as it is. */
export function collapse(text: string): string {
  const collapsed = new CollapsedText();
  collapsed.add(text);
  return collapsed.toString();
}

/** The code units of JavaScript's `\s` (WhiteSpace and LineTerminator). */
function isWhitespaceUnit(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function tokens(value: string): string[] {
  return value.toLowerCase().split(/\s+/).filter((token) => token !== '');
}

function httpUrl(url: string | null): string | null {
  return url !== null && (url.startsWith('http://') || url.startsWith('https://')) ? url : null;
}
