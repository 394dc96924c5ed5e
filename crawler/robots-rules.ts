/**
 * One robots.txt file, parsed for one user-agent, with RFC 9309 matching.
 *
 * Matching is done by `robots-parser` (Google's longest-match algorithm, `*` and `$`, Allow wins
 * ties, case-insensitive directive names, specific group over `*`, groups for one agent merged).
 * It deviates from RFC 9309 (and Google's reference parser) in ways we compensate for here by
 * rewriting the file into a canonical form before handing it over, and the URL path likewise:
 *  1. User-agent lines are matched whole (`User-agent: lse-bot/1.0 (+url)` → "lse-bot/1.0 (+url)"
 *     only loses the version); RFC 9309 §2.2.1 matches the product token, the leading run of
 *     `[a-zA-Z_-]`. We rewrite each user-agent value to its lower-cased product token.
 *  2. Percent-encoding: the parser does not decode escapes of unreserved characters, so
 *     `Disallow: /%62%61%7A` misses `/baz` (RFC 9309 §2.2.2 says they are equal). We bring
 *     patterns and paths to one form: unreserved escapes decoded, other escapes upper-cased,
 *     non-ASCII as UTF-8 escapes.
 *  3. Sitemap and unknown lines end a group of user-agent lines in the parser, so
 *     `User-agent: a / Sitemap: … / User-agent: b / Disallow: /` would not apply to `a`. They are
 *     not part of the group syntax (RFC 9309 §2.2; Google ignores them), so we drop them
 *     (sitemaps are collected separately).
 *  4. `/robots.txt` itself is always allowed (RFC 9309 §2.2.2).
 *  5. Only the first 500 KiB are parsed (RFC 9309 §2.5 requires at least that much).
 *  6. Google also accepts a missing colon (`Disallow /x`) and a few misspellings of the
 *     directive names; we accept the same, as Google's conformance tests expect.
 *  7. Crawl-delay values that are not finite non-negative numbers are ignored.
 */
import robotsParserModule from 'robots-parser';

// The package is CommonJS (`module.exports = function`), but its typings declare an ES default
// export, so under NodeNext TypeScript types the default import as the module object.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

export const ROBOTS_MAX_BYTES = 500 * 1024;

export type RobotsRulesKind = 'parsed' | 'allow-all' | 'disallow-all';

export interface RobotsRules {
  readonly kind: RobotsRulesKind;
  /** True when our user-agent may fetch `url` (a URL of the origin the file belongs to). */
  isAllowed(url: string): boolean;
  /** Crawl-delay of our group (or of `*` when we have no group), in seconds. */
  readonly crawlDelaySeconds: number | undefined;
  readonly sitemaps: readonly string[];
}

export const ALLOW_ALL: RobotsRules = { kind: 'allow-all', isAllowed: () => true, crawlDelaySeconds: undefined, sitemaps: [] };
export const DISALLOW_ALL: RobotsRules = {
  kind: 'disallow-all',
  isAllowed: (url: string) => isRobotsTxtPath(url),
  crawlDelaySeconds: undefined,
  sitemaps: [],
};

export interface RobotsParseOptions {
  /** Our product token, e.g. `lse-bot` (a version or comment after it is ignored). */
  readonly userAgent: string;
  /** The origin the file was fetched from, e.g. `https://example.org`. */
  readonly origin: string;
  readonly maxBytes?: number;
}

/** Parses a robots.txt body (bytes are decoded as UTF-8; a BOM is dropped). */
export function parseRobotsTxt(content: string | Uint8Array, options: RobotsParseOptions): RobotsRules {
  const text = truncatedText(content, options.maxBytes ?? ROBOTS_MAX_BYTES);
  const { canonical, sitemaps } = canonicalRobotsTxt(text);
  const origin = new URL(options.origin).origin;
  const agent = productToken(options.userAgent) ?? '*';
  const robot = robotsParser(`${origin}/robots.txt`, canonical);
  const delay = robot.getCrawlDelay(agent);
  return {
    kind: 'parsed',
    crawlDelaySeconds: typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? delay : undefined,
    sitemaps,
    isAllowed(url: string): boolean {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return false;
      }
      if (parsed.pathname === '/robots.txt') return true;
      const path = normalizeRobotsPath(parsed.pathname + parsed.search);
      // The parser answers undefined for a URL of another origin: that is a caller's bug.
      return robot.isAllowed(`${parsed.origin}${path}`, agent) === true;
    },
  };
}

/**
 * The product token of a user-agent value (RFC 9309 §2.2.1): the leading run of letters, `_` and
 * `-`, lower-cased; `*` for the wildcard; null when there is none.
 */
export function productToken(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.startsWith('*')) return '*';
  const match = /^[A-Za-z_-]+/.exec(trimmed);
  return match ? match[0].toLowerCase() : null;
}

const DIRECTIVES: Record<string, 'user-agent' | 'allow' | 'disallow' | 'crawl-delay' | 'sitemap'> = {
  'user-agent': 'user-agent',
  useragent: 'user-agent',
  'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  'crawl-delay': 'crawl-delay',
  crawldelay: 'crawl-delay',
  sitemap: 'sitemap',
  'site-map': 'sitemap',
};

/** Rewrites a robots.txt into the canonical form described at the top of this file. */
export function canonicalRobotsTxt(text: string): { canonical: string; sitemaps: string[] } {
  const lines: string[] = [];
  const sitemaps: string[] = [];
  for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const hash = rawLine.indexOf('#');
    const line = (hash >= 0 ? rawLine.slice(0, hash) : rawLine).trim();
    if (line === '') continue;
    const pair = keyAndValue(line);
    if (!pair) continue;
    const directive = DIRECTIVES[pair.key];
    switch (directive) {
      case 'user-agent': {
        const token = productToken(pair.value);
        if (token) lines.push(`user-agent: ${token}`);
        break;
      }
      case 'allow':
      case 'disallow':
        lines.push(`${directive}: ${normalizeRobotsPath(pair.value)}`);
        break;
      case 'crawl-delay': {
        const seconds = Number(pair.value);
        if (pair.value !== '' && Number.isFinite(seconds) && seconds >= 0) lines.push(`crawl-delay: ${seconds}`);
        break;
      }
      case 'sitemap':
        if (pair.value !== '') sitemaps.push(pair.value);
        break;
      default:
        break;
    }
  }
  return { canonical: lines.join('\n'), sitemaps };
}

function keyAndValue(line: string): { key: string; value: string } | null {
  const colon = line.indexOf(':');
  if (colon >= 0) return { key: line.slice(0, colon).trim().toLowerCase().replace(/\s+/g, ' '), value: line.slice(colon + 1).trim() };
  // Google's parser accepts `Disallow /path` when the key is a known directive.
  const match = /^(\S+)\s+(\S.*)$/.exec(line);
  if (match && DIRECTIVES[match[1].toLowerCase()]) return { key: match[1].toLowerCase(), value: match[2].trim() };
  return null;
}

// Characters that stay literal in a canonical path: unreserved, sub-delims minus `'` (which the
// URL parser escapes in queries), `:`, `@`, `/`, `?`, `%`, and the robots wildcards `*` and `$`.
const LITERAL = /[A-Za-z0-9\-._~!$&()*+,;=:@/?]/;
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * One spelling for a path (and query) or a path pattern, so that equivalent percent-encodings
 * compare equal (RFC 9309 §2.2.2): `%62` → `b`, `%2f` → `%2F`, `ツ` → `%E3%83%84`, `'` → `%27`.
 */
export function normalizeRobotsPath(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; ) {
    const char = path[i];
    if (char === '%' && /^[0-9a-fA-F]{2}$/.test(path.slice(i + 1, i + 3))) {
      const decoded = String.fromCharCode(parseInt(path.slice(i + 1, i + 3), 16));
      out += UNRESERVED.test(decoded) ? decoded : path.slice(i, i + 3).toUpperCase();
      i += 3;
      continue;
    }
    const codePoint = path.codePointAt(i) ?? 0;
    const symbol = String.fromCodePoint(codePoint);
    if (LITERAL.test(symbol)) out += symbol;
    else if (codePoint >= 0xd800 && codePoint <= 0xdfff) out += '%EF%BF%BD'; // a lone surrogate
    else out += encodeURIComponent(symbol).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    i += symbol.length;
  }
  return out;
}

function isRobotsTxtPath(url: string): boolean {
  try {
    return new URL(url).pathname === '/robots.txt';
  } catch {
    return false;
  }
}

function truncatedText(content: string | Uint8Array, maxBytes: number): string {
  let bytes: Uint8Array;
  if (typeof content === 'string') {
    if (content.length * 3 <= maxBytes) return content;
    bytes = Buffer.from(content, 'utf8');
  } else {
    bytes = content;
  }
  const kept = bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes;
  return new TextDecoder('utf-8').decode(kept);
}
