/**
 * The whole product at scale, as an operator runs it: `lse import` of N pushed pages (which builds
 * the index), `lse serve` start-up, searches and suggestions over HTTP, and an update of 1 % of the
 * pages pushed to the running server under search load. Each command is a process of its own:
 * wall and CPU seconds and peak RSS come from /usr/bin/time and /proc.
 *
 *   npm run bench -- scale                          100k pages
 *   LSE_BENCH_SCALE_SIZES=100000,300000,1000000 npm run bench -- scale
 *   LSE_BENCH_SCALE_VOCABULARY=synthetic npm run bench -- scale    longer words, pages of 1.6x the bytes
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import type { BenchContext } from './run.ts';
import { realWordTable, scaleQueries, scaleUrl, writeScalePages, type WordTable } from './scale-corpus.ts';

const ROOT = resolve(import.meta.dirname, '..');
const LSE = join(ROOT, 'bin', 'lse.js');
const TOKEN = 'scale-bench-admin-token-0123456789';

export async function scaleBenchmarks(bench: BenchContext): Promise<void> {
  if (!existsSync('/usr/bin/time')) {
    bench.note('scale: /usr/bin/time is missing (Debian package time); skipped');
    return;
  }
  const sizes = (process.env.LSE_BENCH_SCALE_SIZES ?? '100000').split(',').map(Number).filter((n) => n > 0);
  const table = realWordTable();
  bench.heading(`scale: lse import, lse serve, search over HTTP (words drawn from ${table.source}, ~250 words a page)`);
  const rows: Array<Array<string | number>> = [
    ['pages', 'import+index s', 'CPU s', 'peak RSS MB', 'disk MB', 'serve ready s', 'serve RSS MB', 'search p50/p99 ms', 'again (warm) p50/p99 ms', 'suggest p99 ms', '1 % update searchable s', 'update job done s', 'p99/max ms during (worst 10-s window)', 'ready again after the update s', 'non-2xx'],
  ];
  for (const count of sizes) {
    const row = await scaleCase(bench, table, count);
    rows.push(row);
    // Each size as soon as it is measured: a million pages take most of an hour.
    bench.note(rows[0].map((name, i) => `${name}: ${row[i]}`).join(' · '));
  }
  bench.table(rows);
  bench.note('per page: divide RSS, disk and CPU by the page count; the machine is shared, so CPU seconds are the steadier figure');
}

async function scaleCase(bench: BenchContext, table: WordTable, count: number): Promise<Array<string | number>> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-scale-'));
  try {
    const dataDir = join(dir, 'data');
    const pages = join(dir, 'pages.jsonl');
    await writeScalePages(pages, table, count);
    const port = await freePort();
    const config = join(dir, 'lse.json');
    writeFileSync(config, JSON.stringify({ dataDir, schedules: { estimate: 'off' }, server: { port, rateLimitPerMinute: 1_000_000_000, adminRateLimitPerMinute: 1_000_000, slowSearchMs: SLOW_SEARCH_MS } }));
    const imported = timed(['import', '--config', config, pages]);
    bench.note(`${count.toLocaleString('en-US')} pages: ${imported.output.trim().split('\n').slice(-2).join('; ')}`);
    const diskMb = Number(execFileSync('du', ['-sb', dataDir], { encoding: 'utf8' }).split('\t')[0]) / 1e6;

    const url = `http://127.0.0.1:${port}`;
    let started = performance.now();
    let server = startServer(config);
    try {
      await waitReady(url, server);
      const readySeconds = (performance.now() - started) / 1000;
      const queries = scaleQueries(table, 500).map((q) => `/api/search?q=${encodeURIComponent(q)}&size=10`);
      const search = await load(url, queries, 10);
      // The same queries again: their postings are now in the server's cache.
      const warm = await load(url, queries, 10);
      const prefixes = scaleQueries(table, 300).map((q) => `/api/suggest?q=${encodeURIComponent(q.split(' ')[0].slice(0, 3))}`);
      const suggest = await load(url, prefixes, 5);
      const update = await updateUnderLoad(dir, url, table, count, queries);
      // When each slow answer came, to place it among the update's steps.
      const slow = update.slow.map((answer) => `${answer.ms.toFixed(1)} ms ${answer.afterPush.toFixed(1)} s after the push (${decodeURIComponent(answer.path)}; ${whereItWaited(answer)})`);
      bench.note(`${count.toLocaleString('en-US')} pages: answers over ${SLOW_MS} ms beside the update (pushed at ${update.pushedAt} ms since the epoch): ${slow.length === 0 ? 'none' : slow.join('; ')}`);
      // What the server's slow-search log said of the searches over SLOW_SEARCH_MS since the push.
      const logged = (slowSearchesOf.get(server) ?? []).filter((entry) => entry.time >= update.pushedAt);
      if (logged.length > 0) bench.note(`${count.toLocaleString('en-US')} pages: the server's slow-search log beside the update: ${logged.map((entry) => `${((entry.time - update.pushedAt) / 1000).toFixed(1)} s ${decodeURIComponent(entry.url)} ${JSON.stringify(entry.slowSearch)}`).join('; ')}`);
      const serveRss = peakRssMb(server.pid!);
      // A restart after the update: what it reads again of the pages it wrote.
      await stopServer(server);
      started = performance.now();
      server = startServer(config);
      await waitReady(url, server);
      const readyAgainSeconds = (performance.now() - started) / 1000;
      return [
        count,
        imported.wallSeconds.toFixed(0),
        imported.cpuSeconds.toFixed(0),
        imported.peakRssMb.toFixed(0),
        diskMb.toFixed(0),
        readySeconds.toFixed(1),
        serveRss.toFixed(0),
        `${search.p50.toFixed(1)} / ${search.p99.toFixed(1)}`,
        `${warm.p50.toFixed(1)} / ${warm.p99.toFixed(1)}`,
        suggest.p99.toFixed(1),
        update.searchableSeconds.toFixed(1),
        update.doneSeconds.toFixed(1),
        `${update.p99.toFixed(1)} / ${update.max.toFixed(1)}`,
        readyAgainSeconds.toFixed(1),
        search.non2xx + warm.non2xx + suggest.non2xx + update.non2xx,
      ];
    } finally {
      await stopServer(server);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The slow-search log's entries of each server (its warnings on standard output, JSON lines). */
const slowSearchesOf = new WeakMap<ChildProcess, Array<{ time: number; url: string; slowSearch: Record<string, unknown> }>>();

function startServer(config: string): ChildProcess {
  const server = spawn(process.execPath, [LSE, 'serve', '--config', config], { env: { ...process.env, LSE_ADMIN_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'inherit'] });
  const logged: Array<{ time: number; url: string; slowSearch: Record<string, unknown> }> = [];
  slowSearchesOf.set(server, logged);
  createInterface({ input: server.stdout! }).on('line', (line) => {
    if (!line.includes('"slow search"')) return;
    try {
      logged.push(JSON.parse(line));
    } catch {
      // not a log line of ours
    }
  });
  return server;
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((done) => server.once('exit', done));
  server.kill('SIGTERM');
  await exited;
}

/** Runs `lse ARGS` under /usr/bin/time: wall and CPU seconds, peak RSS, what it printed. */
function timed(args: string[]): { wallSeconds: number; cpuSeconds: number; peakRssMb: number; output: string } {
  const marker = 'LSE-TIME';
  const run = spawnSync('/usr/bin/time', ['-f', `${marker} %e %U %S %M`, process.execPath, LSE, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`lse ${args[0]} failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return { ...parseTime(run.stderr, marker), output: run.stdout };
}

function parseTime(stderr: string, marker: string): { wallSeconds: number; cpuSeconds: number; peakRssMb: number } {
  const line = stderr.split('\n').find((l) => l.startsWith(marker));
  if (!line) return { wallSeconds: NaN, cpuSeconds: NaN, peakRssMb: NaN };
  const [, wall, user, system, rssKb] = line.split(' ');
  return { wallSeconds: Number(wall), cpuSeconds: Number(user) + Number(system), peakRssMb: Number(rssKb) / 1024 };
}

/** A free TCP port on loopback (also used by the start-up benchmark). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Waits until `lse serve` answers /healthz (also used by research/scripts/update-pauses.ts). */
export async function waitReady(url: string, server: ChildProcess): Promise<void> {
  for (;;) {
    if (server.exitCode !== null) throw new Error(`lse serve exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 50));
  }
}

/**
 * An answer over {@link SLOW_MS}: when it came (ms since the epoch), how long it took, what it
 * asked, and how long of it the server said it spent (its Server-Timing `app`) and waited for a
 * turn beside the job (`turn`).
 */
interface SlowAnswer {
  at: number;
  ms: number;
  path: string;
  serverMs: number;
  turnMs: number;
}

const APP_DURATION = /(?:^|,)\s*app;dur=([\d.]+)/;
const TURN_DURATION = /(?:^|,)\s*turn;dur=([\d.]+)/;

/** The `app` and `turn` durations of a Server-Timing header (NaN where absent). */
function serverTiming(header: string | undefined): { serverMs: number; turnMs: number } {
  const duration = (pattern: RegExp) => Number(pattern.exec(header ?? '')?.[1] ?? NaN);
  return { serverMs: duration(APP_DURATION), turnMs: duration(TURN_DURATION) };
}

const SLOW_MS = 50;
/** The server logs searches that took it longer (its slow-search log), below {@link SLOW_MS} to catch what an answer over it spent. */
const SLOW_SEARCH_MS = 30;

/**
 * Requests one after another for `seconds`; latencies to a tenth of a millisecond (autocannon's own
 * percentiles are whole milliseconds, too coarse beside a 3 ms target), and the answers over
 * {@link SLOW_MS}.
 */
async function load(url: string, paths: readonly string[], seconds: number): Promise<{ p50: number; p99: number; max: number; non2xx: number; slow: SlowAnswer[] }> {
  let next = 0;
  let answered = 0;
  const latencies: number[] = [];
  const slow: SlowAnswer[] = [];
  // Read from each answer's headers just before its 'response' event.
  let timing = serverTiming(undefined);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const request = {
      method: 'GET' as const,
      setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length] }),
      onResponse: (_status: number, _body: string, _context: object, headers: autocannon.Request['headers']) => void (timing = serverTiming(String(headers?.['server-timing'] ?? ''))),
    };
    const instance = autocannon({ url, connections: 1, duration: seconds, requests: [request] }, (error, done) => (error ? reject(error) : resolve(done)));
    // One connection, one request at a time: the answers come in the order of the requests.
    instance.on('response', (_client, _status, _bytes, milliseconds) => {
      latencies.push(milliseconds);
      if (milliseconds > SLOW_MS) slow.push({ at: Date.now(), ms: milliseconds, path: paths[answered % paths.length], ...timing });
      answered++;
    });
  });
  latencies.sort((a, b) => a - b);
  const at = (share: number) => (latencies.length === 0 ? NaN : latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))]);
  return { p50: at(0.5), p99: at(0.99), max: at(1), non2xx: result.non2xx + result.errors, slow };
}

/**
 * Pushes 1 % of the pages changed while searches run: seconds until the last one is searchable,
 * seconds until the import job has finished (facts, local PageRank and suggestions refreshed
 * after the index), and the answers' latencies over the whole time, in windows of 10 s.
 */
async function updateUnderLoad(dir: string, url: string, table: WordTable, count: number, queries: readonly string[]) {
  const changed = Math.max(1, Math.floor(count / 100));
  const file = join(dir, 'update.jsonl');
  await writeScalePages(file, table, count, count - changed, count, 1);
  const probe = `/api/search?q=updatedword1x${count - 1}&size=1`;
  const admin = { authorization: `Bearer ${TOKEN}` };
  const windows: Array<Promise<Awaited<ReturnType<typeof load>>>> = [];
  let finished = false;
  const ownLoop = watchOwnLoop();
  const searching = (async () => {
    while (!finished) {
      const window = load(url, queries, 10);
      windows.push(window);
      await window;
    }
  })();
  const started = performance.now();
  const pushedAt = Date.now();
  let searchableSeconds = NaN;
  let doneSeconds = NaN;
  try {
    const response = await fetch(`${url}/api/admin/documents`, { method: 'POST', body: createReadStream(file) as unknown as BodyInit, duplex: 'half', headers: { 'content-type': 'application/x-ndjson', ...admin } } as RequestInit);
    if (response.status !== 202) throw new Error(`POST /api/admin/documents answered ${response.status}: ${await response.text()}`);
    const { job } = (await response.json()) as { job: string };
    while (performance.now() - started < 900_000 && Number.isNaN(doneSeconds)) {
      if (Number.isNaN(searchableSeconds)) {
        const body = (await (await fetch(`${url}${probe}`)).json()) as { hits: Array<{ url: string }> };
        if (body.hits[0]?.url === scaleUrl(count - 1)) searchableSeconds = (performance.now() - started) / 1000;
      }
      const status = (await (await fetch(`${url}/api/admin/jobs/${job}`, { headers: admin })).json()) as { state: string };
      if (status.state !== 'queued' && status.state !== 'running') doneSeconds = (performance.now() - started) / 1000;
      else await new Promise((done) => setTimeout(done, 200));
    }
    if (Number.isNaN(searchableSeconds)) {
      const body = (await (await fetch(`${url}${probe}`)).json()) as { hits: Array<{ url: string }> };
      if (body.hits[0]?.url === scaleUrl(count - 1)) searchableSeconds = doneSeconds;
    }
  } finally {
    finished = true;
    await searching;
  }
  const ownStalls = ownLoop.stop();
  const during = await Promise.all(windows);
  return {
    searchableSeconds,
    doneSeconds,
    p99: Math.max(...during.map((w) => w.p99)),
    max: Math.max(...during.map((w) => w.max)),
    non2xx: during.reduce((sum, w) => sum + w.non2xx, 0),
    pushedAt,
    slow: during.flatMap((w) => w.slow).map((answer) => ({ ...answer, afterPush: (answer.at - pushedAt) / 1000, benchHeldMs: heldDuring(ownStalls, answer) })),
  };
}

/** A stall of the bench's own event loop: when it ended (ms since the epoch) and how long it was. */
interface Stall {
  at: number;
  ms: number;
}

/**
 * The bench's own event loop, watched by a timer every 5 ms: each time it came over 20 ms late.
 * The latencies are measured here, so a pause of the bench (its garbage collection, a CPU it did
 * not get) counts in them as if the server had been slow.
 */
function watchOwnLoop(): { stop(): Stall[] } {
  const stalls: Stall[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last - 5 > 20) stalls.push({ at: Date.now(), ms: now - last });
    last = now;
  }, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return stalls;
    },
  };
}

/** How long the bench's loop was held while an answer was awaited (the stalls that overlap it). */
function heldDuring(stalls: readonly Stall[], answer: SlowAnswer): number {
  const sent = answer.at - answer.ms;
  return stalls.filter((stall) => stall.at > sent && stall.at - stall.ms < answer.at).reduce((sum, stall) => sum + stall.ms, 0);
}

/** Where a slow answer's time went: in the server's handler, waiting for its turn, in the bench. */
function whereItWaited(answer: SlowAnswer & { benchHeldMs: number }): string {
  const server = Number.isNaN(answer.serverMs) ? 'no Server-Timing' : `server ${answer.serverMs.toFixed(1)} ms${Number.isNaN(answer.turnMs) ? '' : `, ${answer.turnMs.toFixed(1)} of it waiting its turn`}`;
  return `${server}; bench loop held ${answer.benchHeldMs.toFixed(0)} ms`;
}

function peakRssMb(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}
