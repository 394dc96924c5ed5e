/**
 * A page's breadcrumb trail ("Home › Library › Opening hours"), the site's own statement of where
 * the page sits: the search takes a page's section from it (indexer/ranking/page-facts.ts).
 *
 * Two sources, the first found wins:
 *   - schema.org `BreadcrumbList` in JSON-LD (`<script type="application/ld+json">`): explicit,
 *     with positions and URLs, what search engines read;
 *   - markup: the first element that says it is a trail — `itemtype`/`typeof` naming
 *     `BreadcrumbList` (microdata, RDFa), an `aria-label` with "breadcrumb" (the ARIA authoring
 *     pattern), or a class or id like `breadcrumb(s)` — read as crumbs: each link, each list item,
 *     and each run of text between separators (› » > / | →) is one.
 * The HTML parser (html.ts) feeds the markup reader as its stack opens and closes elements, so
 * the trail costs no second pass over the page. Hostile input is bounded: at most
 * {@link MAX_CRUMBS} crumbs of {@link MAX_CRUMB_NAME} characters, JSON-LD over
 * {@link MAX_JSON_LD_CHARS} or not parseable is skipped.
 */
export interface Crumb {
  /** The crumb's visible name ('' for a link with no text, such as a home icon). */
  readonly name: string;
  /** Absolute http(s) URL the crumb links to, when it links. */
  readonly url?: string;
}

/** A crumb as read, its link not yet resolved against the page. */
export interface RawCrumb {
  readonly name: string;
  readonly href?: string;
}

/** Crumbs kept of one trail; a real trail is a handful deep, the rest of a longer one is dropped. */
export const MAX_CRUMBS = 16;
/** Characters kept of a crumb's name. */
export const MAX_CRUMB_NAME = 100;
/** A JSON-LD block longer than this is not read (a page's structured data is a few kB). */
export const MAX_JSON_LD_CHARS = 200_000;
/** JSON values looked at in one JSON-LD block while searching it for a BreadcrumbList. */
const MAX_JSON_LD_NODES = 20_000;

const TRAIL_TYPE = /breadcrumblist/i;
const TRAIL_LABEL = /breadcrumb/i;
/** Class or id tokens of a trail's container; its items (`breadcrumb-item`) are not containers. */
const TRAIL_NAME = /breadcrumb/i;
const CRUMB_PART_NAME = /(?:item|link|separator|divider|sep|home|current|active|last|first|text|label|title|icon|arrow)s?$/i;
/** Separators between crumbs written as text (›, », >, →, |, a slash or a backslash between spaces). */
const SEPARATORS = /[›»>→⟩▸▶❯|]|\s[/\\]\s|^[/\\]\s|\s[/\\]$|^[/\\]$/;

/** Does an element with these attributes hold a breadcrumb trail? */
export function isTrailContainer(ariaLabel: string | undefined, itemtype: string | undefined, typeOf: string | undefined, id: string | undefined, className: string | undefined): boolean {
  if (itemtype !== undefined && TRAIL_TYPE.test(itemtype)) return true;
  if (typeOf !== undefined && TRAIL_TYPE.test(typeOf)) return true;
  if (ariaLabel !== undefined && TRAIL_LABEL.test(ariaLabel)) return true;
  return namesTrail(id) || namesTrail(className);
}

function namesTrail(names: string | undefined): boolean {
  if (names === undefined || !TRAIL_NAME.test(names)) return false;
  for (const token of names.split(/\s+/)) if (TRAIL_NAME.test(token) && !CRUMB_PART_NAME.test(token)) return true;
  return false;
}

interface OpenCrumb {
  text: string;
  href: string | undefined;
}

/**
 * Reads the first breadcrumb trail of the page's markup from the parser's events: `open` and
 * `close` of elements (with their stack depth), and the text between them (with the number of
 * hiding elements open, so text inside a hidden part of the trail is left out).
 */
export class MarkupTrailReader {
  #trail: RawCrumb[] | null = null;
  #depth = -1; // the container's depth, -1 when none is open
  #hiddenBase = 0;
  #crumbs: RawCrumb[] = [];
  #current: OpenCrumb | null = null;
  #linkDepth = -1;

  /** The trail found, or null. */
  get trail(): RawCrumb[] | null {
    return this.#trail;
  }

  /** A trail was found: nothing more to read. */
  get done(): boolean {
    return this.#trail !== null;
  }

  /** A trail's container is open: its elements and text are crumbs. */
  get reading(): boolean {
    return this.#depth >= 0;
  }

  /** The trail's container opens at `depth`; `hidden` counts the hiding elements open, itself included. */
  start(depth: number, hidden: number): void {
    this.#depth = depth;
    this.#hiddenBase = hidden;
    this.#crumbs = [];
    this.#current = null;
    this.#linkDepth = -1;
  }

  /** An element opens inside the container: a list item or a link starts a crumb. */
  open(depth: number, name: string, href: string | undefined): void {
    if (name === 'li') this.#finish();
    else if (name === 'a' && href !== undefined && this.#linkDepth < 0) {
      this.#finish();
      this.#current = { text: '', href };
      this.#linkDepth = depth;
    }
  }

  close(depth: number, name: string): void {
    if (this.#depth < 0) return;
    if (depth === this.#linkDepth || name === 'li') {
      this.#finish();
      this.#linkDepth = -1;
    }
    if (depth !== this.#depth) return;
    this.#finish();
    this.#depth = -1;
    // An empty container (a placeholder filled by a script) is no trail: keep looking.
    if (this.#crumbs.length > 0) this.#trail = this.#crumbs;
  }

  text(text: string, hidden: number): void {
    if (this.#depth < 0 || hidden !== this.#hiddenBase) return;
    if (this.#linkDepth >= 0) {
      this.#add(text);
      return;
    }
    let rest = text;
    for (;;) {
      const match = SEPARATORS.exec(rest);
      if (match === null) break;
      this.#add(rest.slice(0, match.index));
      this.#finish();
      rest = rest.slice(match.index + match[0].length);
    }
    this.#add(rest);
  }

  #add(text: string): void {
    if (text === '' || this.#crumbs.length >= MAX_CRUMBS) return;
    this.#current ??= { text: '', href: undefined };
    // Enough is kept to fill a name once whitespace is collapsed; a hostile crumb's megabytes are not.
    if (this.#current.text.length <= MAX_CRUMB_NAME * 4) this.#current.text += text.length > MAX_CRUMB_NAME * 4 ? text.slice(0, MAX_CRUMB_NAME * 4) : text;
  }

  #finish(): void {
    const current = this.#current;
    this.#current = null;
    if (current === null || this.#crumbs.length >= MAX_CRUMBS) return;
    const name = capName(current.text);
    if (current.href === undefined) {
      // Text without a link: a crumb (often the page itself), unless it is a label ("You are here:",
      // a visually hidden "Breadcrumb" heading).
      if (name !== '' && !name.endsWith(':') && !TRAIL_LABEL.test(name)) this.#crumbs.push({ name });
    } else this.#crumbs.push({ name, href: current.href });
  }
}

/** The first schema.org BreadcrumbList of a JSON-LD block, or null (none, too long, or not JSON). */
export function trailFromJsonLd(json: string): RawCrumb[] | null {
  if (json.length > MAX_JSON_LD_CHARS) return null;
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return null;
  }
  const list = findBreadcrumbList(data);
  if (list === null) return null;
  const elements = list.itemListElement;
  const items = (Array.isArray(elements) ? elements : [elements]).slice(0, 1000);
  const crumbs: Array<RawCrumb & { position: number; order: number }> = [];
  items.forEach((item, order) => {
    if (!isObject(item)) return;
    const target = item.item;
    const href = typeof target === 'string' ? target : isObject(target) ? firstString(target['@id'] ?? target.url ?? target.id) : undefined;
    const rawName = firstString(item.name) ?? (isObject(target) ? firstString(target.name) : undefined);
    const name = capName(rawName ?? '');
    if (name === '' && href === undefined) return;
    const position = Number(item.position);
    crumbs.push({ name, ...(href !== undefined ? { href } : {}), position: Number.isFinite(position) ? position : Infinity, order });
  });
  if (crumbs.length === 0) return null;
  crumbs.sort((a, b) => a.position - b.position || a.order - b.order);
  return crumbs.slice(0, MAX_CRUMBS).map(({ name, href }) => (href === undefined ? { name } : { name, href }));
}

/** Walks the JSON-LD value (iteratively: hostile data nests deep) for an object typed BreadcrumbList. */
function findBreadcrumbList(data: unknown): Record<string, unknown> | null {
  const stack: unknown[] = [data];
  for (let seen = 0; stack.length > 0 && seen < MAX_JSON_LD_NODES; seen++) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    } else if (isObject(value)) {
      const type = value['@type'];
      if ((Array.isArray(type) ? type : [type]).some((t) => typeof t === 'string' && TRAIL_TYPE.test(t))) return value;
      const values = Object.values(value);
      for (let i = values.length - 1; i >= 0; i--) if (typeof values[i] === 'object' && values[i] !== null) stack.push(values[i]);
    }
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string, the first string of an array, or a JSON-LD value object's `@value`. */
function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return firstString(value[0]);
  if (isObject(value) && typeof value['@value'] === 'string') return value['@value'];
  return undefined;
}

/** Whitespace collapsed, at most {@link MAX_CRUMB_NAME} characters. */
function capName(name: string): string {
  const text = (name.length > MAX_CRUMB_NAME * 4 ? name.slice(0, MAX_CRUMB_NAME * 4) : name).replace(/\s+/g, ' ').trim();
  return text.length > MAX_CRUMB_NAME ? text.slice(0, MAX_CRUMB_NAME).trimEnd() : text;
}

/** The crumbs with their links resolved against the page (links that are not http(s) are dropped). */
export function resolveTrail(trail: readonly RawCrumb[], resolve: (href: string) => string | null): Crumb[] {
  const crumbs: Crumb[] = [];
  for (const crumb of trail) {
    const resolved = crumb.href === undefined ? null : resolve(crumb.href.trim());
    const url = resolved !== null && /^https?:\/\//.test(resolved) ? resolved : undefined;
    if (crumb.name === '' && url === undefined) continue;
    crumbs.push(url === undefined ? { name: crumb.name } : { name: crumb.name, url });
  }
  return crumbs;
}
