/**
 * What an answer waits behind while `lse serve` takes an update: the figures of the text index
 * README's tenth round come from here.
 *
 *   node bin/run-ts.js research/scripts/search-ab.ts pages FILE COUNT     scale pages
 *   node bin/lse.js import --data DIR FILE; cp -r DIR DIR-copy; sync      a store, and a copy to change
 *   node bin/run-ts.js research/scripts/update-pauses.ts serve DIR-copy COUNT [PROFILE_DIR]
 *   node bin/run-ts.js research/scripts/update-pauses.ts index DIR-copy COUNT
 *   node bin/run-ts.js research/scripts/update-pauses.ts runs PROFILE MIN_MS SECONDS
 *   node bin/run-ts.js research/scripts/update-pauses.ts ranks COUNT
 *   node bin/run-ts.js research/scripts/update-pauses.ts versions COUNT
 *   node bin/run-ts.js research/scripts/update-pauses.ts private DIR-copy-after-an-update
 *   node bin/run-ts.js research/scripts/update-pauses.ts rehearsal DIR
 *
 * `serve` starts `lse serve` on the copy (under `--cpu-prof` when PROFILE_DIR is given), warms it
 * with two passes of the 500 scale queries, pushes the scale bench's update of 1 % of COUNT pages
 * while one client searches one request after another until the job is done, and prints the
 * answers' latencies and the slow ones, with their time after the push began and before the
 * server stopped (the end of its profile). VARIANT=2 (3, …) pushes other words for the same pages, to
 * update again a copy that a first run updated. With LOOP_TRACE=1 the server runs with `loop-trace.mjs` preloaded, and each slow
 * answer is printed with what held the server's event loop meanwhile (runs of over 30 ms, the
 * search's own included) and the collections over 8 ms, and so is every such event from the push to the end. `index` gives the same update to the text index alone, in process (see indexUpdate).
 * Without the `sync`, the kernel may still be writing the copy back while the update
 * runs: one such run had an answer of 1.7 s, with direct reclaim and compaction stalls counted in
 * /proc/vmstat. `runs` prints the main thread's runs of work that are neither idle nor a search's own
 * frames, at least MIN_MS long, within the profile's last SECONDS, with what they spent it on.
 * A search's passages run after an await, outside the route's frames: they count as other work,
 * so a run is an upper bound on what held the loop, and runs with no search between them join.
 * `ranks` prints the longest hold of the event loop while a rank vector of COUNT entries is stored
 * and read back in a fresh store (five rounds). `versions` times an update's changes in the index's page version table (see
 * versionTableTimes). `private` times the private-pages check on a store after `serve` updated it: a
 * pass over every page against the pages the journal names for the last 1 % written.
 * `rehearsal` times the warm-up's rehearsal of deletions on a store's index (see rehearsalTimes).
 */
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { realWordTable, scaleQueries, writeScalePages } from '../../bench/scale-corpus.ts';
import { freePort, waitReady } from '../../bench/scale.bench.ts';
import { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { TextIndex } from '../../indexer/text-index/text-index.ts';
import { VersionTable } from '../../indexer/text-index/version-table.ts';
import { storeHoldsPrivatePages } from '../../server/search-access.ts';
import { FREQUENT_TERMS, REHEARSED_SEARCHES, warmingQueries } from '../../server/warming-searches.ts';
import { openSide, percentile } from './search-ab.ts';

const TOKEN = 'update-pauses-admin-token-0123456789';
const LSE = resolve(import.meta.dirname, '../../bin/lse.js');
const LOOP_TRACE = resolve(import.meta.dirname, 'loop-trace.mjs');

/** What loop-trace.mjs reported: the loop held, or a collection, ending at `at` (ms since the epoch). */
interface LoopEvent {
  what: string;
  ms: number;
  at: number;
}

async function serveAndUpdate(dataDir: string, count: number, profileDir?: string): Promise<void> {
  const table = realWordTable();
  const updates = join(dataDir, 'update-pauses.jsonl');
  // VARIANT: other words for the same pages, for an update of a store that already took one (its segments have deletions at start).
  await writeScalePages(updates, table, count, count - Math.max(1, Math.floor(count / 100)), count, Number(process.env.VARIANT ?? 1));
  const port = await freePort();
  const config = join(dataDir, 'update-pauses.json');
  writeFileSync(config, JSON.stringify({ dataDir, schedules: { estimate: 'off' }, server: { port, rateLimitPerMinute: 1e9, adminRateLimitPerMinute: 1e6 } }));
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval', process.env.PROFILE_INTERVAL_US ?? '250'] : [];
  const tracing = process.env.LOOP_TRACE === '1';
  const trace = tracing ? ['--import', pathToFileURL(LOOP_TRACE).href] : [];
  // SERVER_FLAGS: more of Node's or V8's flags for the server (--trace-deopt), its output in SERVER_STDOUT.
  const flags = (process.env.SERVER_FLAGS ?? '').split(' ').filter((flag) => flag !== '');
  const stdout = process.env.SERVER_STDOUT ? openSync(process.env.SERVER_STDOUT, 'w') : 'ignore';
  const server = spawn(process.execPath, [...profile, ...trace, ...flags, LSE, 'serve', '--config', config], { env: { ...process.env, LSE_ADMIN_TOKEN: TOKEN }, stdio: ['ignore', stdout, tracing ? 'pipe' : 'inherit'] });
  const events: LoopEvent[] = [];
  if (server.stderr) {
    createInterface({ input: server.stderr }).on('line', (line) => {
      const [tag, what, ms, ...rest] = line.split(' ');
      if (tag !== 'LOOP-TRACE') return void process.stderr.write(`${line}\n`);
      events.push({ what: what === 'gc' ? `collection (kind ${rest[0]})` : `loop held (on a CPU ${rest[0]} ms, on the run queue ${rest[1]} ms) for`, ms: Number(ms), at: Number(rest[rest.length - 1]) });
    });
  }
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, server);
  const agent = new Agent({ connections: 1 });
  const paths = scaleQueries(table, 500).map((q) => `/api/search?q=${encodeURIComponent(q)}&size=10`);
  const ask = async (path: string) => (await request(`${url}${path}`, { dispatcher: agent })).body.text();
  for (let pass = 0; pass < 2; pass++) for (const path of paths) await ask(path);

  const answers: Array<{ at: number; ms: number; path: string; tookMs: number }> = [];
  let finished = false;
  const searching = (async () => {
    for (let i = 0; !finished; i++) {
      const path = paths[i % paths.length];
      const started = performance.now();
      const { tookMs } = JSON.parse(await ask(path)) as { tookMs: number };
      answers.push({ at: Date.now(), ms: performance.now() - started, path, tookMs });
    }
  })();
  const admin = { authorization: `Bearer ${TOKEN}` };
  const started = performance.now();
  const pushedAt = Date.now();
  const pushed = await fetch(`${url}/api/admin/documents`, { method: 'POST', body: createReadStream(updates) as unknown as BodyInit, duplex: 'half', headers: { 'content-type': 'application/x-ndjson', ...admin } } as RequestInit);
  if (pushed.status !== 202) throw new Error(`POST /api/admin/documents answered ${pushed.status}: ${await pushed.text()}`);
  const { job } = (await pushed.json()) as { job: string };
  for (;;) {
    const { state } = (await (await fetch(`${url}/api/admin/jobs/${job}`, { headers: admin })).json()) as { state: string };
    if (state !== 'queued' && state !== 'running') break;
    await new Promise((done) => setTimeout(done, 200));
  }
  const jobSeconds = (performance.now() - started) / 1000;
  finished = true;
  await searching;
  const end = Date.now();
  server.kill('SIGINT');
  await new Promise((done) => server.once('exit', done));
  await agent.close();
  console.log(`job done in ${jobSeconds.toFixed(1)} s (the push began at ${pushedAt} ms since the epoch); ${answerFigures(answers)}`);
  for (const slow of answers.filter((a) => a.ms > 50)) {
    console.log(`  ${slow.ms.toFixed(1)} ms (the engine's search ${slow.tookMs} ms), ended ${((slow.at - pushedAt) / 1000).toFixed(2)} s after the push began, ${((end - slow.at) / 1000).toFixed(2)} s before the end: ${decodeURIComponent(slow.path)}`);
    // What ended while the answer was awaited (the loop's runs are reported when they end).
    for (const event of events.filter((e) => e.at >= slow.at - slow.ms && e.at <= slow.at + 5)) console.log(`    ${event.what} ${event.ms.toFixed(0)} ms, ended ${(slow.at - event.at).toFixed(0)} ms before the answer`);
  }
  if (tracing) {
    // Every run and collection from the push to the end: what the job's steps hold the loop for, slow answers or not.
    console.log(`the loop's runs and collections after the push (the job ended ${jobSeconds.toFixed(2)} s after it):`);
    for (const event of events.filter((e) => e.at >= pushedAt && e.at <= end)) console.log(`  ${((event.at - pushedAt) / 1000).toFixed(2)} s: ${event.what} ${event.ms.toFixed(0)} ms`);
  }
}

/**
 * The text index's share of an update: the same 1 % of COUNT pages given to the index in process
 * (no HTTP, store, page facts, ranks or suggestions), with one search after another, each on a
 * turn of its own as the server's are, until 5 s after the update is searchable.
 */
async function indexUpdate(dataDir: string, count: number): Promise<void> {
  const table = realWordTable();
  const side = await openSide(resolve(import.meta.dirname, '../..'), dataDir, 'search');
  await side.index.warmLongestLists(2_000);
  const queries = scaleQueries(table, 500);
  const ask = async (q: string) => {
    const started = performance.now();
    JSON.stringify(await side.answer(q));
    return performance.now() - started;
  };
  for (let pass = 0; pass < 2; pass++) for (const q of queries) await ask(q);
  const dir = mkdtempSync(join(tmpdir(), 'lse-index-update-'));
  const file = join(dir, 'update.jsonl');
  await writeScalePages(file, table, count, count - Math.max(1, Math.floor(count / 100)), count, 1);
  const upsert = readFileSync(file, 'utf8').trim().split('\n').map((line) => {
    const page = JSON.parse(line) as { url: string; title: string; body: string };
    return { id: side.idOf(page.url)!, url: page.url, host: new URL(page.url).host, title: page.title, headings: [], text: page.body };
  });
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  let searchableAt = Infinity;
  const updating = side.index.update({ upsert, remove: [] }).then(() => (searchableAt = performance.now()));
  const answers: Array<{ at: number; ms: number; q: string }> = [];
  for (let i = 0; performance.now() - searchableAt < 5_000; i++) {
    await new Promise((turn) => setImmediate(turn));
    const q = queries[i % queries.length];
    answers.push({ at: performance.now() - started, ms: await ask(q), q });
  }
  await updating;
  console.log(`searchable after ${((searchableAt - started) / 1000).toFixed(1)} s; ${answerFigures(answers)}`);
  for (const slow of answers.filter((a) => a.ms > 30)) console.log(`  ${slow.ms.toFixed(1)} ms, ${(slow.at / 1000).toFixed(2)} s after the update started: ${slow.q}`);
  process.exit(0);
}

/** The answers' count, p50, p99, longest and how many took over 50 ms. */
function answerFigures(answers: ReadonlyArray<{ ms: number }>): string {
  const times = answers.map((a) => a.ms);
  const at = (share: number) => percentile(times, share).toFixed(1);
  return `${times.length} answers: p50 ${at(0.5)} p99 ${at(0.99)} longest ${at(1)} ms; over 50 ms: ${times.filter((ms) => ms > 50).length}`;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; columnNumber: number };
  children?: number[];
}

/** Runs of main-thread work that is neither idle nor inside the search route, from a V8 CPU profile. */
function mainThreadRuns(file: string, minMs: number, lastSeconds: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.columnNumber}`;
  const stacks = new Map<number, string[]>();
  const stackOf = (id: number) => {
    let stack = stacks.get(id);
    if (!stack) {
      stack = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(name(nodes.get(at)!));
      stacks.set(id, stack);
    }
    return stack;
  };
  const times: number[] = [];
  let t = 0;
  for (const delta of profile.timeDeltas) times.push((t += delta));
  const end = t;
  const skipped = ['(root)', '(program)', '(garbage collector)', 'processTicksAndRejections', 'runMicrotasks', 'processImmediate', 'listOnTimeout', 'processTimers', 'runNextTicks', 'runStepsYielding'];
  let run: Array<[string[], number]> = [];
  let runStart = 0;
  const report = (runEnd: number) => {
    if ((runEnd - runStart) / 1000 >= minMs) {
      const inclusive = new Map<string, number>();
      let collecting = 0;
      for (const [stack, delta] of run) {
        if (stack[0].startsWith('(garbage collector)')) collecting += delta;
        for (const frame of new Set(stack)) inclusive.set(frame, (inclusive.get(frame) ?? 0) + delta);
      }
      const top = [...inclusive].filter(([frame]) => !skipped.some((s) => frame.startsWith(s))).sort((a, b) => b[1] - a[1]).slice(0, 6);
      console.log(`${((runEnd - runStart) / 1000).toFixed(0).padStart(4)} ms (collecting ${(collecting / 1000).toFixed(0)}), ${((end - runEnd) / 1e6).toFixed(2)} s before the end: ${top.map(([frame, us]) => `${frame} ${(us / 1000).toFixed(0)}`).join(' | ')}`);
    }
    run = [];
  };
  profile.samples.forEach((sample, i) => {
    if (end - times[i] > lastSeconds * 1e6) return;
    const stack = stackOf(sample);
    const other = !stack[0].startsWith('(idle)') && !stack.some((frame) => frame.includes('search-route.ts'));
    if (other) {
      if (run.length === 0) runStart = times[i] - profile.timeDeltas[i];
      run.push([stack, profile.timeDeltas[i]]);
    } else if (run.length > 0) report(times[i] - profile.timeDeltas[i]);
  });
  if (run.length > 0) report(end);
}

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)].toFixed(1);

/**
 * The longest the event loop was held (a 1 ms timer that came late) while a rank vector of `count`
 * entries was stored and while it was read back, in a fresh store, five rounds: a vector in pieces
 * is written and read over several turns, so the time of one call says little. Then the time to
 * read one page's value in the five versions, whole and a piece at a time.
 */
async function rankVectorTimes(count: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lse-rank-times-'));
  const store = await CrawlStore.open(dir);
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const held = async (work: () => Promise<unknown>) => {
    await new Promise((done) => setTimeout(done, 50));
    last = performance.now();
    longest = 0;
    await work();
    return Math.max(longest, performance.now() - last);
  };
  try {
    const ids = Int32Array.from({ length: count }, (_, i) => i * 3);
    const values = Float64Array.from({ length: count }, (_, i) => 1 / (i + 1));
    const stored: number[] = [];
    const read: number[] = [];
    for (let version = 1; version <= 5; version++) {
      stored.push(await held(() => store.batch().putRanks({ name: 'local-current', version, ids, values }).commit()));
      read.push(await held(() => store.latestRanks('local-current')));
    }
    const list = (times: number[]) => times.map((t) => t.toFixed(1)).join(', ');
    console.log(`${count.toLocaleString('en-US')} entries: the loop held at most ${list(stored)} ms while storing, ${list(read)} ms while reading the newest version`);
    // One page's value in the five versions, as URL inspection shows it: whole vectors, then a piece at a time.
    const id = ids[Math.floor(count * 0.7)];
    const timed = async (lookup: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let run = 0; run < 5; run++) {
        const started = performance.now();
        await lookup();
        times.push(performance.now() - started);
      }
      return median(times);
    };
    const whole = await timed(async () => (await store.rankHistory('local-current')).map((version) => version.values[version.ids.indexOf(id)]));
    const pieces = await timed(() => store.rankValueHistory('local-current', id));
    console.log(`one page's value in the 5 versions: ${whole} ms reading them whole, ${pieces} ms a piece at a time (medians of 5)`);
  } finally {
    clearInterval(timer);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Main-thread ms of an update's version changes in the index's page version table at `count`
 * pages: 1 % of them deleted then set again, the last 1 % of the ids (the bench's update) and the
 * same number spread over the ids (a site's changed pages), medians of 5.
 */
function versionTableTimes(count: number): void {
  const version = (id: number) => (id * 7_919).toString(16).padStart(12, '0').slice(-12);
  const changedCount = Math.max(1, Math.floor(count / 100));
  const patterns = {
    'the last 1 %': Array.from({ length: changedCount }, (_, i) => count - changedCount + i),
    'spread over the ids': Array.from({ length: changedCount }, (_, i) => Math.floor((i * count) / changedCount)),
  };
  for (const [name, ids] of Object.entries(patterns)) {
    const times: number[] = [];
    for (let round = 0; round < 5; round++) {
      const table = new VersionTable(count);
      for (let id = 0; id < count; id++) table.set(id, version(id));
      const started = performance.now();
      for (const id of ids) table.delete(id);
      for (const id of ids) table.set(id, version(id + 1));
      times.push(performance.now() - started);
    }
    console.log(`${count.toLocaleString('en-US')} pages, ${changedCount.toLocaleString('en-US')} changed, ${name}: ${median(times)} ms (median of 5)`);
  }
}

/** The private-pages check on a store `serve` has updated: every page, against the pages written by its last 1 %. */
async function privatePagesTimes(dataDir: string): Promise<void> {
  const store = await CrawlStore.open(dataDir);
  try {
    const now = store.pageWriteSequence;
    const wanted = Math.max(1, Math.floor(store.urlCount / 100));
    let since = now;
    let written: number[] = [];
    while (since > 0 && written.length < wanted) written = (await store.pageJournalSince(--since)) ?? [];
    const cpu = (run: () => Promise<unknown>) => async () => {
      const [started, used] = [performance.now(), process.cpuUsage()];
      await run();
      const spent = process.cpuUsage(used);
      return `${((performance.now() - started) / 1000).toFixed(2)} s (CPU ${((spent.user + spent.system) / 1e6).toFixed(2)} s)`;
    };
    const everyPage = await cpu(() => storeHoldsPrivatePages(store))();
    const journal = await cpu(async () => {
      for await (const [, page] of store.pagesOf(written)) if (page?.private) break;
    })();
    console.log(`every page: ${everyPage}; the ${written.length.toLocaleString('en-US')} pages the journal names since sequence ${since}: ${journal}`);
  } finally {
    await store.close();
  }
}

/**
 * The server's rehearsal of deletions on the index of a data directory, first thing after opening
 * it, as `lse serve` runs it (its first warming queries), and the same queries searched after it.
 */
async function rehearsalTimes(dataDir: string): Promise<void> {
  const index = await TextIndex.open(dataDir, { autoMerge: false });
  try {
    const queries = warmingQueries([], index.frequentTerms(FREQUENT_TERMS)).slice(0, REHEARSED_SEARCHES);
    let started = performance.now();
    const rehearsed = await index.rehearseDeletions(queries, Infinity);
    const rehearsal = performance.now() - started;
    started = performance.now();
    for (const q of queries) index.search(q);
    console.log(`rehearsal of ${queries.length} queries: ${rehearsal.toFixed(1)} ms (${rehearsed.segments} segments, ${rehearsed.liveCounts} live term counts); the same searched after it: ${(performance.now() - started).toFixed(1)} ms`);
  } finally {
    await index.close();
  }
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'serve' && (args.length === 2 || args.length === 3)) await serveAndUpdate(resolve(args[0]), Number(args[1]), args[2] && resolve(args[2]));
else if (mode === 'runs' && args.length === 3) mainThreadRuns(args[0], Number(args[1]), Number(args[2]));
else if (mode === 'index' && args.length === 2) await indexUpdate(resolve(args[0]), Number(args[1]));
else if (mode === 'ranks' && args.length === 1) await rankVectorTimes(Number(args[0]));
else if (mode === 'versions' && args.length === 1) versionTableTimes(Number(args[0]));
else if (mode === 'private' && args.length === 1) await privatePagesTimes(resolve(args[0]));
else if (mode === 'rehearsal' && args.length === 1) await rehearsalTimes(resolve(args[0]));
else {
  console.error('usage: update-pauses.ts serve DATA_DIR COUNT [PROFILE_DIR] | index DATA_DIR COUNT | runs PROFILE MIN_MS SECONDS | ranks COUNT | versions COUNT | private DATA_DIR | rehearsal DATA_DIR');
  process.exit(2);
}
