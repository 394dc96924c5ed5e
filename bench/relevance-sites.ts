/**
 * The documentation sites of the relevance benchmark, as Debian installs them, and a static
 * file server that serves each under its own host name on loopback (the `Host` header picks the
 * site, as the crawler's resolve pins send every host to it).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { docbookIndexEntries, judgedQueries, rustdocIndexEntries, sphinxIndexEntries, type JudgedQuery } from './relevance-judged.ts';

export interface DocSite {
  name: string;
  /** The Debian package that installs it. */
  packageName: string;
  host: string;
  root: string;
  /** Where the crawl starts, and the URL prefix it stays under. */
  seedPath: string;
  scopePath: string;
  maxPages: number;
  /** The documentation's own index, the judge. */
  indexPath: string;
  parseIndex: typeof sphinxIndexEntries;
  /** The site's own search page (Sphinx `search.html` with `searchtools.js`), when it ships one. */
  sphinxSearch?: string;
  /** Kept out of every choice of the blend: checked once the choice is made. */
  heldOut: boolean;
}

export const QUERIES_PER_SITE = 250;
const SEED = 26;

export const DOC_SITES: readonly DocSite[] = [
  {
    name: 'sphinx',
    packageName: 'sphinx-doc',
    host: 'sphinx-doc.test',
    root: '/usr/share/doc/sphinx-doc/html',
    seedPath: '/index.html',
    scopePath: '/',
    maxPages: 2000,
    indexPath: '/genindex.html',
    parseIndex: sphinxIndexEntries,
    sphinxSearch: '/search.html',
    heldOut: false,
  },
  {
    name: 'django',
    packageName: 'python-django-doc',
    host: 'django-doc.test',
    root: '/usr/share/doc/python-django-doc/html',
    seedPath: '/index.html',
    scopePath: '/',
    maxPages: 3000,
    indexPath: '/genindex.html',
    parseIndex: sphinxIndexEntries,
    sphinxSearch: '/search.html',
    heldOut: false,
  },
  {
    name: 'postgresql',
    packageName: 'postgresql-doc-15',
    host: 'postgresql-doc.test',
    root: '/usr/share/doc/postgresql-doc-15/html',
    seedPath: '/index.html',
    scopePath: '/',
    maxPages: 3000,
    indexPath: '/bookindex.html',
    parseIndex: docbookIndexEntries,
    heldOut: true,
  },
  {
    name: 'rust-std',
    packageName: 'rust-doc',
    host: 'rust-doc.test',
    root: '/usr/share/doc/rust-doc/html',
    seedPath: '/std/index.html',
    // The standard library's API alone: the whole package is 32,000 pages.
    scopePath: '/std/',
    maxPages: 2500,
    indexPath: '/std/all.html',
    parseIndex: rustdocIndexEntries,
    heldOut: false,
  },
];

export function siteInstalled(site: DocSite): boolean {
  return existsSync(join(site.root, site.indexPath));
}

export function siteQueries(site: DocSite, count = QUERIES_PER_SITE): JudgedQuery[] {
  return judgedQueries(site.root, site.indexPath, site.parseIndex, count, SEED);
}

export function siteUrl(site: DocSite, path: string): string {
  return `http://${site.host}${path}`;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.pf_meta': 'application/octet-stream',
};

/** The file a request path names under `root`, or undefined (outside the root, missing). */
function fileOf(root: string, path: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const relative = normalize(decoded).replace(/^(\.\.[/\\])+/, '');
  let file = join(root, relative);
  if (!file.startsWith(root)) return undefined;
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    return statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

export interface SiteServer {
  port: number;
  /** Serves more files under a host and path prefix (a peer's own index, built elsewhere). */
  mount(host: string, prefix: string, root: string): void;
  close(): Promise<void>;
}

/** Serves every site under its host name (and mounted extras) on 127.0.0.1. */
export async function serveSites(sites: readonly DocSite[]): Promise<SiteServer> {
  const roots = new Map(sites.map((site) => [site.host, site.root]));
  const mounts: Array<{ host: string; prefix: string; root: string }> = [];
  const server: Server = createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    const path = (request.url ?? '/').split('?')[0];
    const mount = mounts.find((m) => m.host === host && path.startsWith(m.prefix));
    const root = mount ? mount.root : roots.get(host);
    const file = root ? fileOf(root, mount ? path.slice(mount.prefix.length - 1) : path) : undefined;
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    mount: (host, prefix, root) => mounts.push({ host, prefix, root }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
