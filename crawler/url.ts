/**
 * URL normalisation and URL rules for the crawler: one canonical string per resource, and a
 * reason whenever a URL is refused (bad scheme, too long or deep, spider traps, dynamic URLs).
 *
 * Parsing is WHATWG `URL`, which already lower-cases scheme and host, drops default ports,
 * resolves dot segments, turns IDNs into punycode and percent-encodes what must be encoded.
 * On top of that we drop fragments and credentials, normalise percent-escapes, strip tracking
 * parameters and session ids, and apply the trap guards.
 */

export type UrlRejection =
  | 'invalid'
  | 'scheme'
  | 'too-long'
  | 'too-deep'
  | 'trap-repeat'
  | 'trap-calendar'
  | 'trap-query'
  | 'query-skipped';

export type UrlCheck = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: UrlRejection };

export interface UrlRules {
  /** Drop utm_*, gclid, fbclid and other click-tracking query parameters. */
  readonly stripTracking: boolean;
  /** Drop session ids: `;jsessionid=…` path parameters and jsessionid / PHPSESSID / sid / … query parameters. */
  readonly stripSessionIds: boolean;
  /** Sort query parameters by name (stable), so `?b=1&a=2` and `?a=2&b=1` are one URL. */
  readonly sortQuery: boolean;
  /** Davis & Dhillon's crawls skipped every URL containing `?`, `*`, `@` or `=` (dynamic pages). */
  readonly skipDynamic: boolean;
  /** Longest accepted URL, in characters, after normalisation. */
  readonly maxLength: number;
  /** Most non-empty path segments. */
  readonly maxPathDepth: number;
  /** Longest accepted query string (without `?`), after tracking and session ids are removed. */
  readonly maxQueryLength: number;
  /** A path segment appearing this many times is a trap (`/a/b/a/b/a/b`, `/x/x/x`). */
  readonly maxSegmentRepeats: number;
  /** A date path/query this many years after `now` is a calendar trap. */
  readonly calendarYearsAhead: number;
  /** A date path/query this many years before `now` is a calendar trap (archives are usually younger). */
  readonly calendarYearsBack: number;
  /** Milliseconds since the epoch, for the calendar guard (injectable for tests). */
  readonly now: number;
}

export const DEFAULT_URL_RULES: Omit<UrlRules, 'now'> = {
  stripTracking: true,
  stripSessionIds: true,
  sortQuery: false,
  skipDynamic: false,
  maxLength: 2048,
  maxPathDepth: 16,
  maxQueryLength: 512,
  maxSegmentRepeats: 3,
  calendarYearsAhead: 2,
  calendarYearsBack: 40,
};

export function urlRules(overrides: Partial<UrlRules> = {}): UrlRules {
  return { ...DEFAULT_URL_RULES, now: Date.now(), ...overrides };
}

/**
 * Resolves `href` as a browser would: against `<base href>` when the page has one (itself
 * resolved against the page URL), else against the page URL. Returns the absolute URL without
 * its fragment, or null when it cannot be resolved. No crawl rules are applied here.
 */
export function resolveLink(href: string, pageUrl: string, baseHref?: string | null): string | null {
  return linkResolver(pageUrl, baseHref)(href);
}

/**
 * {@link resolveLink} for the links of one page: the base is parsed once, not once per link.
 */
export function linkResolver(pageUrl: string, baseHref?: string | null): (href: string) => string | null {
  let base: URL;
  try {
    base = new URL(pageUrl);
    if (baseHref != null && baseHref.trim() !== '') base = new URL(baseHref, base);
  } catch {
    return () => null;
  }
  return (href) => {
    let absolute: string;
    try {
      absolute = new URL(href, base).href;
    } catch {
      return null;
    }
    // A serialised URL has a `#` only where its fragment starts.
    const hash = absolute.indexOf('#');
    return hash < 0 ? absolute : absolute.slice(0, hash);
  };
}

/** Resolves a link (see {@link resolveLink}) and normalises it with the crawl rules. */
export function normalizeLink(href: string, pageUrl: string, baseHref: string | null | undefined, rules: UrlRules): UrlCheck {
  const absolute = resolveLink(href, pageUrl, baseHref);
  return absolute === null ? { ok: false, reason: 'invalid' } : normalizeUrl(absolute, rules);
}

/** Normalises an absolute URL and applies the crawl rules. */
export function normalizeUrl(input: string, rules: UrlRules = urlRules()): UrlCheck {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'scheme' };
  if (url.hostname === '') return { ok: false, reason: 'invalid' };
  // Credentials in links are almost always mistakes or phishing; a crawler never sends them.
  url.username = '';
  url.password = '';
  url.hash = '';
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.replace(/\.+$/, '');

  let path = normalizePercentEncoding(url.pathname);
  if (rules.stripSessionIds) path = path.replace(SESSION_PATH_PARAMETER, '');
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.length > rules.maxPathDepth) return { ok: false, reason: 'too-deep' };
  if (hasRepeatedSegments(segments, rules.maxSegmentRepeats)) return { ok: false, reason: 'trap-repeat' };

  const query = normalizeQuery(url.search, rules);
  if (query.length > rules.maxQueryLength) return { ok: false, reason: 'trap-query' };
  if (isFarCalendarDate(segments, query, rules)) return { ok: false, reason: 'trap-calendar' };

  const href = `${url.protocol}//${url.host}${path}${query === '' ? '' : `?${query}`}`;
  if (rules.skipDynamic && /[?*@=]/.test(href.slice(url.protocol.length + 2 + url.host.length))) {
    return { ok: false, reason: 'query-skipped' };
  }
  if (href.length > rules.maxLength) return { ok: false, reason: 'too-long' };
  return { ok: true, url: href };
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Upper-cases percent-escapes and decodes the ones that stand for unreserved characters (RFC 3986 §6.2.2). */
export function normalizePercentEncoding(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

// `;jsessionid=ABC` (Java servlets) and friends, up to the next `/`, `;` or the end.
const SESSION_PATH_PARAMETER = /;(?:jsessionid|phpsessid|sid|sessionid)=[^/;]*/gi;

const SESSION_PARAMETERS = new Set(['jsessionid', 'phpsessid', 'sid', 'sessionid', 'session_id', 'sessid', 'cfid', 'cftoken', 'zenid', 'oscsid']);
const TRACKING_PARAMETERS = new Set([
  'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'yclid', 'twclid', 'ttclid', 'igshid',
  'mc_cid', 'mc_eid', '_ga', '_gl', '_hsenc', '_hsmi', 'mkt_tok', 'li_fat_id', 'rb_clickid', 's_cid', 'vero_id',
  'oly_anon_id', 'oly_enc_id', 'wickedid', 'ref_src',
]);

function isTrackingParameter(name: string): boolean {
  return name.startsWith('utm_') || TRACKING_PARAMETERS.has(name);
}

function isSessionParameter(name: string): boolean {
  return SESSION_PARAMETERS.has(name) || name.startsWith('aspsessionid');
}

/**
 * The query without `?`: empty pairs dropped, tracking and session parameters removed, optionally
 * sorted. Pairs are kept as raw text (re-serialising with URLSearchParams would change `%20` to
 * `+` and other encodings, creating new spellings of the same URL).
 */
function normalizeQuery(search: string, rules: UrlRules): string {
  if (search.length <= 1) return '';
  const pairs: string[] = [];
  for (const pair of normalizePercentEncoding(search.slice(1)).split('&')) {
    if (pair === '') continue;
    const name = parameterName(pair);
    if (rules.stripTracking && isTrackingParameter(name)) continue;
    if (rules.stripSessionIds && isSessionParameter(name)) continue;
    pairs.push(pair);
  }
  if (rules.sortQuery) pairs.sort((a, b) => compareStrings(parameterName(a), parameterName(b)));
  return pairs.join('&');
}

function parameterName(pair: string): string {
  const equals = pair.indexOf('=');
  const raw = equals < 0 ? pair : pair.slice(0, equals);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Spider traps made of repeated path segments: one segment `limit`+ times (`/x/x/x`,
 * `/a/b/a/b/a/b`), or a block of two or more segments repeated back to back (`/a/b/a/b`), the
 * signature of a relative link resolved against the wrong base again and again.
 */
export function hasRepeatedSegments(segments: readonly string[], limit: number): boolean {
  const counts = new Map<string, number>();
  for (const segment of segments) {
    const count = (counts.get(segment) ?? 0) + 1;
    if (count >= limit) return true;
    counts.set(segment, count);
  }
  for (let width = 2; width * 2 <= segments.length; width++) {
    for (let start = 0; start + 2 * width <= segments.length; start++) {
      let same = true;
      for (let k = 0; k < width && same; k++) same = segments[start + k] === segments[start + width + k];
      if (same) return true;
    }
  }
  return false;
}

// Separators are required: bare digit runs (`/item/20881123`) are more often ids than dates.
const DATE_IN_SEGMENT = /(?:^|[^0-9])([12][0-9]{3})[-_.](0[1-9]|1[0-2])(?:[-_.](0[1-9]|[12][0-9]|3[01]))?(?:[^0-9]|$)/;
const YEAR_NAMES = new Set(['year', 'yr', 'y', 'jahr', 'annee']);
const MONTH_NAMES = new Set(['month', 'mon', 'm', 'mo', 'monat', 'mois']);

/**
 * Calendar traps: a year followed by a month (`/2087/04/`, `/2087-04-01`, `?year=2087&month=4`,
 * `?date=1602-11-03`) far from now. Past archives of blogs and news are legitimate, so the window
 * back is wide; endless "next month" links run into the future fast.
 */
function isFarCalendarDate(segments: readonly string[], query: string, rules: UrlRules): boolean {
  const currentYear = new Date(rules.now).getUTCFullYear();
  const far = (year: number) => year > currentYear + rules.calendarYearsAhead || year < currentYear - rules.calendarYearsBack;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const inOne = DATE_IN_SEGMENT.exec(segment);
    if (inOne && far(Number(inOne[1]))) return true;
    if (/^[12][0-9]{3}$/.test(segment) && i + 1 < segments.length && /^(0?[1-9]|1[0-2])$/.test(segments[i + 1]) && far(Number(segment))) {
      return true;
    }
  }
  if (query === '') return false;
  let year: number | undefined;
  let hasMonth = false;
  for (const pair of query.split('&')) {
    const name = parameterName(pair);
    const value = pair.slice(pair.indexOf('=') + 1);
    if (YEAR_NAMES.has(name) && /^[12][0-9]{3}$/.test(value)) year = Number(value);
    else if (MONTH_NAMES.has(name) && /^(0?[1-9]|1[0-2])$/.test(value)) hasMonth = true;
    else {
      const date = DATE_IN_SEGMENT.exec(value);
      if (date && date[3] !== undefined && far(Number(date[1]))) return true;
    }
  }
  return year !== undefined && hasMonth && far(year);
}
