import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, waitReady } from '../bench/scale.bench.ts';
import { loadSettings } from '../config/load-settings.ts';
import { generateDemoWeb, type DemoWeb } from '../crawler/demo-web/generate.ts';
import { startDemoWebServer, type DemoWebServer } from '../crawler/demo-web/server.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { demoTruth } from '../server/cli/demo-command.ts';
import { main } from '../server/cli/main.ts';
import { serveStore, type Serving } from '../server/cli/serve-command.ts';

const lse = fileURLToPath(new URL('../bin/lse.js', import.meta.url));
const token = 'round-test-token-0123456789';

let web: DemoWeb;
let demo: DemoWebServer;
let dataDir: string;

beforeAll(async () => {
  web = generateDemoWeb();
  demo = await startDemoWebServer(web, { latencyScale: 0 });
  dataDir = mkdtempSync(join(tmpdir(), 'lse-round-'));
  // The data directory is made the way a user makes it: lse crawl, then lse index.
  const quiet = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const crawl = ['crawl', '--data', dataDir, '--seed', `http://${web.localHost}/`, '--resolve', `*:80:127.0.0.1:${demo.port}`, '--allow-private-networks', '--delay', '0', '--max-pages', '400'];
    expect(await main(crawl)).toBe(0);
    expect(await main(['index', '--data', dataDir])).toBe(0);
  } finally {
    quiet.mockRestore();
    out.mockRestore();
  }
});
afterAll(async () => demo?.close());

async function call(base: string, path: string, init: RequestInit = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { ...init, headers });
  return { status: response.status, body: await response.json() };
}

async function waitForRound(base: string, id: string, until: (round: { state: string; iteration: number }) => boolean) {
  for (;;) {
    const { body } = await call(base, `/api/admin/rounds/${id}`);
    if (until(body)) return body;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('estimation rounds through the admin API', () => {
  let store: CrawlStore;
  let serving: Serving;

  beforeAll(async () => {
    store = await CrawlStore.open(dataDir);
    const remembered = (await store.getMeta<Record<string, unknown>>('crawl-settings')) ?? {};
    // Polling rounds every 50 ms goes past the default admin rate limit (60 a minute).
    const settings = loadSettings({ env: {}, overrides: { dataDir, crawler: remembered, server: { adminRateLimitPerMinute: 100_000 } } });
    serving = await serveStore(store, settings, { listen: { host: '127.0.0.1', port: 0 }, adminToken: token, truthOf: demoTruth(web) });
  });
  afterAll(async () => {
    await serving?.close();
    await store?.close();
  });

  it('runs a round to the end, reports its progress and error to the truth, and switches the ranking', async () => {
    const before = await (await fetch(`${serving.url}/api/search?q=telescope&explain=true&size=1`)).json();
    const { status, body } = await call(serving.url, '/api/admin/rounds', { method: 'POST', body: JSON.stringify({ selector: 'sc', iterations: 4, pagesPerIteration: 15 }) });
    expect(status).toBe(202);
    const round = await waitForRound(serving.url, body.id, (r) => r.state !== 'queued' && r.state !== 'running');
    expect(round).toMatchObject({ state: 'done', iteration: 4, iterations: 4, selector: 'sc' });
    expect(round.crawled).toBeGreaterThan(20);
    expect(round.history).toHaveLength(5);
    expect(round.history[4].l1ToTruth).toBeGreaterThan(0);
    expect(round.change).toBeGreaterThan(0);
    const after = await (await fetch(`${serving.url}/api/search?q=telescope&explain=true&size=1`)).json();
    expect(after.hits[0].explain.rankVersion).toBe(before.hits[0].explain.rankVersion + 1);
    const list = await call(serving.url, '/api/admin/rounds');
    expect(list.body.rounds.map((r: { id: string }) => r.id)).toContain(body.id);
    const divergence = await call(serving.url, '/api/admin/pages/divergence?limit=5');
    expect(divergence.body.pages).toHaveLength(5);
  });

  it('runs the best method (the hedged adaptive selection + the gated consensus estimate) and refuses an unknown estimator', async () => {
    const { status, body } = await call(serving.url, '/api/admin/rounds', { method: 'POST', body: JSON.stringify({ selector: 'best', iterations: 3, pagesPerIteration: 10 }) });
    expect(status).toBe(202);
    const round = await waitForRound(serving.url, body.id, (r) => r.state !== 'queued' && r.state !== 'running');
    expect(round).toMatchObject({ state: 'done', iteration: 3, selector: 'best' });
    expect(round.history[3].l1ToTruth).toBeGreaterThan(0);
    const stored = await store.latestRanks('estimate');
    expect(stored?.info).toMatchObject({ round: body.id, selector: 'best', estimator: 'gated' });
    let sum = 0;
    for (const value of stored!.values) sum += value;
    expect(sum).toBeCloseTo(1, 9);
    // Without a selector a round runs the default method, which on this host-scoped site is SC-Select with the
    // supergraph estimate (best would have recorded its gated estimate).
    const plain = await call(serving.url, '/api/admin/rounds', { method: 'POST', body: JSON.stringify({ iterations: 2, pagesPerIteration: 5 }) });
    expect(plain.status).toBe(202);
    expect(await waitForRound(serving.url, plain.body.id, (r) => r.state !== 'queued' && r.state !== 'running')).toMatchObject({ state: 'done', selector: 'default' });
    expect((await store.latestRanks('estimate'))?.info).toMatchObject({ round: plain.body.id, selector: 'default', estimator: 'supergraph' });
    const bad = await call(serving.url, '/api/admin/rounds', { method: 'POST', body: JSON.stringify({ selector: 'sc', estimator: 'oracle', iterations: 2 }) });
    expect(bad.status).toBe(400);
  });

  it('continues from the supergraph of the rounds before unless fresh, and reports the history of the estimate', async () => {
    const post = async (body: object) => {
      const { body: started } = await call(serving.url, '/api/admin/rounds', { method: 'POST', body: JSON.stringify(body) });
      return waitForRound(serving.url, started.id, (r) => r.state !== 'queued' && r.state !== 'running');
    };
    const first = await post({ selector: 'sc', iterations: 3, pagesPerIteration: 20, fresh: true });
    expect(first).toMatchObject({ state: 'done', startPages: 0, fresh: true });
    const next = await post({ selector: 'sc', iterations: 2, pagesPerIteration: 10 });
    expect(next).toMatchObject({ state: 'done', fresh: false });
    // Every page of the first round's F is in the next one: in L (a page of the local domain
    // the crawl had not reached is local once a round fetched it) or among its global pages.
    expect(next.startPages).toBeGreaterThan(0);
    expect(next.localPages + next.startPages).toBe(first.localPages + first.crawled);
    expect(next.crawled).toBeGreaterThan(first.crawled);
    expect(next.continuedFrom).toBeGreaterThan(0);
    expect(next.roundChange).toBeGreaterThan(0);
    const again = await post({ selector: 'sc', iterations: 2, pagesPerIteration: 10, fresh: true });
    expect(again).toMatchObject({ state: 'done', startPages: 0 });
    const { body: status } = await call(serving.url, '/api/admin/status');
    const ids = status.roundHistory.map((r: { id: string }) => r.id);
    expect(ids.slice(-3)).toEqual([first.id, next.id, again.id]);
    expect(status.roundHistory.at(-2)).toMatchObject({ crawled: next.crawled, newPages: next.crawled - next.startPages, roundChange: next.roundChange });
    expect(status.roundHistory.at(-1).l1ToTruth).toBeGreaterThan(0);
    const { body: list } = await call(serving.url, '/api/admin/rounds');
    expect(list.history).toEqual(status.roundHistory);
  });

  it('has a nightly round by default, with a budget of n pages, continuing from the last round', async () => {
    const { body: status } = await call(serving.url, '/api/admin/status');
    expect(status.schedules.map((s: { name: string; cron: string }) => [s.name, s.cron])).toContainEqual(['estimate', '15 2 * * *']);
    const run = await call(serving.url, '/api/admin/schedules/estimate/run', { method: 'POST', body: '{}' });
    expect(run.status).toBe(202);
    const round = await waitForRound(serving.url, run.body.id, (r) => r.state !== 'queued' && r.state !== 'running');
    expect(round.state).toBe('done');
    expect(round.extraPages).toBe(round.localPages);
    expect(round).toMatchObject({ fresh: false, continuedFrom: expect.any(Number) });
  });

  it('streams progress as server-sent events until the round ends', async () => {
    const { body } = await call(serving.url, '/api/admin/rounds', { method: 'POST', body: JSON.stringify({ iterations: 3, pagesPerIteration: 5 }) });
    const response = await fetch(`${serving.url}/api/admin/rounds/${body.id}/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await response.text();
    const events = text.split('\n\n').filter((e) => e.startsWith('event: status')).map((e) => JSON.parse(e.split('data: ')[1]));
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.at(-1).state).toBe('done');
  });

  it('cancels a running round', async () => {
    const { body } = await call(serving.url, '/api/admin/rounds', { method: 'POST', body: JSON.stringify({ iterations: 500, pagesPerIteration: 2 }) });
    await waitForRound(serving.url, body.id, (r) => r.state === 'running' && r.iteration >= 1);
    expect((await call(serving.url, `/api/admin/rounds/${body.id}`, { method: 'DELETE' })).status).toBe(202);
    const round = await waitForRound(serving.url, body.id, (r) => r.state !== 'running');
    expect(round.state).toBe('cancelled');
    expect(round.iteration).toBeLessThan(500);
  });
});

describe('a round killed with SIGKILL', () => {
  const start = (port: number): ChildProcess =>
    spawn(process.execPath, [lse, 'serve', '--data', dataDir, '--port', String(port)], { env: { ...process.env, LSE_ADMIN_TOKEN: token }, stdio: 'ignore' });

  it('resumes after a restart at the iteration it reached, fetching no stored page again', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let server = start(port);
    // Until it answers (within the test's timeout: a start on a loaded CI machine is slow), or fails at once if it exits.
    await waitReady(base, server);
    const { body } = await call(base, '/api/admin/rounds', { method: 'POST', body: JSON.stringify({ selector: 'sc', iterations: 8, pagesPerIteration: 12 }) });
    await waitForRound(base, body.id, (r) => r.iteration >= 3 || r.state === 'done' || r.state === 'failed');
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    const killedAt = demo.requestLog.length;
    const store = await CrawlStore.open(dataDir);
    const stored = new Set<string>();
    for await (const [, page] of store.pages()) if (page.role === 'global') stored.add(page.url);
    const interrupted = await store.getJob<{ state: string; iteration: number }>(body.id);
    await store.close();
    expect(interrupted?.state).toBe('running');
    expect(interrupted!.iteration).toBeGreaterThanOrEqual(3);

    server = start(port);
    await waitReady(base, server);
    const round = await waitForRound(base, body.id, (r) => r.state === 'done' || r.state === 'failed');
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    expect(round.state).toBe('done');
    expect(round.iteration).toBe(8);
    expect(round.history.map((h: { iteration: number }) => h.iteration)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const refetched = demo.requestLog.slice(killedAt).filter((r) => r.path !== '/robots.txt' && stored.has(`http://${r.host}${r.path}`));
    expect(refetched).toEqual([]);
  });
});
