/**
 * Who may search. Pages fetched with credentials (an intranet) are not public: while the store
 * holds such pages, search, suggestions and their snippets answer only signed-in searchers —
 * those who present the search token (`Authorization: Bearer`, or the cookie the sign-in form
 * sets) — unless the admin marks the site public. The admin's choice is kept in the data
 * directory (`search-access.json`) and wins over the `server.publicSearch` setting.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CrawlStore, PageRecord } from '../indexer/store/crawl-store.ts';
import { timeSlices } from '../indexer/stepwise.ts';
import { writeFileAtomic } from '../indexer/text-index/atomic-file.ts';
import { SignInRequiredError } from './errors.ts';

export const SEARCH_COOKIE = 'lse_search';
const ACCESS_FILE = 'search-access.json';

export interface SearchAccessOptions {
  /** The search token (`server.searchToken`); without one, nobody can sign in. */
  token?: string;
  /** `server.publicSearch`: the default until the admin chooses. */
  publicSearch: boolean;
  /** Where the admin's choice is kept; without it, the choice lasts as long as the process. */
  dataDir?: string;
  /** Whether the searched content holds pages fetched with credentials. */
  holdsPrivateContent: () => boolean;
}

export interface SearchAccessStatus {
  /** The index holds pages fetched with credentials. */
  privateContent: boolean;
  /** The admin (or the settings) made the search public all the same. */
  public: boolean;
  /** Searchers must sign in now. */
  signInRequired: boolean;
  /** A search token is set (never the token itself). */
  tokenSet: boolean;
}

export class SearchAccess {
  readonly #options: SearchAccessOptions;
  #public: boolean;
  /** The cookie's value: a MAC of the token, so the cookie never carries the token itself. */
  readonly #session: string | undefined;

  private constructor(options: SearchAccessOptions, isPublic: boolean) {
    this.#options = options;
    this.#public = isPublic;
    this.#session = options.token ? createHmac('sha256', options.token).update('lse search session').digest('base64url') : undefined;
  }

  static async open(options: SearchAccessOptions): Promise<SearchAccess> {
    let isPublic = options.publicSearch;
    if (options.dataDir) {
      const stored = await readAccessFile(join(options.dataDir, ACCESS_FILE));
      if (stored !== undefined) isPublic = stored;
    }
    return new SearchAccess(options, isPublic);
  }

  status(): SearchAccessStatus {
    const privateContent = this.#options.holdsPrivateContent();
    return { privateContent, public: this.#public, signInRequired: privateContent && !this.#public, tokenSet: this.#session !== undefined };
  }

  async setPublic(isPublic: boolean): Promise<SearchAccessStatus> {
    if (this.#options.dataDir) await writeFileAtomic(join(this.#options.dataDir, ACCESS_FILE), `${JSON.stringify({ public: isPublic, changedAt: new Date().toISOString() })}\n`);
    this.#public = isPublic;
    return this.status();
  }

  /** Whether a presented token is the search token (constant time). */
  tokenMatches(presented: string | undefined): boolean {
    return presented !== undefined && this.#session !== undefined && sameText(this.#sessionOf(presented), this.#session);
  }

  /** The cookie value for a searcher who presented the right token. */
  get sessionValue(): string | undefined {
    return this.#session;
  }

  /** Whether this request may search. */
  allows(request: FastifyRequest): boolean {
    if (!this.status().signInRequired) return true;
    if (this.tokenMatches(bearerOf(request))) return true;
    const cookie = cookieOf(request, SEARCH_COOKIE);
    return cookie !== undefined && this.#session !== undefined && sameText(cookie, this.#session);
  }

  /** An onRequest hook answering 401 to searchers who must sign in and have not. */
  hook() {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      if (this.allows(request)) return;
      const error = new SignInRequiredError(this.#session ? 'sign in with the search token at /signin' : 'no search token is set (server.searchToken or LSE_SEARCH_TOKEN): ask the site admin');
      return reply.code(401).header('cache-control', 'no-store').send({ statusCode: 401, code: error.code, error: 'Unauthorized', message: error.message, signIn: '/signin' });
    };
  }

  #sessionOf(token: string): string {
    return createHmac('sha256', token).update('lse search session').digest('base64url');
  }
}

/**
 * Whether the store holds pages fetched with credentials, kept current as jobs run: while a job
 * runs with credentials configured it may index such pages, so the answer is "yes" until the
 * store is read again after the job.
 */
export class PrivateContentWatch {
  #holds = false;
  #scanning: Promise<void> | undefined;
  #again = false;

  constructor(
    private readonly store: CrawlStore,
    private readonly credentialsConfigured: boolean,
  ) {}

  get holds(): boolean {
    return this.#holds;
  }

  /** Reads the store (again); concurrent calls share one pass and one more after it. */
  refresh(): Promise<void> {
    if (this.#scanning) {
      this.#again = true;
      return this.#scanning;
    }
    this.#scanning = (async () => {
      do {
        this.#again = false;
        this.#holds = await storeHoldsPrivatePagesSaved(this.store);
      } while (this.#again);
    })().finally(() => (this.#scanning = undefined));
    return this.#scanning;
  }

  /** Waits for a read of the store under way (before the store closes). */
  async settled(): Promise<void> {
    while (this.#scanning) await this.#scanning.catch(() => undefined);
  }

  /** Hears the job runner's status events. */
  onJob(status: { state: string }): void {
    if (status.state === 'running' && this.credentialsConfigured) this.#holds = true;
    else if (status.state !== 'queued' && status.state !== 'running') void this.refresh().catch((error: Error) => process.stderr.write(`reading the store for private pages failed: ${error.message}\n`));
  }
}

/** Whether any page of the store was fetched with credentials and holds content. */
const PRIVATE_PAGES_KEY = 'private-pages';

/**
 * {@link storeHoldsPrivatePages}, remembered in the store's meta with the page-write sequence it
 * was read at: a server restarted with no page written since does not read every page again.
 * When none was private then, only the pages written since can be (the page journal names them):
 * after an update of 1 % of a million pages, 10k pages are read instead of every page.
 */
export async function storeHoldsPrivatePagesSaved(store: CrawlStore): Promise<boolean> {
  const sequence = store.pageWriteSequence;
  const saved = await store.getMeta<{ sequence: number; holds: boolean }>(PRIVATE_PAGES_KEY);
  const known = saved !== undefined && typeof saved.holds === 'boolean' && Number.isInteger(saved.sequence) && saved.sequence <= sequence;
  if (known && saved.sequence === sequence) return saved.holds;
  const written = known && !saved.holds ? await store.pageJournalSince(saved.sequence) : undefined;
  const holds = await anyPrivatePage(written ? store.pagesOf(written) : store.pages());
  await store.batch().putMeta(PRIVATE_PAGES_KEY, { sequence, holds }).commit({ sync: false });
  return holds;
}

/** Work between two turns of the event loop while pages are read, in ms: a server answers meanwhile. */
const SLICE_MS = 8;

export function storeHoldsPrivatePages(store: CrawlStore): Promise<boolean> {
  return anyPrivatePage(store.pages());
}

async function anyPrivatePage(pages: AsyncIterable<[number, PageRecord | undefined]>): Promise<boolean> {
  // Pages an iterator has buffered arrive as microtasks, which let no request in.
  const turn = timeSlices(SLICE_MS);
  for await (const [, page] of pages) {
    if (page !== undefined && isPrivatePage(page)) return true;
    await turn();
  }
  return false;
}

const isPrivatePage = (page: PageRecord) => page.private === true && (page.state === 'fetched' || page.state === 'not-modified');

/**
 * {@link storeHoldsPrivatePagesSaved}'s answer from a pass over every page that something else
 * makes (the index build), so that the first server start after `lse index` or `lse import` does
 * not read every page again for it. The sequence is read before the pages: a page written during
 * the pass makes the saved answer stale, never wrong.
 */
export class PrivatePagesPass {
  private holds = false;
  private readonly sequence: number;

  constructor(private readonly store: CrawlStore) {
    this.sequence = store.pageWriteSequence;
  }

  add(page: PageRecord): void {
    if (!this.holds && isPrivatePage(page)) this.holds = true;
  }

  async save(): Promise<void> {
    await this.store.batch().putMeta(PRIVATE_PAGES_KEY, { sequence: this.sequence, holds: this.holds }).commit({ sync: false });
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

async function readAccessFile(path: string): Promise<boolean | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { public?: unknown }).public === 'boolean') return (parsed as { public: boolean }).public;
  } catch {
    // Fall through: a damaged file keeps the search closed rather than guessing.
  }
  process.stderr.write(`${path} cannot be read: search stays restricted to signed-in searchers until the admin chooses again\n`);
  return false;
}
