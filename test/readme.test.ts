/**
 * The README is the front door: its settings example must be a valid settings file, and it stays short
 * (tables and walkthroughs go to docs/).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { settingsSchema } from '../config/schema.ts';
import { userAgentOf } from '../server/cli/crawl-setup.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The fenced blocks of one `## ` (or `### `) section, with their language. */
function codeBlocks(section: string, level = '##'): Array<{ lang: string; code: string }> {
  const start = readme.indexOf(`\n${level} ${section}\n`);
  expect(start, `README section "${section}"`).toBeGreaterThan(0);
  const end = readme.indexOf(level === '##' ? '\n## ' : '\n#', start + 1);
  const text = readme.slice(start, end < 0 ? undefined : end);
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));
}

describe('README', () => {
  it('has a settings file example that the settings accept as it is', () => {
    const [example] = codeBlocks('A settings file').filter((b) => b.lang === 'json');
    expect(example).toBeDefined();
    const parsed = JSON.parse(example.code);
    // Strict: a misspelt or removed setting in the example fails here.
    expect(settingsSchema.safeParse(parsed).error?.issues).toBeUndefined();
    const file = join(mkdtempSync(join(tmpdir(), 'lse-readme-')), 'lse.json');
    writeFileSync(file, example.code);
    const settings = loadSettings({ file, env: {} });
    expect(settings.crawler.seeds).toEqual(parsed.crawler.seeds);
    expect(settings.crawler.scope).toEqual(parsed.crawler.scope);
    // The example names a contact, and the User-Agent every request sends carries it.
    expect(userAgentOf(settings.crawler)).toMatch(/\(\+https?:\/\/\S+\)/);
    expect(settings.schedules).toMatchObject(parsed.schedules);
  });

  it('walks through a site crawl with the four commands and the same settings file', () => {
    const [commands] = codeBlocks('Crawling your own site');
    for (const line of commands.code.trim().split('\n')) expect(line).toMatch(/npx lse (crawl|estimate|index|serve) --config lse\.json/);
  });

  it('stays a front door: at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('is followed from a fresh data directory on a local site: crawl, estimate, index, serve', async () => {
    // A small documentation site on loopback, under the host name README's intranet example uses.
    const pages = new Map([
      ['/', '<title>Docs home</title><a href="/install">install</a> <a href="/upgrade">upgrade</a> <a href="/logo.png">logo</a> <a href="http://elsewhere.invalid/">elsewhere</a>'],
      ['/install', '<title>Installing</title><p>install the server with the package manager</p>'],
      ['/upgrade', '<title>Upgrading</title><p>upgrade one release at a time</p>'],
    ]);
    const site = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path === '/logo.png') return response.writeHead(200, { 'content-type': 'image/png' }).end('not a page');
      const body = pages.get(path);
      if (body === undefined) return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="en"><body>${body}</body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'lse-readme-site-'));
    try {
      // README's settings for a test site, with this server's port and a data directory of the test's.
      const [example] = codeBlocks('A test or intranet site', '###').filter((b) => b.lang === 'json');
      const settings = JSON.parse(example.code.replace('127.0.0.1:8000', `127.0.0.1:${port}`));
      settings.dataDir = join(dir, 'data');
      settings.crawler.delaySeconds = 0;
      // A budget of 2n = 6 pages over the default 50 iterations would try none: 2 iterations.
      settings.estimation = { iterations: 2 };
      writeFileSync(join(dir, 'lse.json'), JSON.stringify(settings));
      // README's four commands, in its order, with LSE_ADMIN_TOKEN set as it shows.
      const [walkthrough] = codeBlocks('Crawling your own site');
      const commands = walkthrough.code.trim().split('\n').map((line) => /npx lse (\w+) --config lse\.json/.exec(line)![1]);
      expect(commands).toEqual(['crawl', 'estimate', 'index', 'serve']);
      const env = { ...process.env, LSE_ADMIN_TOKEN: 'readme-walkthrough-token-0123456789' };
      const crawl = await run(['crawl', '--config', 'lse.json'], dir, env);
      expect(crawl.code).toBe(0);
      expect(crawl.stdout).toMatch(/pages stored: 4 /);
      // A complete crawl: no coverage bound; the count not-html names its page and where to see all.
      expect(crawl.stdout).toContain('complete: every page reachable');
      // Progress counts toward the pages stored plus the frontier, not the page limit (1000): it ends at 100 %.
      expect(crawl.stderr).toContain('crawl: 100%');
      expect(crawl.stdout).not.toContain('RankMass coverage bound');
      expect(crawl.stdout).toContain('not-html: http://docs.test/logo.png (all of them: lse pages --data');
      const estimate = await run(['estimate', '--config', 'lse.json'], dir, env);
      expect(estimate.code).toBe(0);
      // The outside host does not resolve: said per host, and the ranks are kept.
      expect(estimate.stdout).toContain('no new estimate version');
      expect(estimate.stdout, estimate.stdout + estimate.stderr).toContain('elsewhere.invalid');
      expect((await run(['index', '--config', 'lse.json'], dir, env)).code).toBe(0);
      const listed = await run(['pages', '--config', 'lse.json', '--state', 'not-html'], dir, env);
      expect(listed.stdout.trim().split('\n').map((line) => line.split('\t')[0])).toEqual(['http://docs.test/logo.png']);
      // serve: prints both addresses; the search finds the site's pages; /api/info has its words.
      const server = spawn(process.execPath, [lse, 'serve', '--config', 'lse.json', '--port', '0'], { cwd: dir, env });
      try {
        const output = await new Promise<string>((resolve, reject) => {
          let text = '';
          server.stdout.on('data', (chunk) => {
            text += String(chunk);
            if (text.includes('admin page:')) resolve(text);
          });
          server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${text}`)));
        });
        const url = /search page: (\S+)\//.exec(output)![1];
        expect(output).toContain(`admin page:  ${url}/admin`);
        const found = await (await fetch(`${url}/api/search?q=release`)).json();
        expect(found.hits.map((h: { url: string }) => h.url)).toEqual(['http://docs.test/upgrade']);
        expect(await (await fetch(`${url}/api/info`)).json()).toMatchObject({ name: 'Docs', placeholder: 'install, configure, upgrade…', outsidePages: 0 });
      } finally {
        server.kill('SIGTERM');
        await new Promise((resolve) => server.on('exit', resolve));
      }
    } finally {
      site.close();
    }
  }, 180_000);
});

const lse = fileURLToPath(new URL('../bin/lse.js', import.meta.url));

/** Runs `lse` with arguments in a directory; its exit code and output. */
function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [lse, ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('lse serve refuses what it cannot serve, with a message', () => {
  it('a port out of range, a port in use, a data directory that holds no crawl', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lse-serve-refusals-'));
    const env = { ...process.env, LSE_ADMIN_TOKEN: 'serve-refusals-token-0123456789' };
    const badPort = await run(['serve', '--data', join(dir, 'nope'), '--port', '99999'], dir, env);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port must be a whole number from 0 to 65535, got "99999"');
    expect(badPort.stderr).not.toMatch(/\n\s+at /);
    const typo = await run(['serve', '--data', join(dir, 'dta')], dir, env);
    expect(typo.stderr).toContain('no data directory');
    expect(typo.stderr).toContain('--create');
    expect(existsSync(join(dir, 'dta'))).toBe(false);
    mkdirSync(join(dir, 'made-but-empty'));
    const empty = await run(['serve', '--data', join(dir, 'made-but-empty')], dir, env);
    expect(empty.stderr).toContain('holds no crawl');
    // A port another server holds: said, with what to do (--create lets the empty directory through).
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as AddressInfo).port;
    try {
      const inUse = await run(['serve', '--data', join(dir, 'made-but-empty'), '--create', '--port', String(port)], dir, env);
      expect(inUse.code).not.toBe(0);
      expect(inUse.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
      expect(inUse.stderr).not.toMatch(/\n\s+at /);
    } finally {
      other.close();
    }
  }, 120_000);
});
