/**
 * Whole pages: the longest real documentation pages installed (Rust, PostgreSQL, Django, Sphinx;
 * the biggest HTML files of /usr/share/doc), indexed with the old 20,000-character cap and with
 * today's whole-page cap. Each case runs in its own process, so peak RSS is its own. Figures:
 * characters indexed, build and CPU seconds, peak RSS, index size on disk, search p50/p99 (200
 * queries of words and identifiers taken from the pages, anywhere in them) and passages p50/p99
 * (snippets of the top 10), and how many queries find their page in the top 10.
 *
 *   npm run bench -- whole-pages
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHtml } from '../crawler/html.ts';
import { DEFAULT_MAX_TEXT_CHARS, type TextDocument } from '../indexer/text-index/document.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import type { BenchContext } from './run.ts';

const CASE_FLAG = '--whole-pages-case';
const ROOTS = ['/usr/share/doc/rust-doc/html', '/usr/share/doc/postgresql-doc-15/html', '/usr/share/doc/python-django-doc/html', '/usr/share/doc/sphinx-doc/html'];
const PAGES = 150;
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function htmlFiles(dir: string, out: Array<{ path: string; size: number }>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) htmlFiles(path, out);
    else if (entry.name.endsWith('.html')) out.push({ path, size: statSync(path).size });
  }
}

/** The biggest HTML pages of the installed documentation, parsed into documents. */
export function longestPages(): TextDocument[] {
  const files: Array<{ path: string; size: number }> = [];
  for (const root of ROOTS) if (existsSync(root)) htmlFiles(root, files);
  files.sort((a, b) => b.size - a.size);
  return files.slice(0, PAGES).map(({ path }, id) => {
    const url = `http://docs.test${path}`;
    const page = parseHtml(readFileSync(path, 'utf8'), url);
    return { id, url, host: 'docs.test', title: page.title, headings: page.content.headings, text: page.content.text, lang: 'en', sections: page.content.sections, definitions: page.content.definitions };
  });
}

/** Queries of two rare words of one page, taken anywhere in it (most lie past 20,000 characters). */
function queries(docs: readonly TextDocument[]): Array<{ query: string; id: number }> {
  const random = seededRandom(7);
  const out: Array<{ query: string; id: number }> = [];
  for (let i = 0; out.length < 200 && i < 2_000; i++) {
    const doc = docs[Math.floor(random() * docs.length)];
    const at = Math.floor(random() * Math.max(1, doc.text.length - 400));
    const words = (doc.text.slice(at, at + 400).match(/[A-Za-z_]{6,}/g) ?? []).slice(1, -1);
    if (words.length < 2) continue;
    const a = words[Math.floor(random() * words.length)];
    const b = words[Math.floor(random() * words.length)];
    out.push({ query: a === b ? a : `${a} ${b}`, id: doc.id });
  }
  return out;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

function directorySize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? directorySize(path) : statSync(path).size;
  }
  return total;
}

async function runCase(maxTextChars: number): Promise<void> {
  const docs = longestPages();
  const asked = queries(docs);
  const dir = mkdtempSync(join(tmpdir(), 'lse-bench-whole-'));
  try {
    const index = await TextIndex.open(dir, { maxTextChars });
    const cpu = process.cpuUsage();
    const started = performance.now();
    await index.rebuild(docs);
    const buildSeconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const searchMs: number[] = [];
    const passageMs: number[] = [];
    let found = 0;
    for (const { query, id } of asked) {
      const t0 = performance.now();
      const result = index.search(query, { limit: 10 });
      const t1 = performance.now();
      await index.passages(result.hits);
      passageMs.push(performance.now() - t1);
      searchMs.push(t1 - t0);
      if (result.hits.some((hit) => hit.id === id)) found++;
    }
    const chars = docs.reduce((sum, doc) => sum + Math.min(doc.text.length, maxTextChars), 0);
    await index.close();
    console.log(
      JSON.stringify({
        maxTextChars,
        pages: docs.length,
        longest: Math.max(...docs.map((d) => d.text.length)),
        chars,
        buildSeconds,
        buildCpuSeconds: (used.user + used.system) / 1e6,
        peakRssMb: process.resourceUsage().maxRSS / 1024,
        diskMb: directorySize(dir) / 1e6,
        searchP50: percentile(searchMs, 50),
        searchP99: percentile(searchMs, 99),
        passagesP50: percentile(passageMs, 50),
        passagesP99: percentile(passageMs, 99),
        found: `${found}/${asked.length}`,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function wholePagesBenchmarks(bench: BenchContext): Promise<void> {
  if (!ROOTS.some((root) => existsSync(root))) {
    bench.note('whole pages: none of rust-doc, postgresql-doc-15, python-django-doc, sphinx-doc is installed; skipped');
    return;
  }
  bench.heading(`whole pages: the ${PAGES} biggest HTML pages of the installed documentation, old 20,000-character cap vs whole pages (load ${loadavg()[0].toFixed(1)})`);
  const rows: Array<Array<string | number>> = [['cap (chars)', 'pages', 'longest text', 'chars indexed', 'build s', 'build CPU s', 'peak RSS MB', 'disk MB', 'search p50/p99 ms', 'passages p50/p99 ms', 'query finds its page']];
  for (const cap of [20_000, DEFAULT_MAX_TEXT_CHARS]) {
    const child = spawnSync(process.execPath, [join(repoRoot, 'bin/run-ts.js'), fileURLToPath(import.meta.url), CASE_FLAG, String(cap)], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const line = child.stdout.trim().split('\n').pop() ?? '';
    if (child.status !== 0 || !line.startsWith('{')) {
      bench.note(`case ${cap} failed: ${child.stderr.slice(-500)}`);
      continue;
    }
    const r = JSON.parse(line) as Record<string, number | string>;
    const ms = (a: unknown, b: unknown) => `${Number(a).toFixed(2)} / ${Number(b).toFixed(2)}`;
    rows.push([cap, r.pages, r.longest, r.chars, Number(r.buildSeconds), Number(r.buildCpuSeconds), Math.round(Number(r.peakRssMb)), Number(r.diskMb), ms(r.searchP50, r.searchP99), ms(r.passagesP50, r.passagesP99), String(r.found)]);
  }
  bench.table(rows);
  bench.note(`load average after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}

if (process.argv.includes(CASE_FLAG)) {
  await runCase(Number(process.argv[process.argv.indexOf(CASE_FLAG) + 1]));
}
