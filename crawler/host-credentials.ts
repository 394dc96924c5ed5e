/**
 * Credentials for intranets: request headers, cookies and HTTP Basic credentials per origin —
 * scheme, host and port, as RFC 7617 binds a password and as curl does since CVE-2022-27774/27776
 * (`https://intranet.example`, `http://wiki.example:8080`, `https://*.corp.example`). The fetcher
 * asks for them hop by hop with the URL of that hop, so they go to the origins they were given
 * for and nowhere else: not to another port or scheme of the same host, not to a host a redirect
 * leads to, and never over plain http once a redirect chain has left https. They are never
 * logged, remembered in a data directory or shown.
 *
 * Rules written before origins (`hosts: ["intranet.example"]`) still read: a bare host stands for
 * its default ports, https on 443 and http on 80 — the two origins a URL without a port reaches.
 */
export interface HostCredentialRule {
  /** Origins: `https://host`, `http://host:8080`, with `*.suffix` for the subdomains of a suffix. */
  origins?: readonly string[];
  /** Host names (`intranet.example`) or suffix patterns (`*.example`, not the bare domain), on default ports. */
  hosts?: readonly string[];
  headers?: Readonly<Record<string, string>>;
  cookies?: Readonly<Record<string, string>>;
  basic?: { readonly username: string; readonly password: string };
}

export class CredentialSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialSettingsError';
  }
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the fetcher sets itself, or that would change how a request is framed. */
const RESERVED = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'user-agent', 'accept-encoding', 'if-none-match', 'if-modified-since']);
const HOST_PATTERN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;
/** `scheme://host[:port]`, with an optional `/` and nothing else (the settings schema checks the same). */
export const ORIGIN_PATTERN = /^(https?):\/\/((?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d{1,5}))?\/?$/i;
const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** One origin pattern: scheme, port, and an exact host or a `.suffix`. */
interface OriginPattern {
  protocol: 'http:' | 'https:';
  port: number;
  host: string;
  suffix: boolean;
}

function parseOrigin(text: string, index: number): OriginPattern {
  const match = ORIGIN_PATTERN.exec(text.trim());
  const port = match ? Number(match[3] ?? DEFAULT_PORT[`${match[1].toLowerCase()}:`]) : 0;
  if (!match || port < 1 || port > 65_535) throw new CredentialSettingsError(`credentials[${index}]: "${text}" is not an origin such as https://intranet.example or http://wiki.example:8080`);
  const host = match[2].toLowerCase();
  const suffix = host.startsWith('*.');
  return { protocol: `${match[1].toLowerCase()}:` as OriginPattern['protocol'], port, host: suffix ? host.slice(1) : host, suffix };
}

/** A bare host of an older rule: its default ports, https and http. */
function originsOfHost(text: string, index: number): OriginPattern[] {
  const host = text.trim().toLowerCase();
  if (!HOST_PATTERN.test(host)) throw new CredentialSettingsError(`credentials[${index}]: "${text}" is not a host name or *.suffix pattern (use "origins" for a scheme or port)`);
  const suffix = host.startsWith('*.');
  const name = suffix ? host.slice(1) : host;
  return [
    { protocol: 'https:', port: 443, host: name, suffix },
    { protocol: 'http:', port: 80, host: name, suffix },
  ];
}

function matches(pattern: OriginPattern, url: URL): boolean {
  if (pattern.protocol !== url.protocol) return false;
  if (pattern.port !== (url.port === '' ? DEFAULT_PORT[url.protocol] : Number(url.port))) return false;
  const host = url.hostname.toLowerCase();
  return pattern.suffix ? host.endsWith(pattern.host) : host === pattern.host;
}

function headersOf(rule: HostCredentialRule, index: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(rule.headers ?? {})) {
    const lower = name.toLowerCase();
    if (!TOKEN.test(name) || RESERVED.has(lower)) throw new CredentialSettingsError(`credentials[${index}]: header "${name}" cannot be set`);
    if (/[\r\n]/.test(value)) throw new CredentialSettingsError(`credentials[${index}]: header "${name}" has a line break`);
    headers[lower] = value;
  }
  const cookies = Object.entries(rule.cookies ?? {});
  for (const [name, value] of cookies) {
    if (!TOKEN.test(name) || /[;\r\n]/.test(value)) throw new CredentialSettingsError(`credentials[${index}]: cookie "${name}" is not a valid cookie`);
  }
  if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies.map(([name, value]) => `${name}=${value}`)].filter(Boolean).join('; ');
  if (rule.basic) {
    if (rule.basic.username.includes(':')) throw new CredentialSettingsError(`credentials[${index}]: a Basic user name cannot contain ":"`);
    headers.authorization = `Basic ${Buffer.from(`${rule.basic.username}:${rule.basic.password}`, 'utf8').toString('base64')}`;
  }
  return headers;
}

export class HostCredentials {
  readonly #rules: Array<{ origins: OriginPattern[]; headers: Record<string, string> }>;

  constructor(rules: readonly HostCredentialRule[]) {
    this.#rules = rules.map((rule, index) => {
      const origins = [...(rule.origins ?? []).map((origin) => parseOrigin(origin, index)), ...(rule.hosts ?? []).flatMap((host) => originsOfHost(host, index))];
      if (origins.length === 0) throw new CredentialSettingsError(`credentials[${index}]: name the origins (or hosts) the credentials are for`);
      return { origins, headers: headersOf(rule, index) };
    });
  }

  get size(): number {
    return this.#rules.length;
  }

  /** Headers for a request to this URL (every rule of its origin, later ones win), or undefined. */
  headersFor(url: string): Record<string, string> | undefined {
    if (this.#rules.length === 0) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    let out: Record<string, string> | undefined;
    for (const rule of this.#rules) {
      if (rule.origins.some((origin) => matches(origin, parsed))) out = { ...out, ...rule.headers };
    }
    return out;
  }

  /**
   * Headers for a hop of a redirect chain: those of its origin, but none over plain http once an
   * earlier URL of the chain was https (a downgrade would send them in clear text).
   */
  headersForHop(url: string, earlier: readonly string[]): Record<string, string> | undefined {
    if (url.startsWith('http:') && earlier.some((previous) => previous.startsWith('https:'))) return undefined;
    return this.headersFor(url);
  }
}
