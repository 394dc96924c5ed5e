/**
 * A synthetic documentation site for the crawl benchmark, shaped like the one a peer
 * figures come from (~3,200 HTML pages, ~117 MB, served by nginx on loopback): 40 sections of 80
 * pages, every page ~36 KB of HTML — a head with styles and scripts, a header menu, a sidebar
 * with every section and the current section's pages (~130 links), an article with headings,
 * paragraphs and syntax-highlighted code, a footer. Deterministic (seeded).
 *
 *   node bin/run-ts.js bench/docs-site.ts [--port P]   serves it on 127.0.0.1 (any Host header)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../indexer/seeded-random.ts';
import { makePdf } from './simple-pdf.ts';

export const DOCS_HOST = 'docs.example.test';
const SECTIONS = 40;
const PAGES_PER_SECTION = 80;

const WORDS = (
  'the a of to and in is for that with on as by this be are from or an it can which you your use used using value values function ' +
  'returns return option options default request response server client handler route plugin config configuration error errors type ' +
  'types string number object array stream buffer event events listener instance method methods property properties module modules ' +
  'import export async await promise callback timeout header headers body status code schema validation hook hooks lifecycle'
).split(' ');

function sectionName(s: number): string {
  return `section-${String(s).padStart(2, '0')}`;
}

function pagePath(s: number, p: number): string {
  return p === 0 ? `/${sectionName(s)}/` : `/${sectionName(s)}/page-${p}.html`;
}

function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]);
  out[0] = out[0][0].toUpperCase() + out[0].slice(1);
  return `${out.join(' ')}.`;
}

function codeBlock(random: () => number, lines: number): string {
  let code = '<pre class="highlight"><code class="language-js">';
  for (let i = 0; i < lines; i++) {
    const name = WORDS[Math.floor(random() * WORDS.length)];
    code +=
      `<span class="line"><span class="kw">const</span> <span class="nx">${name}${i}</span> <span class="op">=</span> ` +
      `<span class="nx">app</span>.<span class="fn">${name}</span>(<span class="str">'${WORDS[Math.floor(random() * WORDS.length)]}'</span>, ` +
      `{ <span class="prop">timeout</span>: <span class="num">${Math.floor(random() * 10_000)}</span> });</span>\n`;
  }
  return `${code}</code></pre>`;
}

/** PDFs per section when the site has them: 9 beside 80 pages, 10 % of its documents. */
export const PDFS_PER_SECTION = 9;

function pdfPath(s: number, k: number): string {
  return `/${sectionName(s)}/manual-${k}.pdf`;
}

/** A 4-page manual of the section, as a PDF. */
export function renderDocsPdf(s: number, k: number): Buffer {
  const random = seededRandom(100_000 + s * 100 + k);
  const pages = Array.from({ length: 4 }, () => Array.from({ length: 45 }, () => sentence(random, 10)));
  return makePdf(`Manual ${k} of section ${s}`, pages);
}

/** One page's HTML; the site index is section 0's first page's parent, `/`. */
export function renderDocsPage(s: number, p: number, withPdfs = false): string {
  const random = seededRandom(s * 1000 + p + 1);
  const title = `${sentence(random, 4).slice(0, -1)} — Docs`;
  let html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>`;
  html += `<meta name="description" content="${sentence(random, 18)}"><meta name="viewport" content="width=device-width, initial-scale=1">`;
  html += '<link rel="stylesheet" href="/assets/main.css"><link rel="icon" href="/favicon.ico"><script src="/assets/main.js" defer></script>';
  html += `<style>${'.sidebar a{color:#333;text-decoration:none}.content h2{margin-top:2em}.highlight{background:#f6f8fa;padding:1em}'.repeat(12)}</style>`;
  html += '<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());</script></head><body>';
  html += '<header class="top"><nav><a href="/">Home</a>';
  for (const name of ['Guides', 'Reference', 'Plugins', 'Ecosystem', 'Blog', 'Community', 'Changelog']) html += ` <a href="/${sectionName(name.length % SECTIONS)}/">${name}</a>`;
  html += '</nav></header><div class="layout"><aside class="sidebar"><ul>';
  for (let other = 0; other < SECTIONS; other++) {
    html += `<li class="section"><a href="${pagePath(other, 0)}">Section ${other}</a>`;
    if (other === s) {
      html += '<ul>';
      for (let q = 1; q < PAGES_PER_SECTION; q++) html += `<li><a class="page${q === p ? ' active' : ''}" href="${pagePath(s, q)}">Page ${q} of section ${s}</a></li>`;
      html += '</ul>';
    }
    html += '</li>';
  }
  html += `</ul></aside><main class="content"><article><h1>${title}</h1>`;
  if (withPdfs && p === 0) for (let k = 1; k <= PDFS_PER_SECTION; k++) html += `<p><a href="${pdfPath(s, k)}">Manual ${k} (PDF)</a></p>`;
  for (let part = 0; part < 8; part++) {
    html += `<h2 id="part-${part}">${sentence(random, 5).slice(0, -1)}</h2>`;
    for (let paragraph = 0; paragraph < 3; paragraph++) {
      let text = '';
      for (let k = 0; k < 4; k++) text += `${sentence(random, 12 + Math.floor(random() * 10))} `;
      html += `<p>${text}<a href="${pagePath(Math.floor(random() * SECTIONS), Math.floor(random() * PAGES_PER_SECTION))}">see also</a>.</p>`;
    }
    html += codeBlock(random, 6);
  }
  const previous = p > 0 ? pagePath(s, p - 1) : pagePath((s + SECTIONS - 1) % SECTIONS, PAGES_PER_SECTION - 1);
  const next = p + 1 < PAGES_PER_SECTION ? pagePath(s, p + 1) : pagePath((s + 1) % SECTIONS, 0);
  html += `</article><nav class="pager"><a rel="prev" href="${previous}">Previous</a> <a rel="next" href="${next}">Next</a></nav></main></div>`;
  html += '<footer><p>Copyright the authors. Licensed MIT.</p><a href="/">Home</a> <a href="https://github.example.test/docs">Source</a></footer></body></html>';
  return html;
}

/** Every page by path: `/` (the index) and 40 × 80 section pages (and 9 PDFs a section, `withPdfs`). */
export function docsSite(withPdfs = false): Map<string, string | Buffer> {
  const pages = new Map<string, string | Buffer>();
  let index = '<!doctype html><html><head><title>Docs</title></head><body><h1>Documentation</h1><ul>';
  for (let s = 0; s < SECTIONS; s++) index += `<li><a href="${pagePath(s, 0)}">Section ${s}</a></li>`;
  pages.set('/', `${index}</ul></body></html>`);
  for (let s = 0; s < SECTIONS; s++) for (let p = 0; p < PAGES_PER_SECTION; p++) pages.set(pagePath(s, p), renderDocsPage(s, p, withPdfs));
  if (withPdfs) for (let s = 0; s < SECTIONS; s++) for (let k = 1; k <= PDFS_PER_SECTION; k++) pages.set(pdfPath(s, k), renderDocsPdf(s, k));
  return pages;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--port');
  const port = at >= 0 ? Number(process.argv[at + 1]) : 0;
  const pages = docsSite(process.argv.includes('--pdfs'));
  const bodies = new Map([...pages].map(([path, body]) => [path, Buffer.isBuffer(body) ? body : Buffer.from(body)]));
  let bytes = 0;
  for (const body of bodies.values()) bytes += body.length;
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const body = bodies.get(path);
    if (path === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /assets/\n');
    else if (body === undefined) response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    else response.writeHead(200, { 'content-type': path.endsWith('.pdf') ? 'application/pdf' : 'text/html; charset=utf-8', 'content-length': body.length }).end(body);
  });
  server.listen(port, '127.0.0.1', () => {
    const address = server.address() as AddressInfo;
    console.log(`docs site: ${bodies.size} pages, ${(bytes / 1048576).toFixed(1)} MB of HTML, on http://127.0.0.1:${address.port}`);
  });
}
