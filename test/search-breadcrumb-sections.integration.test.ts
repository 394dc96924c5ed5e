/**
 * Sections from the site's own breadcrumbs: a site whose URLs say nothing (`/p/123.html`) is
 * crawled over HTTP, and its search answers, over HTTP, section facets and filters named by the
 * trails of its pages (a navigation trail, JSON-LD, microdata), the URL rule where a page has none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import { parseScope } from '../crawler/scope.ts';
import type { EngineResult } from '../indexer/ranking/search-engine.ts';
import { loadRankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import { loadSearchData } from '../indexer/ranking/search-data.ts';
import { CrawlStore } from '../indexer/store/crawl-store.ts';
import { indexableDocuments, TextIndex } from '../indexer/text-index/index.ts';
import { buildApp } from '../server/app.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';

const HOST = 'journal.test';

const navTrail = (section: string, sectionPath: string, title: string) =>
  `<nav aria-label="Breadcrumb"><ol class="breadcrumb"><li class="breadcrumb-item"><a href="/">Home</a></li><li class="breadcrumb-item"><a href="${sectionPath}">${section}</a></li><li class="breadcrumb-item active" aria-current="page">${title}</li></ol></nav>`;
const jsonLdTrail = (section: string, sectionPath: string, title: string) =>
  `<script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'Journal', item: `http://${HOST}/` },
      { '@type': 'ListItem', position: 2, name: section, item: `http://${HOST}${sectionPath}` },
      { '@type': 'ListItem', position: 3, name: title },
    ],
  })}</script>`;
const microdataTrail = (section: string, sectionPath: string) =>
  `<ol itemscope itemtype="https://schema.org/BreadcrumbList"><li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a itemprop="item" href="/"><span itemprop="name">Start</span></a><meta itemprop="position" content="1"></li> / <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a itemprop="item" href="${sectionPath}"><span itemprop="name">${section}</span></a><meta itemprop="position" content="2"></li></ol>`;

interface Article {
  path: string;
  title: string;
  text: string;
  trail: (title: string) => string;
  inHead?: boolean;
}

const ARTICLES: Article[] = [
  { path: '/p/101.html', title: 'Lasers in the teaching laboratory', text: 'Students align a helium neon laser on an optical bench.', trail: (t) => navTrail('Physics', '/s/1.html', t) },
  { path: '/p/102.html', title: 'Pendulum clocks', text: 'A laboratory exercise with a pendulum measures gravity within a percent.', trail: (t) => navTrail('Physics', '/s/1.html', t) },
  { path: '/p/103.html', title: 'Cosmic rays', text: 'The cloud chamber in the basement laboratory shows muon tracks every minute.', trail: (t) => microdataTrail('Physics', '/s/1.html') + t },
  { path: '/p/201.html', title: 'Titration basics', text: 'Burettes, indicators and the endpoint of an acid base titration in the laboratory.', trail: (t) => jsonLdTrail('Chemistry', '/s/2.html', t), inHead: true },
  { path: '/p/202.html', title: 'Safety goggles', text: 'Every laboratory visitor wears goggles near open flames and solvents.', trail: (t) => navTrail('Chemistry', '/s/2.html', t) },
  // No trail: the URL rule names its section after the first path segment.
  { path: '/p/301.html', title: 'Opening of the new laboratory wing', text: 'The dean opened the laboratory wing with a ribbon and cake.', trail: () => '' },
];

function articleHtml(article: Article): string {
  const trail = article.trail(article.title);
  return `<!doctype html><html lang="en"><head><title>${article.title} | Journal</title>${article.inHead ? trail : ''}</head><body>
<header><a href="/">Journal</a></header>${article.inHead ? '' : trail}<main><h1>${article.title}</h1><p>${article.text}</p></main></body></html>`;
}

function sectionHtml(name: string, paths: string[]): string {
  return `<!doctype html><html lang="en"><head><title>${name} | Journal</title></head><body>${navTrail(name, '#', name).replace(/<li class="breadcrumb-item"><a href="#">[^<]*<\/a><\/li>/, '')}
<main><h1>${name}</h1><ul>${paths.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul></main></body></html>`;
}

let server: Server;
let dir: string;
let store: CrawlStore;
let index: TextIndex;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    const article = ARTICLES.find((a) => a.path === path);
    const send = (html: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (article) return send(articleHtml(article));
    if (path === '/') return send(`<!doctype html><html lang="en"><head><title>Journal</title></head><body><main><h1>Journal</h1><a href="/s/1.html">Physics</a> <a href="/s/2.html">Chemistry</a> <a href="/p/301.html">News</a></main></body></html>`);
    if (path === '/s/1.html') return send(sectionHtml('Physics', ['/p/101.html', '/p/102.html', '/p/103.html']));
    if (path === '/s/2.html') return send(sectionHtml('Chemistry', ['/p/201.html', '/p/202.html']));
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  dir = mkdtempSync(join(tmpdir(), 'lse-breadcrumbs-'));
  const settings = loadSettings({ env: {}, overrides: { dataDir: dir, crawler: { resolve: { [`${HOST}:80`]: `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0 } } });
  store = await CrawlStore.open(dir);
  const stack = createCrawlStack(store, settings.crawler);
  try {
    await stack.crawler.crawl({ seeds: [`http://${HOST}/`], scope: parseScope(`host:${HOST}`), ordering: 'bfs', maxPages: 50, maxDepth: 3, hostPageBudget: 50, concurrency: 2 });
  } finally {
    await stack.close();
  }
  index = await TextIndex.open(join(dir, 'index'), { workers: 0, autoMerge: false });
  await index.rebuild(indexableDocuments(store));
  const engine = new SearchEngine(index, await loadRankSnapshot(store), { blend: 'log-linear', weight: 0.3 });
  await loadSearchData(engine, store);
  app = await buildApp({ search: engine, logger: false });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await index?.close();
  await store?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function search(query: string): Promise<EngineResult> {
  const response = await fetch(`${base}/api/search?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as EngineResult;
}

describe('sections from breadcrumbs, over HTTP', () => {
  it('stores each crawled page’s trail', async () => {
    const id = store.idOf(`http://${HOST}/p/201.html`);
    expect(id).toBeDefined();
    const page = await store.getPage(id!);
    expect(page?.breadcrumb).toEqual([
      { name: 'Journal', url: `http://${HOST}/` },
      { name: 'Chemistry', url: `http://${HOST}/s/2.html` },
      { name: 'Titration basics' },
    ]);
  });

  it('counts sections named by the trails, the URL rule for a page without one', async () => {
    const result = await search('q=laboratory');
    expect(result.facets.section).toEqual({ physics: 3, chemistry: 2, p: 1 });
    for (const hit of result.hits) {
      const path = new URL(hit.url).pathname;
      expect(hit.section, path).toBe(path.startsWith('/p/1') ? 'physics' : path.startsWith('/p/2') ? 'chemistry' : 'p');
    }
  });

  it('filters by a section a trail names', async () => {
    const chemistry = await search('q=laboratory&section=chemistry');
    expect(chemistry.hits.map((hit) => new URL(hit.url).pathname).sort()).toEqual(['/p/201.html', '/p/202.html']);
    expect(chemistry.facets.section).toEqual({ physics: 3, chemistry: 2, p: 1 });
    const physics = await search('q=laboratory&section=Physics');
    expect(physics.total).toBe(3);
    const unknown = await fetch(`${base}/api/search?q=laboratory&section=biology`);
    expect(unknown.status).toBe(400);
  });

  it('leaves a section page (home and itself in its trail) to the URL rule', async () => {
    const result = await search('q=physics');
    const sectionPage = result.hits.find((hit) => hit.url === `http://${HOST}/s/1.html`);
    expect(sectionPage?.section).toBe('s');
  });
});
