import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import type { CrawlSummary } from '../crawler/crawl-loop.ts';
import { DocumentPool } from '../crawler/documents/worker-pool.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { sectionUrlOf } from '../indexer/ranking/search-engine.ts';
import { TextIndex, indexableDocuments } from '../indexer/text-index/index.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';

// Real documents: the Debian FAQ as PDF (package debian-faq), a DOCX written by python-docx and an
// ODT written by docutils' rst2odt (packages python3-docx, python3-docutils; .ci/run installs them).
const FAQ_PDF = '/usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz';
const haveWriters = existsSync('/usr/bin/rst2odt') && hasPythonDocx();
const haveFixtures = existsSync(FAQ_PDF) && haveWriters;
if (!haveFixtures) console.warn('documents test skipped: install debian-faq, python3-docx and python3-docutils (see .ci/run)');

function hasPythonDocx(): boolean {
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import docx'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const MAKE_DOCX = `
import sys, docx
from docx.oxml.shared import OxmlElement, qn
d = docx.Document()
d.core_properties.title = 'Field Guide to Quinces'
d.core_properties.language = 'en-GB'
d.add_heading('Growing quinces', level=1)
d.add_paragraph('The orchard keeps a marmalade ledger for every tree planted since spring.')
p = d.add_paragraph('See ')
rid = d.part.relate_to('http://files.test/pruning.html', 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink', is_external=True)
h = OxmlElement('w:hyperlink'); h.set(qn('r:id'), rid)
r = OxmlElement('w:r'); t = OxmlElement('w:t'); t.text = 'the pruning calendar'; r.append(t); h.append(r); p._p.append(h)
d.save(sys.argv[1])
`;
const NOTES_RST = `==========================
Minutes of the Damson Club
==========================

Agenda
======

The committee approved the gooseberry budget for the winter fair.

See \`the fair page <http://files.test/fair.html>\`_ for details.

Budget
======

The treasurer reported on the damson harvest.
`;

function makeOfficeFiles(dir: string): { docx: Buffer; odt: Buffer } {
  const docx = join(dir, 'guide.docx');
  execFileSync('/usr/bin/python3', ['-c', MAKE_DOCX, docx]);
  const rst = join(dir, 'notes.rst');
  writeFileSync(rst, NOTES_RST);
  const odt = join(dir, 'notes.odt');
  execFileSync('/usr/bin/rst2odt', ['--create-links', rst, odt]);
  return { docx: readFileSync(docx), odt: readFileSync(odt) };
}

/** Streams `total` bytes (forever when Infinity) until the client goes away. */
function stream(response: ServerResponse, head: string, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  response.write(head);
  const pump = () => {
    while (sent < total) {
      sent += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', pump);
    }
    response.end();
  };
  response.on('close', () => (sent = total));
  pump();
}

describe.skipIf(!haveFixtures)('crawling PDF, DOCX and ODT documents', () => {
  let server: Server;
  let summary: CrawlSummary;
  const pages = new Map<string, PageRecord>();
  let store: CrawlStore;
  let dir: string;
  let pdfPhrase: string;

  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), 'lse-docs-src-'));
    const { docx, odt } = makeOfficeFiles(work);
    const faq = gunzipSync(readFileSync(FAQ_PDF));
    // A zip bomb dressed as a DOCX: 64 MB of spaces in word/document.xml (64 KB compressed).
    const bomb = Buffer.from(zipSync({ '[Content_Types].xml': new Uint8Array(10), 'word/document.xml': new Uint8Array(64 * 1024 * 1024).fill(0x20) }, { level: 9 }));
    const links = ['faq.pdf', 'guide.docx', 'notes.odt', 'endless.pdf', 'huge.pdf', 'bomb.docx', 'broken.pdf'].map((f) => `<a href="/files/${f}">${f}</a>`).join(' ');
    server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      const send = (type: string, body: Buffer) => response.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
      switch (path) {
        case '/':
          return send('text/html', Buffer.from(`<!doctype html><title>Files</title><p>Our files: ${links}</p>`));
        case '/files/faq.pdf':
          return send('application/pdf', faq);
        case '/files/guide.docx':
          // Served as a download: the extension tells the type.
          return send('application/octet-stream', docx);
        case '/files/notes.odt':
          return send('application/vnd.oasis.opendocument.text', odt);
        case '/files/bomb.docx':
          return send('application/vnd.openxmlformats-officedocument.wordprocessingml.document', bomb);
        case '/files/broken.pdf':
          return send('application/pdf', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without end'));
        case '/files/endless.pdf':
          // A PDF that never ends: no Content-Length, bytes forever.
          response.writeHead(200, { 'content-type': 'application/pdf' });
          return stream(response, '%PDF-1.7\n', Infinity);
        case '/files/huge.pdf':
          // 200 MB, announced.
          response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(200 * 1024 * 1024) });
          return stream(response, '', 200 * 1024 * 1024);
        default:
          response.writeHead(404, { 'content-type': 'text/html' }).end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    dir = mkdtempSync(join(tmpdir(), 'lse-docs-'));
    const settings = loadSettings({
      env: {},
      overrides: {
        dataDir: dir,
        crawler: {
          resolve: { 'files.test:80': `127.0.0.1:${port}` },
          allowPrivateNetworks: true,
          delaySeconds: 0,
          documents: { pdfMaxBytes: 8 * 1024 * 1024, zipEntryMaxBytes: 16 * 1024 * 1024, timeoutSeconds: 60 },
        },
      },
    });
    store = await CrawlStore.open(dir);
    const stack = createCrawlStack(store, settings.crawler);
    try {
      summary = await stack.crawler.crawl({ seeds: ['http://files.test/'], scope: parseScope('host:files.test'), ordering: 'bfs', maxPages: 50, maxDepth: 3, hostPageBudget: 50, concurrency: 4 });
    } finally {
      await stack.close();
    }
    for await (const [, page] of store.pages()) pages.set(page.url, page);
    const faqText = pages.get('http://files.test/files/faq.pdf')?.text ?? '';
    // A phrase from the PDF's body (its table of contents), in the part the index reads.
    pdfPhrase = 'installation images CD-ROMs symlinks frozen';
    expect(faqText.slice(0, 20_000)).toContain('Why does the official stable released CD-ROM contain symlinks');
    expect(faqText.length).toBeGreaterThan(100_000);
  });

  afterAll(async () => {
    server?.close();
    await store?.close();
  });

  it('completes the crawl whatever the documents do', () => {
    expect(summary.stoppedBecause).toBe('frontier-empty');
  });

  it('stores a real PDF as a page: type, metadata title, page offsets, links in the graph', async () => {
    const faq = pages.get('http://files.test/files/faq.pdf')!;
    expect(faq.state).toBe('fetched');
    expect(faq.type).toBe('pdf');
    expect(faq.title).toBe('The Debian GNU/Linux FAQ');
    expect(faq.sections![0]).toEqual({ heading: 'Page 1', anchor: 'page=1', start: 0 });
    const page5 = faq.sections!.find((s) => s.anchor === 'page=5')!;
    expect(page5.start).toBeGreaterThan(0);
    expect(faq.sections!.length).toBeGreaterThan(50);
    const links = await store.getLinks(store.idOf(faq.url)!);
    expect(links.length).toBeGreaterThan(20);
    expect(links.some((l) => store.urlOf(l.to)?.startsWith('https://www.debian.org'))).toBe(true);
  });

  it('stores DOCX and ODT with their titles, headings and links', async () => {
    const docx = pages.get('http://files.test/files/guide.docx')!;
    expect(docx).toMatchObject({ state: 'fetched', type: 'docx', title: 'Field Guide to Quinces' });
    expect(docx.headings).toEqual(['Growing quinces']);
    expect(docx.text).toContain('marmalade ledger');
    const odt = pages.get('http://files.test/files/notes.odt')!;
    expect(odt).toMatchObject({ state: 'fetched', type: 'odt', title: 'Minutes of the Damson Club' });
    expect(odt.headings).toEqual(['Minutes of the Damson Club', 'Agenda', 'Budget']);
    expect(odt.text).toContain('gooseberry budget');
    const odtLinks = await store.getLinks(store.idOf(odt.url)!);
    expect(odtLinks.map((l) => store.urlOf(l.to))).toContain('http://files.test/fair.html');
    expect(pages.get('http://files.test/pruning.html')).toBeDefined();
  });

  it('finds each document by a phrase from its body', async () => {
    const index = await TextIndex.open(join(dir, 'index-test'), {});
    await index.rebuild(indexableDocuments(store));
    const urlOf = (q: string) => index.search(q).hits.map((h) => store.urlOf(h.id));
    expect(urlOf(pdfPhrase)).toEqual(['http://files.test/files/faq.pdf']);
    expect(urlOf('marmalade ledger')).toEqual(['http://files.test/files/guide.docx']);
    expect(urlOf('gooseberry budget')).toEqual(['http://files.test/files/notes.odt']);
    // A hit inside the PDF names the page it matched, and links to it with `#page=N`.
    const hit = index.search(pdfPhrase).hits[0];
    const passage = (await index.passages([hit])).get(hit.id)!;
    const page = /^page=(\d+)$/.exec(passage.sectionAnchor ?? '')?.[1];
    expect(page).toBeDefined();
    const faq = pages.get('http://files.test/files/faq.pdf')!;
    const at = faq.sections!.findIndex((s) => s.anchor === passage.sectionAnchor);
    expect(faq.text!.slice(faq.sections![at].start, faq.sections![at + 1]?.start).toLowerCase()).toContain('symlinks');
    expect(sectionUrlOf(faq.url, passage.sectionAnchor!)).toBe(`http://files.test/files/faq.pdf#page=${page}`);
    expect(sectionUrlOf('http://x.test/a.html#top', 'Section 2 #b')).toBe('http://x.test/a.html#Section%202%20%23b');
  });

  it('refuses a PDF that never ends, a 200 MB file, a zip bomb and a broken PDF, each with its reason', () => {
    const reason = (file: string) => {
      const page = pages.get(`http://files.test/files/${file}`)!;
      expect(page.state, file).toBe('error');
      return page.error!;
    };
    expect(reason('endless.pdf')).toMatch(/^too-large: application\/pdf larger than the limit of 8388608 bytes/);
    expect(reason('huge.pdf')).toMatch(/^too-large: application\/pdf of 209715200 bytes \(Content-Length\)/);
    expect(reason('bomb.docx')).toMatch(/^document: docx: zip entry word\/document.xml inflates to 67108864 bytes .*zip bomb/);
    expect(reason('broken.pdf')).toMatch(/^document: pdf: unreadable PDF/);
  });
});

describe('the document worker pool', () => {
  // 400,000 one-word paragraphs: 20 MB of XML (declared honestly), hundreds of MB as a DOM.
  const paragraphs = '<w:p><w:r><w:t>word</w:t></w:r></w:p>'.repeat(400_000);
  const hugeDocx = zipSync({
    '[Content_Types].xml': new TextEncoder().encode('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
    '_rels/.rels': new TextEncoder().encode('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    'word/document.xml': new TextEncoder().encode(`<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`),
  });
  const tinyPdf = new Uint8Array(Buffer.from('%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF'));

  it('fails a document past its memory limit with the reason, and a fresh worker parses the next one', async () => {
    const pool = new DocumentPool({ workers: 1, timeoutMs: 120_000, memoryMb: 64, limits: { maxEntryBytes: 1e8 } });
    try {
      await expect(pool.extract('docx', hugeDocx, 'http://x.test/huge.docx')).rejects.toMatchObject({ code: 'ELSE_DOCUMENT_MEMORY', message: 'parsing needed more than the 64 MB memory limit' });
      await expect(pool.extract('pdf', tinyPdf, 'http://x.test/empty.pdf')).resolves.toMatchObject({ type: 'pdf', page: { title: 'empty.pdf', text: '' } });
    } finally {
      await pool.close();
    }
  });

  it('fails a document past its time limit with the reason', async () => {
    const pool = new DocumentPool({ workers: 1, timeoutMs: 50, memoryMb: 1024, limits: { maxEntryBytes: 1e8 } });
    try {
      await expect(pool.extract('docx', hugeDocx, 'http://x.test/huge.docx')).rejects.toMatchObject({ code: 'ELSE_DOCUMENT_TIMEOUT', message: 'parsing took longer than 50 ms' });
    } finally {
      await pool.close();
    }
  });
});
