/**
 * The demo web: a deterministic, seeded synthetic multi-host web that `npm start`, the tests and
 * the benchmarks crawl offline (served on loopback by `server.ts`, one server for every host).
 *
 * Shape (defaults: seed 2006, ~300 hosts, ~20 000 HTML pages, 10 topics):
 * - Sites of power-law (Zipf, rank^-1) sizes. Every site has a home page `/`, section pages
 *   `/<section>/` and article pages under them (three URL styles: `…/slug.html`, `…/slug/`,
 *   `…/slug`). Every page links home and to every section (navigation); articles carry
 *   breadcrumbs, previous/next links and a few related articles of their site.
 * - Each site belongs to a topic (astronomy, cooking, gardening, music, computing, football,
 *   travel, history, medicine, finance) and its text is made of sentences over that topic's real
 *   English words. Cross-site links follow preferential attachment, 80 % within the topic.
 * - Host names `www.<word>-<word>.<tld>` over a mix of suffixes including `co.uk`, `org.uk`,
 *   `com.au`, `co.jp`; about 8 % of sites are `news.` / `blog.` / … subdomains of another site's
 *   pay-level domain.
 * - The local domain is the university site {@link DEMO_LOCAL_HOST} (`localPages`, default 4 %
 *   of the pages, 60–1000): one section per topic department plus news, events, admissions and
 *   about. Outside pages link into its departments (~4 % of cross-site links); its pages link out.
 *   {@link DEMO_LIBRARY_HOST} is a separate small site on the same pay-level domain.
 *
 * Every URL is `http://<host>/<path>` (port 80, no TLS); `server.ts` serves all hosts from one
 * loopback port, and a client routes every host there (undici dispatcher or address pins).
 * `graph.ts` gives the whole link graph as a crawler sees it and the true global PageRank.
 *
 * Special cases (all recorded in `web.landmarks`; on the university host U unless said otherwise):
 * - robots.txt: U disallows `/private/` and `/search` (both real, linked pages, e.g.
 *   `/search?q=telescope`) and shuts out `BadBot`; other hosts disallow `/search`, `/admin/`, a
 *   real section, only `BadBot`, or nothing; three hosts set `Crawl-delay` (1, 1, 2 s); one host
 *   answers robots.txt with 500, one with 404.
 * - Redirects: `/about-us` 301 → `/about/` (absolute Location); `/admissions/apply-now` 302 with
 *   a relative Location; chain `/go/prospectus` → `/go/prospectus-2025` → `/go/prospectus-2026` →
 *   an admissions article (301, 302, 301); `/library` 301 → the library host; `/observatory` 302
 *   → an astronomy site; loop `/loop/a` ⇄ `/loop/b`; a "moved" host whose `/` 301s to another site.
 * - Errors linked from pages: `/people/emeritus-professor.html` 404, `/events/open-day-2019.html`
 *   410, `/cgi-bin/course-search` 500. Unknown paths and hosts are 404.
 * - Slow pages: three U news articles (1, 2, 3 s) and two outside articles (1.5 s), scaled by the
 *   server's `latencyScale`.
 * - Duplicates: a mirror host serving byte-identical copies of a whole outside site (its links
 *   are root-relative, so they stay on the mirror); `U/index.html` = `U/`; print versions
 *   `<article>?print=1` with `rel=canonical` to the article; two outside near-duplicate articles
 *   (same text, another section, one extra line).
 * - Spider traps: `/calendar/2026/11/` with previous/next month links forever, and `/archive/`
 *   whose relative link `archive/` nests forever (`/archive/archive/…`).
 * - Non-HTML: `/files/prospectus-2026.pdf`, `/downloads/annual-report` (a PDF without extension),
 *   `/images/campus-map.png`, `/files/timetable.txt`; and a ~3 MB page
 *   `/reports/course-catalogue-full.html` for size caps.
 * - Charsets: `/international/cafe-menu.html` is windows-1252, declared in the Content-Type
 *   header only; `/international/exchange-munchen.html` is iso-8859-1, declared in `<meta>` only.
 * - Robots meta and rel: `/about/draft-handbook.html` is `noindex`; `/about/partners.html` is
 *   `nofollow`; `/about/guestbook.html` has `rel="nofollow ugc"` links.
 * - `/help/guide/` has `<base href="http://U/help/">` and relative links that only resolve
 *   correctly through it; `/help/faq.html` has mailto:, tel:, javascript:, fragment, padded,
 *   upper-case-host-with-:80 and protocol-relative links and a link inside an HTML comment;
 *   `/help/search-tips.html` has a `<script>alert(1)</script>` and HTML-like text to escape.
 *
 * Change over time: every page has a change rate λ (changes per day; most articles 0.002–0.05,
 * home and section pages of news-like sites 1–3, U's `/news/` 6). Its change events form a Poisson
 * process starting at `epochMs`; its content at time t is a pure function of (seed, page, number
 * of events up to t) — see {@link contentVersion}; ETag and Last-Modified follow the version, so
 * conditional GETs get 304 until the next event. Links never change, so the graph is static.
 */
import { buildGraph, type LinkGraph } from '../../indexer/graph.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';
import { pdfLikeBytes, pngBytes, type LegacyCharset } from './files.ts';
import { articleTitle, capitalise, pick, slugOf, titleCase, type Random } from './text.ts';
import { HOST_WORDS, SUBDOMAIN_LABELS, TLD_WEIGHTS, TOPICS, type Topic } from './vocabulary.ts';

export const DEFAULT_DEMO_SEED = 2006;
export const DEMO_LOCAL_HOST = 'www.northfield-university.edu';
export const DEMO_LIBRARY_HOST = 'library.northfield-university.edu';
/** The default crawl seed and scope of `npm start`. */
export const DEMO_SEED_URL = `http://${DEMO_LOCAL_HOST}/`;
/** Change processes start here (pages were created up to ~400 days earlier). */
export const DEFAULT_DEMO_EPOCH_MS = Date.UTC(2026, 0, 1);
export const DAY_MS = 86_400_000;

export interface DemoWebOptions {
  seed?: number;
  /** Number of hosts (default 300, at least 16). */
  hosts?: number;
  /** Approximate number of HTML pages (default 20 000). */
  pages?: number;
  /** Number of topics, 2–10 (default 10). */
  topics?: number;
  /** Pages of the university site (default 4 % of `pages`, clamped to 60–1000). */
  localPages?: number;
  epochMs?: number;
}

/** A link as written in HTML. */
export interface DemoRawLink {
  href: string;
  text: string;
  rel?: string;
}

/** Poisson change process of one page (see {@link contentVersion}). */
export interface DemoChangeProcess {
  /** Expected changes per day. */
  ratePerDay: number;
  seed: number;
  /** Events happen after this time only. */
  startMs: number;
  /** Last-Modified of version 0. */
  createdMs: number;
}

export type DemoPageRole = 'home' | 'section' | 'article' | 'special';
/** Pages whose body is not the usual generated article. */
export type DemoSpecialBody = 'charset' | 'script-escaping' | 'base-href' | 'link-zoo' | 'huge' | 'search-results';

interface DemoResourceBase {
  /** Index in `web.resources`. */
  id: number;
  host: string;
  /** Path plus query, exactly as requested. */
  path: string;
  /** `http://${host}${path}` */
  url: string;
  /** Response delay before scaling by the server's latencyScale. */
  delayMs: number;
}

/** An HTML page. Treat as immutable. */
export interface DemoPage extends DemoResourceBase {
  kind: 'page';
  /** Index in `web.sites`. */
  site: number;
  role: DemoPageRole;
  /** Index of its section in its site, -1 for none. */
  section: number;
  /** Index in `web.topics`, -1 for general pages. */
  topic: number;
  title: string;
  textSeed: number;
  change: DemoChangeProcess;
  /** `<meta name="robots" content="…">` */
  robotsMeta?: string;
  /** Absolute URL of `<link rel="canonical">`. */
  canonical?: string;
  /** `<base href="…">` */
  baseHref?: string;
  /** A legacy charset and where it is declared (otherwise UTF-8, declared in both places). */
  charset?: { name: LegacyCharset; declaredIn: 'header' | 'meta' };
  body?: DemoSpecialBody;
  /** One extra line of text (what makes a near-duplicate near). */
  note?: string;
  /** Links beyond the generated ones (special cases), as written in HTML. */
  extraLinks?: DemoRawLink[];
  /** A byte-identical copy of that page (mirror host, `/index.html`). */
  copyOf?: number;
  /** Same text as that page plus `note`. */
  nearDuplicateOf?: number;
}

export interface DemoRedirect extends DemoResourceBase {
  kind: 'redirect';
  status: 301 | 302 | 307 | 308;
  /** The Location header as sent (may be relative). */
  location: string;
  /** The absolute URL it points to. */
  target: string;
}

export interface DemoErrorResource extends DemoResourceBase {
  kind: 'error';
  status: 404 | 410 | 500 | 503;
}

export interface DemoFile extends DemoResourceBase {
  kind: 'file';
  contentType: string;
  bytes: Uint8Array;
}

export type DemoResource = DemoPage | DemoRedirect | DemoErrorResource | DemoFile;

export interface DemoSection {
  /** Page id of the section page. */
  page: number;
  name: string;
  path: string;
  topic: number;
  /** Its articles are page ids `firstArticle … firstArticle + articleCount - 1`. */
  firstArticle: number;
  articleCount: number;
}

export interface DemoSite {
  index: number;
  kind: 'local' | 'regular' | 'mirror';
  host: string;
  /** Display name ("Silver Comet"). */
  name: string;
  topic: number;
  /** News-like sites change often. */
  newsLike: boolean;
  /** Page id of `/`. */
  home: number;
  sections: DemoSection[];
  /** Pages built with the site: ids `home … home + pageCount - 1` (special pages come later). */
  pageCount: number;
  /** For a mirror, the site it copies; else -1. */
  mirrorOf: number;
}

export interface DemoRobots {
  status: 200 | 404 | 500;
  body: string;
}

export interface DemoHost {
  name: string;
  /** Pay-level domain (registrable domain). */
  payLevelDomain: string;
  role: 'local' | 'site' | 'mirror' | 'moved';
  /** Index in `web.sites`, -1 for a host without a site. */
  site: number;
  robots: DemoRobots;
  crawlDelaySeconds?: number;
}

export type DemoTrap =
  | { kind: 'calendar'; host: string; entryPath: string }
  | { kind: 'repeating-path'; host: string; entryPath: string; segment: string };

/** Where each special case lives (absolute URLs unless named a host). */
export interface DemoLandmarks {
  localHost: string;
  libraryHost: string;
  mirrorHost: string;
  mirroredHost: string;
  movedHost: string;
  robotsServerErrorHost: string;
  robotsNotFoundHost: string;
  crawlDelayHosts: string[];
  /** Real pages that robots.txt disallows for every agent. */
  robotsDisallowedPages: string[];
  redirects: {
    permanent: string;
    relativeLocation: string;
    chain: string[];
    toLibraryHost: string;
    crossHost: string;
    loop: string[];
    movedHostHome: string;
  };
  errors: { notFound: string; gone: string; serverError: string };
  slowPages: Array<{ url: string; delayMs: number }>;
  calendarTrap: string;
  repeatingPathTrap: string;
  files: { pdf: string; pdfWithoutExtension: string; image: string; text: string };
  hugePage: string;
  charsetInHeader: string;
  charsetInMeta: string;
  noindex: string;
  nofollowMeta: string;
  relNofollow: string;
  canonicals: Array<{ url: string; canonical: string }>;
  baseHref: string;
  linkZoo: string;
  scriptEscaping: string;
  exactDuplicate: { url: string; of: string };
  nearDuplicates: Array<{ url: string; of: string }>;
  /** The page that changes most often. */
  frequentlyChanging: string;
}

export interface DemoWeb {
  seed: number;
  epochMs: number;
  topics: readonly Topic[];
  hosts: readonly DemoHost[];
  sites: readonly DemoSite[];
  /** Every finite URL the web answers (pages, redirects, errors, files), id = index. */
  resources: readonly DemoResource[];
  hostIndex: ReadonlyMap<string, number>;
  urlIndex: ReadonlyMap<string, number>;
  /** Generated related and cross-site links, resource id → page id (navigation is structural). */
  contentLinks: LinkGraph;
  traps: readonly DemoTrap[];
  localHost: string;
  seedUrl: string;
  landmarks: DemoLandmarks;
}

/** A 32-bit hash of integers (for per-page seeds). */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
  }
  return h >>> 0;
}

function intBelow(random: Random, n: number): number {
  return Math.floor(random() * n);
}

/** An index in `0 … n-1` skewed towards 0 (earlier items are more popular). */
function skewedIndex(random: Random, n: number): number {
  const u = random();
  return Math.min(n - 1, Math.floor(n * u * u));
}

function gaussian(random: Random): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function logUniform(random: Random, low: number, high: number): number {
  return low * Math.exp(random() * Math.log(high / low));
}

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = intBelow(random, i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

function weightedPick(random: Random, cumulative: readonly number[]): number {
  const x = random() * cumulative[cumulative.length - 1];
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (cumulative[mid] > x) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Splits `total` into `weights.length` integer parts proportional to the weights. */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) parts[order[k][1]]++;
  return parts;
}

type PageFields = Omit<DemoPage, 'kind' | 'id' | 'url' | 'delayMs' | 'textSeed' | 'change'> & {
  delayMs?: number;
  textSeed?: number;
  change?: DemoChangeProcess;
  ratePerDay?: number;
};

/** Mutable state while a web is generated. */
class WebBuilder {
  readonly resources: DemoResource[] = [];
  readonly hosts: DemoHost[] = [];
  readonly sites: DemoSite[] = [];
  readonly hostIndex = new Map<string, number>();
  readonly urlIndex = new Map<string, number>();
  readonly linkSources: number[] = [];
  readonly linkTargets: number[] = [];

  constructor(
    readonly seed: number,
    readonly epochMs: number,
  ) {}

  addHost(name: string, payLevelDomain: string, role: DemoHost['role']): DemoHost {
    if (this.hostIndex.has(name)) throw new Error(`duplicate demo host ${name}`);
    const host: DemoHost = { name, payLevelDomain, role, site: -1, robots: { status: 200, body: 'User-agent: *\nDisallow:\n' } };
    this.hostIndex.set(name, this.hosts.length);
    this.hosts.push(host);
    return host;
  }

  private register<T extends DemoResource>(resource: T): T {
    if (this.urlIndex.has(resource.url)) throw new Error(`duplicate demo URL ${resource.url}`);
    this.urlIndex.set(resource.url, resource.id);
    this.resources.push(resource);
    return resource;
  }

  changeProcess(id: number, ratePerDay: number): DemoChangeProcess {
    const seed = mixSeed(this.seed, id, 0xc4a9);
    return { ratePerDay, seed, startMs: this.epochMs, createdMs: this.epochMs - (1 + (seed % 400)) * DAY_MS + (seed % 86_400) * 1000 };
  }

  addPage(fields: PageFields): DemoPage {
    const id = this.resources.length;
    const { ratePerDay, ...rest } = fields;
    return this.register<DemoPage>({
      ...rest,
      kind: 'page',
      id,
      url: `http://${fields.host}${fields.path}`,
      delayMs: fields.delayMs ?? 0,
      textSeed: fields.textSeed ?? mixSeed(this.seed, id, 0x7e47),
      change: fields.change ?? this.changeProcess(id, ratePerDay ?? 0),
    });
  }

  addRedirect(host: string, path: string, status: DemoRedirect['status'], location: string): DemoRedirect {
    const id = this.resources.length;
    const url = `http://${host}${path}`;
    return this.register<DemoRedirect>({ kind: 'redirect', id, host, path, url, delayMs: 0, status, location, target: new URL(location, url).href });
  }

  addError(host: string, path: string, status: DemoErrorResource['status']): DemoErrorResource {
    const id = this.resources.length;
    return this.register<DemoErrorResource>({ kind: 'error', id, host, path, url: `http://${host}${path}`, delayMs: 0, status });
  }

  addFile(host: string, path: string, contentType: string, bytes: Uint8Array): DemoFile {
    const id = this.resources.length;
    return this.register<DemoFile>({ kind: 'file', id, host, path, url: `http://${host}${path}`, delayMs: 0, contentType, bytes });
  }

  link(from: number, to: number): void {
    if (from === to) return;
    this.linkSources.push(from);
    this.linkTargets.push(to);
  }

  page(id: number): DemoPage {
    const resource = this.resources[id];
    if (resource.kind !== 'page') throw new Error(`resource ${id} is not a page`);
    return resource;
  }
}

interface SitePlan {
  host: string;
  name: string;
  topic: number;
  size: number;
  newsLike: boolean;
}

const ARTICLE_PATH_STYLES = [(section: string, slug: string) => `${section}${slug}.html`, (section: string, slug: string) => `${section}${slug}/`, (section: string, slug: string) => `${section}${slug}`];

function siteNameOf(host: string): string {
  const label = host.replace(/^www\./, '').split('.')[0];
  const sub = host.startsWith('www.') ? '' : ` ${capitalise(host.split('.')[0])}`;
  return `${label.split('-').map(capitalise).join(' ')}${sub}`;
}

/** Builds home, sections and articles of a regular (single-topic) site. */
function buildRegularSite(b: WebBuilder, plan: SitePlan, random: Random, topics: readonly Topic[]): DemoSite {
  const topic = topics[plan.topic];
  const voice = { topic, academic: false };
  const sectionCount = Math.max(1, Math.min(40, plan.size - 1, Math.round(Math.sqrt(plan.size / 3))));
  const articleTotal = Math.max(0, plan.size - 1 - sectionCount);
  const nounOrder = shuffle(random, topic.nouns.slice());
  const names: string[] = [];
  for (let s = 0; s < sectionCount; s++) {
    const noun = nounOrder[s % nounOrder.length];
    const name = s < nounOrder.length ? capitalise(noun.plural) : `${capitalise(pick(random, topic.adjectives))} ${capitalise(noun.plural)}`;
    names.push(names.includes(name) ? `${name} ${s}` : name);
  }
  const rates = plan.newsLike ? { home: 3, section: 1 } : { home: 0.2, section: 0.05 };
  const siteIndex = b.sites.length;
  const home = b.addPage({ host: plan.host, path: '/', site: siteIndex, role: 'home', section: -1, topic: plan.topic, title: plan.name, ratePerDay: rates.home });
  const sections: DemoSection[] = names.map((name) => {
    const path = `/${slugOf(name)}/`;
    const page = b.addPage({ host: plan.host, path, site: siteIndex, role: 'section', section: -1, topic: plan.topic, title: name, ratePerDay: rates.section });
    return { page: page.id, name, path, topic: plan.topic, firstArticle: 0, articleCount: 0 };
  });
  sections.forEach((s, i) => (b.page(s.page).section = i));
  const counts = apportion(articleTotal, sections.map(() => 0.3 + random()));
  const style = ARTICLE_PATH_STYLES[intBelow(random, ARTICLE_PATH_STYLES.length)];
  const usedSlugs = new Set<string>();
  sections.forEach((section, s) => {
    section.firstArticle = b.resources.length;
    section.articleCount = counts[s];
    for (let k = 0; k < counts[s]; k++) {
      const title = articleTitle(random, voice);
      let slug = slugOf(title) || 'article';
      for (let n = 2; usedSlugs.has(slug); n++) slug = `${slugOf(title) || 'article'}-${n}`;
      usedSlugs.add(slug);
      const ratePerDay = plan.newsLike ? 0.1 : logUniform(random, 0.002, 0.05);
      b.addPage({ host: plan.host, path: style(section.path, slug), site: siteIndex, role: 'article', section: s, topic: plan.topic, title, ratePerDay });
    }
  });
  const site: DemoSite = { index: siteIndex, kind: 'regular', host: plan.host, name: plan.name, topic: plan.topic, newsLike: plan.newsLike, home: home.id, sections, pageCount: b.resources.length - home.id, mirrorOf: -1 };
  b.sites.push(site);
  return site;
}

const LOCAL_GENERAL_SECTIONS = [
  { name: 'News', slug: 'news', share: 0.18, rate: 6, articleRate: 0.2 },
  { name: 'Events', slug: 'events', share: 0.05, rate: 1, articleRate: 0.05 },
  { name: 'Admissions', slug: 'admissions', share: 0.05, rate: 0.1, articleRate: 0.01 },
  { name: 'About', slug: 'about', share: 0.03, rate: 0.05, articleRate: 0.005 },
];

/** Builds the university: one section per topic department plus the general sections. */
function buildLocalSite(b: WebBuilder, host: string, size: number, random: Random, topics: readonly Topic[]): DemoSite {
  const siteIndex = b.sites.length;
  const name = siteNameOf(host);
  const home = b.addPage({ host, path: '/', site: siteIndex, role: 'home', section: -1, topic: -1, title: name, ratePerDay: 1 });
  const plans = [
    ...topics.map((t, i) => ({ name: t.department, slug: slugOf(t.department), topic: i, share: 0, rate: 0.1, articleRate: -1 })),
    ...LOCAL_GENERAL_SECTIONS.map((s) => ({ ...s, topic: -1 })),
  ];
  const sectionPages = plans.map((plan, s) =>
    b.addPage({ host, path: `/${plan.slug}/`, site: siteIndex, role: 'section', section: s, topic: plan.topic, title: plan.name, ratePerDay: plan.rate }),
  );
  const articleTotal = Math.max(plans.length, size - 1 - plans.length);
  const generalShare = LOCAL_GENERAL_SECTIONS.reduce((a, s) => a + s.share, 0);
  const counts = apportion(
    articleTotal,
    plans.map((p) => (p.topic >= 0 ? (1 - generalShare) / topics.length : p.share)),
  ).map((c) => Math.max(1, c));
  const sections: DemoSection[] = [];
  plans.forEach((plan, s) => {
    const firstArticle = b.resources.length;
    const usedSlugs = new Set<string>();
    for (let k = 0; k < counts[s]; k++) {
      const topic = plan.topic >= 0 ? plan.topic : intBelow(random, topics.length);
      const title = articleTitle(random, { topic: topics[topic], academic: true });
      let slug = slugOf(title) || 'page';
      for (let n = 2; usedSlugs.has(slug); n++) slug = `${slugOf(title) || 'page'}-${n}`;
      usedSlugs.add(slug);
      const ratePerDay = plan.articleRate >= 0 ? plan.articleRate : logUniform(random, 0.002, 0.03);
      b.addPage({ host, path: `/${plan.slug}/${slug}.html`, site: siteIndex, role: 'article', section: s, topic, title, ratePerDay });
    }
    sections.push({ page: sectionPages[s].id, name: plan.name, path: `/${plan.slug}/`, topic: plan.topic, firstArticle, articleCount: counts[s] });
  });
  const site: DemoSite = { index: siteIndex, kind: 'local', host, name, topic: -1, newsLike: false, home: home.id, sections, pageCount: b.resources.length - home.id, mirrorOf: -1 };
  b.sites.push(site);
  return site;
}

/** Copies every page of `original` to `host` (same paths, same content, same change process). */
function buildMirrorSite(b: WebBuilder, original: DemoSite, host: string): DemoSite {
  const siteIndex = b.sites.length;
  const offset = b.resources.length - original.home;
  for (let id = original.home; id < original.home + original.pageCount; id++) {
    const page = b.page(id);
    b.addPage({
      host,
      path: page.path,
      site: siteIndex,
      role: page.role,
      section: page.section,
      topic: page.topic,
      title: page.title,
      textSeed: page.textSeed,
      change: page.change,
      copyOf: id,
    });
  }
  const site: DemoSite = {
    ...original,
    index: siteIndex,
    kind: 'mirror',
    host,
    name: siteNameOf(host),
    home: original.home + offset,
    sections: original.sections.map((s) => ({ ...s, page: s.page + offset, firstArticle: s.firstArticle + offset })),
    mirrorOf: original.index,
  };
  b.sites.push(site);
  return site;
}

/** Zipf (rank^-1) sizes with log-normal jitter, scaled to `budget`, at least 3 pages each. */
function siteSizes(random: Random, count: number, budget: number): number[] {
  const raw = Array.from({ length: count }, (_, r) => Math.exp(0.25 * gaussian(random)) / (r + 1));
  const cap = Math.max(3, Math.round(budget * 0.15));
  // Rescale a few times so that the clamped sizes still add up to about `budget`.
  let scale = budget / raw.reduce((a, b) => a + b, 0);
  let sizes: number[] = [];
  for (let round = 0; round < 4; round++) {
    sizes = raw.map((x) => Math.min(cap, Math.max(3, Math.round(x * scale))));
    const free = raw.reduce((sum, x, i) => (sizes[i] > 3 && sizes[i] < cap ? sum + x : sum), 0);
    const fixed = sizes.reduce((sum, size) => (size <= 3 || size >= cap ? sum + size : sum), 0);
    if (free === 0) break;
    scale = Math.max(0, budget - fixed) / free;
  }
  return shuffle(random, sizes);
}

function pickTld(random: Random): string {
  const cumulative: number[] = [];
  let sum = 0;
  for (const [, weight] of TLD_WEIGHTS) cumulative.push((sum += weight));
  return TLD_WEIGHTS[weightedPick(random, cumulative)][0];
}

function freshDomain(random: Random, used: Set<string>, topic: Topic, tld?: string): string {
  for (let attempt = 0; ; attempt++) {
    const second = attempt < 50 ? pick(random, topic.nouns).singular : `${pick(random, topic.nouns).singular}${attempt}`;
    const domain = `${pick(random, HOST_WORDS)}-${second}.${tld ?? pickTld(random)}`;
    if (!used.has(domain)) {
      used.add(domain);
      return domain;
    }
  }
}

function validate(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`demo web option ${name} must be an integer in ${min}..${max}, got ${value}`);
  return value;
}

export function generateDemoWeb(options: DemoWebOptions = {}): DemoWeb {
  const seed = validate('seed', options.seed ?? DEFAULT_DEMO_SEED, 0, 0xffffffff);
  const hostCount = validate('hosts', options.hosts ?? 300, 16);
  const topicCount = validate('topics', options.topics ?? 10, 2, TOPICS.length);
  const pageTarget = validate('pages', options.pages ?? 20_000, hostCount * 8);
  const localPages = validate('localPages', options.localPages ?? Math.min(1000, Math.max(60, Math.round(pageTarget * 0.04))), 40, Math.floor(pageTarget / 2));
  const epochMs = options.epochMs ?? DEFAULT_DEMO_EPOCH_MS;
  const topics = TOPICS.slice(0, topicCount);
  const random = seededRandom(mixSeed(seed, 0x5eed));
  const b = new WebBuilder(seed, epochMs);
  const usedDomains = new Set<string>(['northfield-university.edu']);

  // The university and its library (same pay-level domain, another host).
  const localHost = b.addHost(DEMO_LOCAL_HOST, 'northfield-university.edu', 'local');
  const local = buildLocalSite(b, DEMO_LOCAL_HOST, localPages, random, topics);
  localHost.site = local.index;
  const libraryHost = b.addHost(DEMO_LIBRARY_HOST, 'northfield-university.edu', 'site');
  const historyTopic = topics.findIndex((t) => t.name === 'history');
  const library = buildRegularSite(b, { host: DEMO_LIBRARY_HOST, name: 'Northfield University Library', topic: historyTopic >= 0 ? historyTopic : 0, size: Math.max(12, Math.round(localPages / 20)), newsLike: false }, random, topics);
  libraryHost.site = library.index;

  // Regular sites: shuffled Zipf sizes, topics round-robin, some sharing a pay-level domain.
  const regularCount = hostCount - 4; // local, library, mirror, moved
  const sizes = siteSizes(random, regularCount, Math.max(regularCount * 3, pageTarget - localPages - library.pageCount - 80));
  const regular: DemoSite[] = [];
  for (let i = 0; i < regularCount; i++) {
    let topicIndex = i % topicCount;
    let hostName: string;
    let payLevelDomain: string;
    const base = regular.length > 10 && random() < 0.08 ? regular[intBelow(random, regular.length)] : undefined;
    const label = base && SUBDOMAIN_LABELS.find((l) => !b.hostIndex.has(`${l}.${b.hosts[b.hostIndex.get(base.host)!].payLevelDomain}`));
    if (base && label) {
      payLevelDomain = b.hosts[b.hostIndex.get(base.host)!].payLevelDomain;
      hostName = `${label}.${payLevelDomain}`;
      topicIndex = base.topic;
    } else {
      payLevelDomain = freshDomain(random, usedDomains, topics[topicIndex]);
      hostName = `www.${payLevelDomain}`;
    }
    const host = b.addHost(hostName, payLevelDomain, 'site');
    const site = buildRegularSite(b, { host: hostName, name: siteNameOf(hostName), topic: topicIndex, size: sizes[i], newsLike: random() < 0.15 || hostName.startsWith('news.') }, random, topics);
    host.site = site.index;
    regular.push(site);
  }

  // Cross-site links by preferential attachment within topics; ~4 % go to the university.
  const sitesByTopic = topics.map((_, t) => regular.filter((s) => s.topic === t).concat(library.topic === t ? [library] : []));
  const cumulativeByTopic = sitesByTopic.map((sites) => {
    let sum = 0;
    return sites.map((s) => (sum += Math.sqrt(s.pageCount)));
  });
  const attached: number[][] = topics.map(() => []);
  const pageInSite = (site: DemoSite): number => {
    const r = random();
    const withArticles = site.sections.filter((s) => s.articleCount > 0);
    if (r < 0.45 || site.sections.length === 0) return site.home;
    if (r < 0.65 || withArticles.length === 0) return pick(random, site.sections).page;
    const section = pick(random, withArticles);
    return section.firstArticle + skewedIndex(random, section.articleCount);
  };
  const localPageFor = (topic: number): number => {
    const section = local.sections.find((s) => s.topic === topic) ?? pick(random, local.sections);
    return random() < 0.4 || section.articleCount === 0 ? section.page : section.firstArticle + skewedIndex(random, section.articleCount);
  };
  const externalTarget = (fromSite: number, fromTopic: number): number => {
    if (fromSite !== local.index && random() < 0.04) return localPageFor(fromTopic);
    const topic = fromTopic >= 0 && random() < 0.8 ? fromTopic : intBelow(random, topicCount);
    for (let attempt = 0; attempt < 4; attempt++) {
      let candidate: number;
      if (attached[topic].length > 0 && random() < 0.6) candidate = pick(random, attached[topic]);
      else {
        const sites = sitesByTopic[topic];
        if (sites.length === 0) return -1;
        candidate = pageInSite(sites[weightedPick(random, cumulativeByTopic[topic])]);
      }
      if (b.page(candidate).site !== fromSite) {
        attached[topic].push(candidate);
        return candidate;
      }
    }
    return -1;
  };
  const linkOut = (from: DemoPage, count: number) => {
    for (let k = 0; k < count; k++) {
      const target = externalTarget(from.site, from.topic >= 0 ? from.topic : intBelow(random, topicCount));
      if (target >= 0) b.link(from.id, target);
    }
  };

  for (const site of shuffle(random, [local, library, ...regular])) {
    const isLocal = site === local;
    const home = b.page(site.home);
    for (const section of site.sections.slice(0, 8)) if (section.articleCount > 0) b.link(home.id, section.firstArticle);
    linkOut(home, 2 + intBelow(random, 5));
    for (const section of site.sections) {
      linkOut(b.page(section.page), intBelow(random, 2));
      for (let k = 0; k < section.articleCount; k++) {
        const article = b.page(section.firstArticle + k);
        const related = 2 + intBelow(random, 3);
        for (let r = 0; r < related && section.articleCount > 1; r++) b.link(article.id, section.firstArticle + skewedIndex(random, section.articleCount));
        if (random() < 0.3) {
          const other = pick(random, site.sections);
          if (other.articleCount > 0) b.link(article.id, other.firstArticle + skewedIndex(random, other.articleCount));
        }
        const r = random();
        linkOut(article, isLocal ? 1 + (r < 0.5 ? 1 : 0) : r < 0.45 ? 0 : r < 0.8 ? 1 : r < 0.95 ? 2 : 3);
      }
    }
  }
  b.link(local.home, library.home);
  b.link(library.home, local.home);

  // Mirror of a mid-sized outside site, linked from a few pages.
  const mirrored = regular.filter((s) => s.host.startsWith('www.')).reduce((best, s) => (Math.abs(s.pageCount - 80) < Math.abs(best.pageCount - 80) ? s : best));
  const mirrorDomain = freshDomain(random, usedDomains, topics[mirrored.topic], 'net');
  const mirrorHost = b.addHost(`www.${mirrorDomain}`, mirrorDomain, 'mirror');
  const mirror = buildMirrorSite(b, mirrored, mirrorHost.name);
  mirrorHost.site = mirror.index;
  const somePage = (exclude: (s: DemoSite) => boolean): DemoPage => {
    const candidates = regular.filter((s) => !exclude(s));
    const site = pick(random, candidates);
    return b.page(site.home + intBelow(random, site.pageCount));
  };
  for (let k = 0; k < 5; k++) b.link(somePage((s) => s === mirrored).id, k === 0 ? mirror.home : mirror.home + intBelow(random, mirror.pageCount));

  // A host that moved: its home redirects to another site.
  const movedDomain = freshDomain(random, usedDomains, topics[0], 'com');
  const movedHost = b.addHost(`www.${movedDomain}`, movedDomain, 'moved');
  const successor = pick(random, regular);
  const movedHome = b.addRedirect(movedHost.name, '/', 301, `http://${successor.host}/`);
  for (let k = 0; k < 4; k++) {
    const page = somePage(() => false);
    (page.extraLinks ??= []).push({ href: movedHome.url, text: `${siteNameOf(movedHost.name)} (now ${successor.name})` });
  }

  // Outside near-duplicates: an article republished in another section, with one extra line.
  const nearDuplicates: DemoLandmarks['nearDuplicates'] = [];
  const hostOfNearDuplicates = regular.find((s) => s !== mirrored && s.host.startsWith('www.') && s.sections.filter((x) => x.articleCount >= 2).length >= 2);
  if (hostOfNearDuplicates) {
    const [from, to] = hostOfNearDuplicates.sections.filter((x) => x.articleCount >= 2);
    for (let k = 0; k < 2; k++) {
      const original = b.page(from.firstArticle + k);
      const copy = b.addPage({
        host: original.host,
        path: `${to.path}${slugOf(original.title) || 'article'}-republished.html`,
        site: hostOfNearDuplicates.index,
        role: 'article',
        section: hostOfNearDuplicates.sections.indexOf(to),
        topic: original.topic,
        title: original.title,
        textSeed: original.textSeed,
        change: original.change,
        nearDuplicateOf: original.id,
        note: `Republished from our ${from.name} section.`,
      });
      b.link(hostOfNearDuplicates.home, copy.id);
      nearDuplicates.push({ url: copy.url, of: original.url });
    }
  }

  // Slow outside articles.
  const slowPages: DemoLandmarks['slowPages'] = [];
  for (const site of regular.filter((s) => s.sections.some((x) => x.articleCount > 0)).slice(0, 2)) {
    const page = b.page(site.sections.find((x) => x.articleCount > 0)!.firstArticle);
    page.delayMs = 1500;
    slowPages.push({ url: page.url, delayMs: page.delayMs });
  }

  const specials = addLocalSpecials(b, local, library, regular, topics, random);
  slowPages.unshift(...specials.slowPages);

  // robots.txt per host.
  const byMidSize = regular.filter((s) => s !== mirrored && s.pageCount >= 5 && !slowPages.some((p) => p.url.startsWith(`http://${s.host}/`))).sort((x, y) => x.pageCount - y.pageCount || x.index - y.index);
  // Five distinct mid-sized hosts (sites of 5+ pages, neither mirrored nor slow).
  const step = Math.max(1, Math.floor(byMidSize.length * 0.05));
  const midSized = (k: number) => byMidSize[Math.min(byMidSize.length - 1, Math.floor(byMidSize.length * 0.3) + k * step)];
  const crawlDelayed = [midSized(0), midSized(1), midSized(2)];
  const robotsNotFound = midSized(3);
  const robotsServerError = midSized(4);
  for (const host of b.hosts) {
    const site = host.site >= 0 ? b.sites[host.site] : undefined;
    host.robots = robotsFor(host, site, random);
  }
  b.hosts[b.hostIndex.get(robotsServerError.host)!].robots = { status: 500, body: 'Internal Server Error\n' };
  b.hosts[b.hostIndex.get(robotsNotFound.host)!].robots = { status: 404, body: 'Not Found\n' };
  crawlDelayed.forEach((site, k) => {
    const host = b.hosts[b.hostIndex.get(site.host)!];
    host.crawlDelaySeconds = k === 2 ? 2 : 1;
    host.robots = { status: 200, body: `# ${host.name}\nUser-agent: *\nCrawl-delay: ${host.crawlDelaySeconds}\nDisallow: /search\n` };
  });

  const traps: DemoTrap[] = [
    { kind: 'calendar', host: DEMO_LOCAL_HOST, entryPath: '/calendar/2026/11/' },
    { kind: 'repeating-path', host: DEMO_LOCAL_HOST, entryPath: '/archive/', segment: 'archive' },
  ];

  const landmarks: DemoLandmarks = {
    localHost: DEMO_LOCAL_HOST,
    libraryHost: DEMO_LIBRARY_HOST,
    mirrorHost: mirrorHost.name,
    mirroredHost: mirrored.host,
    movedHost: movedHost.name,
    robotsServerErrorHost: robotsServerError.host,
    robotsNotFoundHost: robotsNotFound.host,
    crawlDelayHosts: crawlDelayed.map((s) => s.host),
    robotsDisallowedPages: specials.privatePages,
    ...specials.landmarks,
    redirects: { ...specials.landmarks.redirects, movedHostHome: movedHome.url },
    slowPages,
    nearDuplicates,
    calendarTrap: `http://${DEMO_LOCAL_HOST}/calendar/2026/11/`,
    repeatingPathTrap: `http://${DEMO_LOCAL_HOST}/archive/`,
  };

  const resources = b.resources;
  return {
    seed,
    epochMs,
    topics,
    hosts: b.hosts,
    sites: b.sites,
    resources,
    hostIndex: b.hostIndex,
    urlIndex: b.urlIndex,
    contentLinks: buildGraph(resources.length, b.linkSources, b.linkTargets),
    traps,
    localHost: DEMO_LOCAL_HOST,
    seedUrl: DEMO_SEED_URL,
    landmarks,
  };
}

function robotsFor(host: DemoHost, site: DemoSite | undefined, random: Random): DemoRobots {
  if (host.role === 'local') {
    return { status: 200, body: `# robots.txt for ${host.name}\nUser-agent: BadBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nDisallow: /search\n` };
  }
  const r = random();
  const header = `# robots.txt for ${host.name}\n`;
  if (r < 0.35) return { status: 200, body: `${header}User-agent: *\nDisallow: /search\nDisallow: /cart/\n` };
  if (r < 0.45 && site && site.sections.length >= 2) {
    return { status: 200, body: `${header}User-agent: *\nDisallow: ${site.sections[site.sections.length - 1].path}\n` };
  }
  if (r < 0.55) return { status: 200, body: `${header}User-agent: BadBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n` };
  if (r < 0.65) return { status: 200, body: `${header}User-agent: *\nDisallow:\n` };
  return { status: 200, body: `${header}User-agent: *\nDisallow: /admin/\n\nSitemap: http://${host.name}/sitemap.xml\n` };
}

/** The university's special cases (see the module comment). */
function addLocalSpecials(b: WebBuilder, local: DemoSite, library: DemoSite, regular: DemoSite[], topics: readonly Topic[], random: Random) {
  const host = local.host;
  const url = (path: string) => `http://${host}${path}`;
  const section = (slug: string) => {
    const index = local.sections.findIndex((s) => s.path === `/${slug}/`);
    return { index, section: local.sections[index], page: b.page(local.sections[index].page) };
  };
  const about = section('about');
  const admissions = section('admissions');
  const events = section('events');
  const news = section('news');
  const astronomy = local.sections.findIndex((s) => s.topic === 0);
  const home = b.page(local.home);
  const extra = (page: DemoPage, ...links: DemoRawLink[]) => (page.extraLinks ??= []).push(...links);
  const special = (path: string, title: string, sectionIndex: number, fields: Partial<PageFields> = {}) =>
    b.addPage({ host, path, site: local.index, role: 'special', section: sectionIndex, topic: -1, title, ...fields });

  // Exact duplicate of the home page.
  const indexHtml = b.addPage({ host, path: '/index.html', site: local.index, role: 'home', section: -1, topic: -1, title: home.title, textSeed: home.textSeed, change: home.change, copyOf: home.id });
  extra(about.page, { href: '/index.html', text: 'Home page (index.html)' });

  // Pages robots.txt disallows.
  const privatePages = ['staff-directory', 'exam-drafts', 'budget-2027'].map((slug) => special(`/private/${slug}.html`, titleCase(slug.replace(/-/g, ' ')), about.index, { ratePerDay: 0.01 }));
  extra(about.page, ...privatePages.map((p) => ({ href: p.path, text: p.title })));
  const searchPage = special('/search?q=telescope', 'Search results for telescope', -1, { body: 'search-results' });
  extra(home, { href: searchPage.path, text: 'Search the site for telescope' });

  // Redirects.
  const permanent = b.addRedirect(host, '/about-us', 301, url('/about/'));
  const relative = b.addRedirect(host, '/admissions/apply-now', 302, '/admissions/');
  const chainEnd = admissions.section.articleCount > 0 ? b.page(admissions.section.firstArticle) : admissions.page;
  const chain = [b.addRedirect(host, '/go/prospectus', 301, url('/go/prospectus-2025')), b.addRedirect(host, '/go/prospectus-2025', 302, url('/go/prospectus-2026')), b.addRedirect(host, '/go/prospectus-2026', 301, chainEnd.url)];
  const toLibrary = b.addRedirect(host, '/library', 301, `http://${library.host}/`);
  const astronomySites = regular.filter((s) => s.topic === 0).sort((x, y) => y.pageCount - x.pageCount || x.index - y.index);
  const observatoryTarget = astronomySites[0] ?? regular[0];
  const crossHost = b.addRedirect(host, '/observatory', 302, `http://${observatoryTarget.host}/`);
  const loop = [b.addRedirect(host, '/loop/a', 302, url('/loop/b')), b.addRedirect(host, '/loop/b', 302, url('/loop/a'))];
  extra(home, { href: permanent.path, text: 'About us' }, { href: toLibrary.path, text: 'Library' });
  extra(admissions.page, { href: relative.path, text: 'Apply now' }, { href: chain[0].path, text: 'Download the prospectus' });
  extra(events.page, { href: loop[0].path, text: 'Event feed' });
  extra(astronomy >= 0 ? b.page(local.sections[astronomy].page) : home, { href: crossHost.path, text: 'Our observatory partner' });

  // Errors linked from pages.
  const notFound = b.addError(host, '/people/emeritus-professor.html', 404);
  const gone = b.addError(host, '/events/open-day-2019.html', 410);
  const serverError = b.addError(host, '/cgi-bin/course-search', 500);
  extra(about.page, { href: notFound.path, text: 'Emeritus professor' });
  extra(events.page, { href: gone.path, text: 'Open day 2019' });
  extra(admissions.page, { href: serverError.path, text: 'Course search' });

  // Slow pages.
  const slowPages: DemoLandmarks['slowPages'] = [];
  [3, 7, 11].forEach((k, i) => {
    const target = news.section.articleCount > 0 ? b.page(news.section.firstArticle + (k % news.section.articleCount)) : privatePages[i];
    if (target.delayMs > 0) return;
    target.delayMs = 1000 * (i + 1);
    slowPages.push({ url: target.url, delayMs: target.delayMs });
  });

  // Non-HTML files and a very large page.
  const pdf = b.addFile(host, '/files/prospectus-2026.pdf', 'application/pdf', pdfLikeBytes(mixSeed(b.seed, 1)));
  const pdfNoExtension = b.addFile(host, '/downloads/annual-report', 'application/pdf', pdfLikeBytes(mixSeed(b.seed, 2), 9_000));
  const image = b.addFile(host, '/images/campus-map.png', 'image/png', pngBytes(48, 32, mixSeed(b.seed, 3)));
  const text = b.addFile(host, '/files/timetable.txt', 'text/plain; charset=utf-8', new TextEncoder().encode(timetable(random, topics)));
  const huge = special('/reports/course-catalogue-full.html', 'Full course catalogue', admissions.index, { body: 'huge' });
  extra(admissions.page, { href: pdf.path, text: 'Prospectus 2026 (PDF)' }, { href: pdfNoExtension.path, text: 'Annual report' }, { href: text.path, text: 'Timetable (text)' }, { href: huge.path, text: 'Full course catalogue' });
  extra(about.page, { href: image.path, text: 'Campus map' });

  // Legacy charsets.
  const charsetInHeader = special('/international/cafe-menu.html', 'Café menu: crème brûlée, müesli and “smart quotes” — €5', -1, { charset: { name: 'windows-1252', declaredIn: 'header' }, body: 'charset' });
  const charsetInMeta = special('/international/exchange-munchen.html', 'Exchange with München: Über die Universität ©', -1, { charset: { name: 'iso-8859-1', declaredIn: 'meta' }, body: 'charset' });
  extra(home, { href: charsetInHeader.path, text: 'Café menu' }, { href: charsetInMeta.path, text: 'Exchange with München' });

  // Robots meta and rel=nofollow.
  const noindex = special('/about/draft-handbook.html', 'Draft staff handbook', about.index, { robotsMeta: 'noindex', ratePerDay: 0.02 });
  const partnerTargets = shuffle(random, regular.slice()).slice(0, 6);
  const nofollowMeta = special('/about/partners.html', 'Our partners', about.index, {
    robotsMeta: 'nofollow',
    extraLinks: partnerTargets.map((s) => ({ href: `http://${s.host}/`, text: s.name })),
  });
  const guestbookTargets = shuffle(random, regular.slice()).slice(0, 3);
  const relNofollow = special('/about/guestbook.html', 'Guestbook', about.index, {
    ratePerDay: 0.5,
    extraLinks: [...guestbookTargets.map((s) => ({ href: `http://${s.host}/`, text: `Visit ${s.name}`, rel: 'nofollow ugc' })), { href: '/about/', text: 'Back to About' }],
  });
  extra(about.page, { href: noindex.path, text: noindex.title }, { href: nofollowMeta.path, text: nofollowMeta.title }, { href: relNofollow.path, text: relNofollow.title });

  // Print versions: near-duplicates with rel=canonical.
  const canonicals: DemoLandmarks['canonicals'] = [];
  for (let k = 0; k < Math.min(3, news.section.articleCount); k++) {
    const article = b.page(news.section.firstArticle + k);
    const print = b.addPage({
      host,
      path: `${article.path}?print=1`,
      site: local.index,
      role: 'special',
      section: news.index,
      topic: article.topic,
      title: article.title,
      textSeed: article.textSeed,
      change: article.change,
      canonical: article.url,
      nearDuplicateOf: article.id,
      note: 'Printer-friendly version.',
    });
    extra(article, { href: print.path, text: 'Print this page' });
    canonicals.push({ url: print.url, canonical: article.url });
  }

  // <base href>, a zoo of odd links, and text that must be escaped.
  const help = [special('/help/intro.html', 'Introduction to the website', -1), special('/help/faq.html', 'Frequently asked questions', -1, { body: 'link-zoo' })];
  const baseHref = special('/help/guide/', 'Website guide', -1, {
    baseHref: url('/help/'),
    body: 'base-href',
    extraLinks: [{ href: 'intro.html', text: 'Introduction' }, { href: 'faq.html', text: 'FAQ' }, { href: '../news/', text: 'News' }],
  });
  extra(help[1], { href: '#top', text: 'Back to top' }, { href: 'mailto:webmaster@northfield-university.edu', text: 'Email the webmaster' }, { href: 'tel:+15550100', text: 'Call us' }, { href: 'javascript:void(0)', text: 'Open chat' }, { href: `HTTP://${host.toUpperCase()}:80/news/#latest`, text: 'Latest news' }, { href: '  /admissions/  ', text: 'Admissions' }, { href: `//${library.host}/`, text: 'Library (protocol-relative)' }, { href: 'guide/', text: 'Website guide' });
  const scriptEscaping = special('/help/search-tips.html', 'Search tips: <b>bold</b> & "quotes" <script>alert(1)</script>', -1, { body: 'script-escaping' });
  extra(home, { href: baseHref.path, text: 'Website guide' }, { href: scriptEscaping.path, text: 'Search tips' });

  // Spider traps.
  extra(events.page, { href: '/calendar/2026/11/', text: 'Events calendar' });
  extra(news.page, { href: '/archive/', text: 'News archive' });

  return {
    privatePages: privatePages.map((p) => p.url),
    slowPages,
    landmarks: {
      redirects: { permanent: permanent.url, relativeLocation: relative.url, chain: chain.map((r) => r.url), toLibraryHost: toLibrary.url, crossHost: crossHost.url, loop: loop.map((r) => r.url) },
      errors: { notFound: notFound.url, gone: gone.url, serverError: serverError.url },
      files: { pdf: pdf.url, pdfWithoutExtension: pdfNoExtension.url, image: image.url, text: text.url },
      hugePage: huge.url,
      charsetInHeader: charsetInHeader.url,
      charsetInMeta: charsetInMeta.url,
      noindex: noindex.url,
      nofollowMeta: nofollowMeta.url,
      relNofollow: relNofollow.url,
      canonicals,
      baseHref: baseHref.url,
      linkZoo: help[1].url,
      scriptEscaping: scriptEscaping.url,
      exactDuplicate: { url: indexHtml.url, of: home.url },
      frequentlyChanging: news.page.url,
    },
  };
}

function timetable(random: Random, topics: readonly Topic[]): string {
  const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
  const lines = ['Northfield University lecture timetable', ''];
  for (const day of days) {
    for (let slot = 0; slot < 3; slot++) {
      const topic = pick(random, topics);
      lines.push(`${day}\t${9 + slot * 2}:00\t${topic.department}: ${capitalise(pick(random, topic.nouns).plural)}\tRoom ${100 + intBelow(random, 300)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The resource answering `http://host/path`, if any (exact URL as generated). */
export function findDemoResource(web: DemoWeb, url: string): DemoResource | undefined {
  const id = web.urlIndex.get(url);
  return id === undefined ? undefined : web.resources[id];
}

export interface DemoTrapPage {
  trap: DemoTrap;
  title: string;
  links: DemoRawLink[];
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The spider-trap page at `host` + `path`, if the path is inside a trap (traps are infinite). */
export function demoTrapPageAt(web: DemoWeb, host: string, path: string): DemoTrapPage | undefined {
  for (const trap of web.traps) {
    if (trap.host !== host) continue;
    if (trap.kind === 'calendar') {
      const match = /^\/calendar\/(\d{4})\/(\d{2})\/$/.exec(path);
      if (!match) continue;
      const year = Number(match[1]);
      const month = Number(match[2]);
      if (year < 1000 || month < 1 || month > 12) continue;
      const at = (y: number, m: number) => `/calendar/${String(y).padStart(4, '0')}/${String(m).padStart(2, '0')}/`;
      const previous = month === 1 ? at(year - 1, 12) : at(year, month - 1);
      const next = month === 12 ? at(year + 1, 1) : at(year, month + 1);
      return {
        trap,
        title: `Events calendar: ${MONTHS[month - 1]} ${year}`,
        links: [
          { href: previous, text: '« Previous month' },
          { href: next, text: 'Next month »' },
          { href: '/events/', text: 'Events' },
          { href: '/', text: 'Home' },
        ],
      };
    }
    const pattern = new RegExp(`^/${trap.segment}/(${trap.segment}/)*$`);
    if (pattern.test(path)) {
      const depth = path.split('/').length - 2;
      return {
        trap,
        title: `Archive (level ${depth})`,
        links: [
          { href: `${trap.segment}/`, text: 'Older items' },
          { href: '/news/', text: 'News' },
          { href: '/', text: 'Home' },
        ],
      };
    }
  }
  return undefined;
}

export interface ContentVersion {
  /** Number of change events up to the time asked (0 = as created). */
  version: number;
  /** Time of the last change event (or creation), ms since the Unix epoch. */
  lastModifiedMs: number;
  /** Weak ETag, equal exactly when the version is. */
  etag: string;
}

interface ChangeCursor {
  random: Random;
  version: number;
  lastEventMs: number;
  nextEventMs: number;
}

const changeCursors = new WeakMap<DemoChangeProcess, ChangeCursor>();

function freshCursor(change: DemoChangeProcess): ChangeCursor {
  const random = seededRandom(change.seed);
  const cursor = { random, version: 0, lastEventMs: change.createdMs, nextEventMs: change.startMs };
  advance(change, cursor);
  return cursor;
}

function advance(change: DemoChangeProcess, cursor: ChangeCursor): void {
  if (!(change.ratePerDay > 0)) {
    cursor.nextEventMs = Number.POSITIVE_INFINITY;
    return;
  }
  // Exponential inter-arrival times: a Poisson process of rate λ per day.
  cursor.nextEventMs += (-Math.log(1 - cursor.random()) / change.ratePerDay) * DAY_MS;
}

/**
 * The version of a page's content at `timeMs`: the number of its Poisson change events in
 * (startMs, timeMs]. Pure; memoised per change process so that a monotone clock costs O(1)
 * amortised (a clock that goes back restarts the count).
 */
export function contentVersion(page: DemoPage, timeMs: number): ContentVersion {
  const change = page.change;
  let cursor = changeCursors.get(change);
  if (!cursor || timeMs < cursor.lastEventMs) {
    cursor = freshCursor(change);
    changeCursors.set(change, cursor);
  }
  while (cursor.nextEventMs <= timeMs) {
    cursor.version++;
    cursor.lastEventMs = cursor.nextEventMs;
    advance(change, cursor);
  }
  const { version, lastEventMs } = cursor;
  return { version, lastModifiedMs: Math.floor(lastEventMs / 1000) * 1000, etag: `W/"${page.id.toString(36)}-${change.seed.toString(36)}-${version}"` };
}
