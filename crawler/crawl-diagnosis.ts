/**
 * Why pages were not stored, per host and per cause, with what to do about it: the crawl
 * summary, the log and the admin status say it in these words. A first crawl that ends with
 * "pages stored: 1 (disallowed 1)" tells nothing; "example.com: robots.txt unreachable (DNS
 * failure) — the whole host counts as disallowed; check the host name…" does.
 */
import type { PageOutcome } from './page-fetch.ts';
import type { RobotsEntry } from './robots.ts';

export type CauseCode =
  | 'dns'
  | 'refused'
  | 'tls'
  | 'private-address'
  | 'timeout'
  | 'connection'
  | 'robots-unreachable'
  | 'robots-disallowed'
  | 'off-scope-redirect'
  | 'http-5xx'
  | 'http-4xx'
  | 'too-large'
  | 'document'
  | 'binary'
  | 'other';

interface CauseText {
  /** What happened, in a few words. */
  what: string;
  /** What to do about it. */
  todo: string;
}

const CAUSES: Record<CauseCode, CauseText> = {
  dns: { what: 'DNS failure: the host name does not resolve', todo: 'check the spelling of the seed and that this machine can resolve names (no network or DNS?); for a local test server use --resolve host:port:addr:port' },
  refused: { what: 'connection refused', todo: 'nothing listens on that address and port: is the server running, and is the port in the URL right?' },
  tls: { what: 'TLS error (certificate not trusted, expired or for another name)', todo: 'fix the certificate, give Node the CA with NODE_EXTRA_CA_CERTS, or crawl the http:// URL' },
  'private-address': { what: 'the host resolves to a private or loopback address, refused by default', todo: 'for an intranet or a local test, pass --allow-private-networks (setting crawler.allowPrivateNetworks)' },
  timeout: { what: 'the server took too long', todo: 'the server is slow or unreachable: try later, or raise crawler.headersTimeoutMs / bodyTimeoutMs' },
  connection: { what: 'the connection failed or was reset', todo: 'a network problem or an overloaded server: try later, and lower --concurrency or raise --delay' },
  'robots-unreachable': {
    what: 'robots.txt unreachable (a network error or an HTTP 5xx), so the whole host counts as disallowed (RFC 9309) and is asked again in 10 minutes',
    todo: 'a site without robots.txt should answer 404 (which allows everything), never 5xx',
  },
  'robots-disallowed': { what: 'disallowed by robots.txt', todo: 'the site asks crawlers to keep out of these paths: leave them, or ask the site owner to allow this user agent' },
  'off-scope-redirect': { what: 'redirects to a URL outside the scope (recorded as a link, not followed)', todo: 'if the site moved (http → https, a www. host), add the target with --scope host:NAME or crawl from the new URL' },
  'http-5xx': { what: 'the server answered with an error (HTTP 5xx)', todo: 'a server problem: try later' },
  'http-4xx': { what: 'HTTP 4xx other than 404/410 (forbidden, unauthorised…)', todo: 'the pages need a login or the server refuses this user agent' },
  'too-large': { what: 'larger than the size limit', todo: 'raise crawler.maxBodyBytes, or crawler.documents.*MaxBytes for documents, if these are wanted' },
  document: { what: 'a document (PDF, DOCX, ODT) that could not be read', todo: 'the reason is in each page\'s error; damaged or hostile files are skipped' },
  binary: { what: 'binary data served as an HTML page (refused, not indexed)', todo: 'the server labels a file as text/html: nothing to do unless the file is wanted, then fix its Content-Type' },
  other: { what: 'other failures', todo: 'see the error stored with each page' },
};

export interface CauseReport {
  cause: CauseCode;
  what: string;
  todo: string;
  count: number;
  /** One URL it happened to, and the detail of the first occurrence (error message, status). */
  example: string;
  detail?: string;
}

export interface HostDiagnosis {
  host: string;
  causes: CauseReport[];
}

/** The cause of an outcome that stored no content, or undefined for a page stored or a normal miss (404, 304). */
export interface FoundCause {
  cause: CauseCode;
  detail?: string;
  /** robots.txt unreachable: the network failure behind it (its advice comes first). */
  behind?: CauseCode;
}

export function causeOf(outcome: PageOutcome, robotsEntry: RobotsEntry | undefined): FoundCause | undefined {
  switch (outcome.kind) {
    case 'failed':
      return { cause: failureCause(outcome.error), detail: `${outcome.error}: ${outcome.message}` };
    case 'disallowed': {
      if (outcome.reason === 'robots') return { cause: 'robots-disallowed' };
      const failure = robotsEntry?.failure;
      if (failure) {
        const behind = failureCause(failure.kind);
        return { cause: 'robots-unreachable', behind, detail: `robots.txt: ${CAUSES[behind].what} (${failure.kind}: ${failure.message})` };
      }
      return { cause: 'robots-unreachable', detail: robotsEntry ? `robots.txt answered HTTP ${robotsEntry.httpStatus}` : undefined };
    }
    case 'redirect':
      return outcome.reason === 'out-of-scope' ? { cause: 'off-scope-redirect', detail: `${outcome.status} to ${outcome.to}` } : undefined;
    case 'http-error':
      if (outcome.status >= 500) return { cause: 'http-5xx', detail: `HTTP ${outcome.status}` };
      if (outcome.status === 404 || outcome.status === 410) return undefined;
      return { cause: 'http-4xx', detail: `HTTP ${outcome.status}` };
    default:
      return undefined;
  }
}

function failureCause(kind: string): CauseCode {
  switch (kind) {
    case 'dns':
    case 'refused':
    case 'tls':
    case 'private-address':
    case 'timeout':
    case 'too-large':
    case 'document':
    case 'binary':
      return kind;
    case 'reset':
    case 'unreachable':
    case 'network':
      return 'connection';
    case 'retry-later':
      return 'http-5xx';
    default:
      return 'other';
  }
}

/** Collects causes per host during a crawl; `note` is called once per new host and cause (for the log). */
export class CrawlDiagnosis {
  readonly #hosts = new Map<string, Map<CauseCode, CauseReport>>();

  constructor(private readonly note?: (message: string) => void) {}

  add(host: string, url: string, found: FoundCause): void {
    let causes = this.#hosts.get(host);
    if (!causes) this.#hosts.set(host, (causes = new Map()));
    const known = causes.get(found.cause);
    if (known) {
      known.count++;
      return;
    }
    const text = CAUSES[found.cause];
    const todo = found.behind ? `${CAUSES[found.behind].todo}; then ${text.todo}` : text.todo;
    const report: CauseReport = { cause: found.cause, what: text.what, todo, count: 1, example: url, ...(found.detail ? { detail: found.detail } : {}) };
    causes.set(found.cause, report);
    this.note?.(`${host}: ${text.what}${found.detail ? ` — ${found.detail}` : ''} (${url}). What to do: ${todo}`);
  }

  /** Hosts with the most affected pages first; causes likewise. */
  report(): HostDiagnosis[] {
    const total = (causes: Map<CauseCode, CauseReport>) => [...causes.values()].reduce((sum, c) => sum + c.count, 0);
    return [...this.#hosts]
      .sort((a, b) => total(b[1]) - total(a[1]) || a[0].localeCompare(b[0]))
      .map(([host, causes]) => ({ host, causes: [...causes.values()].sort((a, b) => b.count - a.count) }));
  }
}

/** The diagnosis as lines for a terminal (at most `maxHosts` hosts). */
export function formatDiagnosis(hosts: readonly HostDiagnosis[], maxHosts = 10): string[] {
  if (hosts.length === 0) return [];
  const lines = ['  why pages were not stored:'];
  for (const { host, causes } of hosts.slice(0, maxHosts)) {
    for (const cause of causes) {
      lines.push(`    ${host}: ${cause.what} — ${cause.count} page${cause.count === 1 ? '' : 's'}, e.g. ${cause.example}${cause.detail ? ` (${cause.detail})` : ''}`);
      lines.push(`      what to do: ${cause.todo}`);
    }
  }
  if (hosts.length > maxHosts) lines.push(`    … and ${hosts.length - maxHosts} more hosts`);
  return lines;
}
