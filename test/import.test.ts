/**
 * Pages pushed as well as crawled: the line format and its errors, the bounded line reader, `lse
 * import` into a data directory (search, updates, local PageRank through links), and
 * `POST /api/admin/documents` on a served data directory.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { loadSearchData } from '../indexer/ranking/search-data.ts';
import { loadRankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { main } from '../server/cli/main.ts';
import { serveStore } from '../server/cli/serve-command.ts';
import { numberedLines, type NumberedLine } from '../server/import/jsonl-lines.ts';
import { parsePageLine } from '../server/import/page-line.ts';
import { SERVED_BATCH_PAGES } from '../server/import/page-import.ts';

const line = (fields: Record<string, unknown>) => JSON.stringify(fields);

async function collect(input: AsyncIterable<NumberedLine>): Promise<NumberedLine[]> {
  const out: NumberedLine[] = [];
  for await (const l of input) out.push(l);
  return out;
}

describe('an import line', () => {
  it('takes the required and optional fields, normalised', () => {
    const parsed = parsePageLine(
      line({ url: 'https://Docs.Example.org/a/../guide/?utm_source=x', title: ' The  guide ', body: 'Text.', lang: 'pt-BR', lastModified: '2026-11-01', type: 'PDF', section: 'Guides', links: ['../api/', 'mailto:x@y.z', 'https://docs.example.org/api/', 'javascript:void(0)'] }),
      1,
    );
    expect(parsed).toEqual({
      ok: true,
      page: { url: 'https://docs.example.org/guide/', title: 'The guide', body: 'Text.', lang: 'pt', lastModified: '2026-11-01T00:00:00.000Z', type: 'pdf', section: 'Guides', links: ['https://docs.example.org/api/'] },
    });
  });

  it.each([
    ['{"url":', 'line', /not JSON/],
    ['[1,2]', 'line', /not a JSON object/],
    [line({ title: 't', body: 'b' }), 'url', /required/],
    [line({ url: 'ftp://x.org/', title: 't', body: 'b' }), 'url', /not an accepted/],
    [line({ url: 'https://x.org/', body: 'b' }), 'title', /required/],
    [line({ url: 'https://x.org/', title: 't', body: 7 }), 'body', /string/],
    [line({ url: 'https://x.org/', title: 't', body: 'b', lang: 'english!' }), 'lang', /language tag/],
    [line({ url: 'https://x.org/', title: 't', body: 'b', lastModified: 'yesterday' }), 'lastModified', /not a date/],
    [line({ url: 'https://x.org/', title: 't', body: 'b', links: ['/ok', 'http://[bad'] }), 'links[1]', /not a URL/],
    [line({ url: 'https://x.org/', title: 't', body: 'b', titel: 'x' }), 'titel', /unknown field/],
  ])('names the field of a bad line: %s', (text, field, message) => {
    const parsed = parsePageLine(text, 42);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.line).toBe(42);
    expect(parsed.error.field).toBe(field);
    expect(parsed.error.message).toMatch(message);
  });
});

describe('numbered lines', () => {
  it('splits CRLF and LF lines across chunk boundaries, multi-byte characters included', async () => {
    const bytes = Buffer.from('first é line\r\nsecond 漢字\n\nlast without newline');
    // One byte a chunk: every character and line end is split somewhere.
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect(await collect(numberedLines(Readable.from(chunks), 100))).toEqual([
      { line: 1, text: 'first é line' },
      { line: 2, text: 'second 漢字' },
      { line: 3, text: '' },
      { line: 4, text: 'last without newline' },
    ]);
  });

  it('reports a line over the bound and goes on with the next, holding at most the bound', async () => {
    const long = 'x'.repeat(10_000);
    const lines = await collect(numberedLines(Readable.from([Buffer.from(`short\n${long}`), Buffer.from(`${long}\nafter\n`)]), 1_000));
    expect(lines).toEqual([{ line: 1, text: 'short' }, { line: 2, tooLong: true }, { line: 3, text: 'after' }]);
  });
});

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
});

function pagesFile(lines: string[]): { dataDir: string; file: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'lse-import-'));
  dirs.push(dataDir);
  const file = join(dataDir, '..', `${dataDir.split('/').pop()}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { dataDir, file };
}

/** A small documentation site as a build step would push it: a hub every page links to. */
function sitePages(bodyOf: (i: number) => string = (i) => `Chapter ${i} explains configuration option number ${i} in detail.`): string[] {
  const lines = [line({ url: 'https://docs.example.org/', title: 'Documentation home', body: 'Start here: installation, configuration and the reference.', links: ['/install/', '/reference/'] })];
  lines.push(line({ url: 'https://docs.example.org/install/', title: 'Installing', body: 'Install the package with a wrench, then read the reference.', section: 'Guides', lang: 'en', links: ['/', '/reference/'] }));
  for (let i = 0; i < 20; i++) {
    lines.push(line({ url: `https://docs.example.org/reference/opt${i}`, title: `Option ${i}`, body: bodyOf(i), section: 'Reference', lastModified: '2026-10-01T12:00:00Z', links: ['/reference/', '/'] }));
  }
  lines.push(line({ url: 'https://docs.example.org/reference/', title: 'Reference', body: 'Every option of the configuration file, one page each.', section: 'Reference', links: ['/'] }));
  return lines;
}

async function openSearch(dataDir: string) {
  const store = await CrawlStore.open(dataDir);
  const index = await TextIndex.open(dataDir);
  const { ranking } = loadSettings({ env: {}, overrides: { dataDir } });
  const engine = new SearchEngine(index, await loadRankSnapshot(store), { blend: ranking.blend, weight: ranking.weight });
  await loadSearchData(engine, store);
  const close = async () => {
    await index.close();
    await store.close();
  };
  return { store, index, engine, close };
}

describe('lse import', () => {
  it('imports pages, indexes them and ranks them by their links', async () => {
    const { dataDir, file } = pagesFile(sitePages());
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    expect(await main(['import', '--data', dataDir, file])).toBe(0);
    expect(out.join('')).toMatch(/imported 23 line\(s\): 23 new, 0 updated, 0 unchanged/);
    const { store, engine, close } = await openSearch(dataDir);
    try {
      const result = await engine.search({ q: 'wrench', rank: 'text', page: 1, size: 10, explain: false });
      expect(result.hits.map((h) => h.url)).toEqual(['https://docs.example.org/install/']);
      expect(result.hits[0].section).toBe('guides');
      const option = await engine.search({ q: 'option 7', rank: 'text', page: 1, size: 10, explain: false });
      expect(option.hits[0].url).toBe('https://docs.example.org/reference/opt7');
      // Local PageRank over the imported links: the home and the reference hub, linked from every page, lead.
      const ranks = await store.latestRanks('local-current');
      expect(ranks).toBeDefined();
      const byUrl = new Map([...ranks!.ids].map((id, i) => [store.urlOf(id)!, ranks!.values[i]]));
      expect(byUrl.size).toBe(23);
      const top2 = [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([url]) => url);
      expect(new Set(top2)).toEqual(new Set(['https://docs.example.org/', 'https://docs.example.org/reference/']));
    } finally {
      await close();
    }
  });

  it('updates a page imported again, leaves unchanged ones, and takes the good lines of a file with bad ones', async () => {
    const { dataDir, file } = pagesFile(sitePages());
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await main(['import', '--data', dataDir, file])).toBe(0);
    const errors: string[] = [];
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (errors.push(String(chunk)), true));
    const changed = sitePages((i) => (i === 3 ? 'Option three now covers the zeppelin mooring mast.' : `Chapter ${i} explains configuration option number ${i} in detail.`));
    changed.splice(5, 0, '{"url": "https://docs.example.org/broken", "title": 3, "body": "x"}');
    changed.push(line({ url: 'https://docs.example.org/new', title: 'New page', body: 'A brand new zeppelin page.' }));
    writeFileSync(file, `${changed.join('\n')}\n`);
    expect(await main(['import', '--data', dataDir, file])).toBe(1);
    expect(errors.join('')).toContain('line 6: title: must be a string');
    expect(out.join('')).toMatch(/imported 25 line\(s\): 1 new, 1 updated, 22 unchanged, 1 bad line/);
    const { engine, close } = await openSearch(dataDir);
    try {
      const result = await engine.search({ q: 'zeppelin', rank: 'text', page: 1, size: 10, explain: false });
      expect(result.hits.map((h) => h.url).sort()).toEqual(['https://docs.example.org/new', 'https://docs.example.org/reference/opt3']);
      const old = await engine.search({ q: 'detail', rank: 'text', page: 1, size: 50, explain: false });
      expect(old.total).toBe(19);
      expect(old.hits.map((h) => h.url)).not.toContain('https://docs.example.org/reference/opt3');
    } finally {
      await close();
    }
  });

  it('reads standard input with -, and says when the file cannot be read', async () => {
    const { dataDir, file } = pagesFile(sitePages());
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (errors.push(String(chunk)), true));
    expect(await main(['import', '--data', dataDir, `${file}.missing`])).toBe(2);
    expect(errors.join('')).toMatch(/cannot read .*ENOENT/);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stdin = Readable.from([Buffer.from(sitePages().slice(0, 3).join('\n'))]);
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(stdin as unknown as typeof process.stdin);
    expect(await main(['import', '--data', dataDir, '-'])).toBe(0);
    const { engine, close } = await openSearch(dataDir);
    try {
      expect((await engine.search({ q: 'wrench', rank: 'text', page: 1, size: 10, explain: false })).total).toBe(1);
    } finally {
      await close();
    }
  });
});

describe('POST /api/admin/documents', () => {
  const token = 'documents-test-token-0123456789';

  async function serveEmpty(documentsBatchBytes?: number) {
    const dataDir = mkdtempSync(join(tmpdir(), 'lse-documents-'));
    const settings = loadSettings({ env: {}, overrides: { dataDir, schedules: { estimate: 'off' }, server: { adminRateLimitPerMinute: 100_000, ...(documentsBatchBytes ? { documentsBatchBytes } : {}) } } });
    const store = await CrawlStore.open(dataDir);
    const serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: token });
    const post = async (body: string, type = 'application/x-ndjson', auth = token) => {
      const response = await fetch(`${serving.url}/api/admin/documents`, { method: 'POST', body, headers: { 'content-type': type, ...(auth ? { authorization: `Bearer ${auth}` } : {}) } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const waitForJob = async (id: string) => {
      for (let i = 0; i < 600; i++) {
        const job = (await (await fetch(`${serving.url}/api/admin/jobs/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { state: string; error?: string };
        if (job.state !== 'queued' && job.state !== 'running') return job;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`job ${id} did not end`);
    };
    const admin = async (path: string, body: unknown) => (await (await fetch(`${serving.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } })).json()) as Record<string, unknown>;
    const search = async (q: string) => (await (await fetch(`${serving.url}/api/search?q=${encodeURIComponent(q)}&rank=text`)).json()) as { total: number; hits: Array<{ url: string }> };
    const close = async () => {
      await serving.close();
      await store.close();
    };
    return { post, admin, waitForJob, search, close, store };
  }

  it('takes batches of lines, makes them searchable, and updates on a second push', async () => {
    const site = await serveEmpty();
    try {
      expect((await site.post(sitePages().join('\n'), 'application/x-ndjson', '')).status).toBe(401);
      const first = await site.post(sitePages().join('\n'));
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ lines: 23, added: 23, updated: 0, errorCount: 0 });
      expect(await site.waitForJob(first.body.job as string)).toMatchObject({ state: 'done' });
      expect((await site.search('wrench')).hits.map((h) => h.url)).toEqual(['https://docs.example.org/install/']);

      const second = await site.post([line({ url: 'https://docs.example.org/install/', title: 'Installing', body: 'Install with the zeppelin wrench.' }), 'not json', line({ url: 'https://docs.example.org/reference/opt1', title: 'Option 1', body: 'Chapter 1 explains configuration option number 1 in detail.', section: 'Reference', lastModified: '2026-10-01T12:00:00Z', links: ['/reference/', '/'] })].join('\n'));
      expect(second.status).toBe(202);
      expect(second.body).toMatchObject({ lines: 3, added: 0, updated: 1, unchanged: 1, errorCount: 1, errors: [{ line: 2, field: 'line' }] });
      expect(await site.waitForJob(second.body.job as string)).toMatchObject({ state: 'done' });
      expect((await site.search('zeppelin')).hits.map((h) => h.url)).toEqual(['https://docs.example.org/install/']);

      // A re-crawl leaves imported pages be: there is nothing to fetch (docs.example.org does not even resolve here).
      const recrawl = await site.admin('/api/admin/recrawls', { budget: 50 });
      expect(await site.waitForJob(recrawl.id as string)).toMatchObject({ state: 'done', recrawl: { visited: 0, gone: 0, errors: 0 } });
      expect((await site.search('zeppelin')).total).toBe(1);
    } finally {
      await site.close();
    }
  });

  it('commits a push in small batches, beside the searches it serves', async () => {
    const site = await serveEmpty();
    try {
      const before = site.store.pageWriteSequence;
      const lines = Array.from({ length: 2 * SERVED_BATCH_PAGES + 1 }, (_, i) => line({ url: `https://docs.example.org/p${i}`, title: `Page ${i}`, body: `words of page ${i}` }));
      const pushed = await site.post(lines.join('\n'));
      expect(pushed.body).toMatchObject({ added: 2 * SERVED_BATCH_PAGES + 1 });
      // One commit per SERVED_BATCH_PAGES pages, and one for the rest.
      expect(site.store.pageWriteSequence - before).toBe(3);
      expect(await site.waitForJob(pushed.body.job as string)).toMatchObject({ state: 'done' });
      expect((await site.search('words')).total).toBe(2 * SERVED_BATCH_PAGES + 1);
    } finally {
      await site.close();
    }
  });

  it('answers 400 when no line is good, 415 for another media type, 413 past the batch size', async () => {
    const site = await serveEmpty(4096);
    try {
      const bad = await site.post(['{}', '{"url":"https://x.org/"}'].join('\n'));
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'LSE_DOCUMENTS_INVALID', errorCount: 2, errors: [{ line: 1, field: 'url' }, { line: 2, field: 'title' }] });
      expect((await site.post(JSON.stringify({ url: 'https://x.org/', title: 't', body: 'b' }), 'application/json')).status).toBe(415);
      const lines = Array.from({ length: 100 }, (_, i) => line({ url: `https://docs.example.org/p${i}`, title: `Page ${i}`, body: 'words '.repeat(10) }));
      const big = await site.post(lines.join('\n'));
      expect(big.status).toBe(413);
      expect(big.body.code).toBe('LSE_DOCUMENTS_BATCH_TOO_LARGE');
      // What was read before the cut went in, and says so.
      const added = big.body.added as number;
      expect(added).toBeGreaterThan(10);
      expect(added).toBeLessThan(100);
      expect(big.body.message).toContain(`lines 1 to ${added}`);
    } finally {
      await site.close();
    }
  });
});
