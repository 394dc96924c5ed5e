/**
 * Credentials for intranets: request headers, cookies and HTTP Basic credentials per host
 * pattern (`intranet.example` or `*.example`). The fetcher asks for them hop by hop with the URL
 * of that hop, so they go to the hosts they were given for and nowhere else — not to a host a
 * redirect leads to. They are never logged, remembered in a data directory or shown.
 */
export interface HostCredentialRule {
  /** Host names (`intranet.example`) or suffix patterns (`*.example`, not the bare domain). */
  hosts: readonly string[];
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

export class HostCredentials {
  readonly #rules: Array<{ exact: Set<string>; suffixes: string[]; headers: Record<string, string> }>;

  constructor(rules: readonly HostCredentialRule[]) {
    this.#rules = rules.map((rule, index) => {
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
      const exact = new Set<string>();
      const suffixes: string[] = [];
      for (const pattern of rule.hosts) {
        const host = pattern.trim().toLowerCase();
        if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host)) throw new CredentialSettingsError(`credentials[${index}]: "${pattern}" is not a host name or *.suffix pattern`);
        if (host.startsWith('*.')) suffixes.push(host.slice(1));
        else exact.add(host);
      }
      return { exact, suffixes, headers };
    });
  }

  get size(): number {
    return this.#rules.length;
  }

  /** Headers for a request to this URL (every matching rule, later ones win), or undefined. */
  headersFor(url: string): Record<string, string> | undefined {
    if (this.#rules.length === 0) return undefined;
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return undefined;
    }
    let out: Record<string, string> | undefined;
    for (const rule of this.#rules) {
      if (rule.exact.has(host) || rule.suffixes.some((suffix) => host.endsWith(suffix))) out = { ...out, ...rule.headers };
    }
    return out;
  }
}
