import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../config/load-settings.ts';
import type { CrawlSummary } from '../crawler/crawl-loop.ts';
import { STARTUP_MB } from '../crawler/documents/worker-pool.ts';
import { parseScope } from '../crawler/scope.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';
import { createCrawlStack } from '../server/cli/crawl-setup.ts';
import { pdfBomb, zipBomb } from './helpers/document-bombs.ts';

const MB = 1024 * 1024;
const text = (value: string) => Buffer.from(value);
const DOCX_PARTS = [
  { name: '[Content_Types].xml', data: text('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>') },
  { name: '_rels/.rels', data: text('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>') },
  { name: 'word/_rels/document.xml.rels', data: text('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>') },
  { name: 'word/document.xml', data: text('<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>quince orchard ledger</w:t></w:r></w:p></w:body></w:document>') },
];

/** Peak resident memory of this process (since the last reset) and of each child process seen. */
function status(pid: number | 'self'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1).trim();
  }
  return out;
}
const kb = (field: string | undefined) => Number(/^(\d+) kB$/.exec(field ?? '')?.[1] ?? 0) * 1024;

/**
 * Watches the children of this process through /proc: each one's peak resident memory (VmHWM,
 * a high-water mark kept by the kernel, so a sample late in a process's life sees its peak) and
 * its data-size limit.
 */
function watchChildren(): { stop: () => Map<number, { peak: number; dataLimit: string }> } {
  const seen = new Map<number, { peak: number; dataLimit: string }>();
  const look = () => {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const fields = status(Number(name));
        if (Number(fields.PPid) !== process.pid || fields.Name !== 'node') continue;
        const limit = /^Max data size\s+(\S+)/m.exec(readFileSync(`/proc/${name}/limits`, 'utf8'))?.[1] ?? '?';
        const entry = seen.get(Number(name)) ?? { peak: 0, dataLimit: limit };
        entry.peak = Math.max(entry.peak, kb(fields.VmHWM));
        seen.set(Number(name), entry);
      } catch {
        // gone meanwhile
      }
    }
  };
  const timer = setInterval(look, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return seen;
    },
  };
}

describe('document bombs', () => {
  let server: Server;
  let summary: CrawlSummary;
  let selfPeak: number;
  let children: Map<number, { peak: number; dataLimit: string }>;
  const pages = new Map<string, PageRecord>();
  let store: CrawlStore;
  const memoryMb = 512;

  beforeAll(async () => {
    // 1.6 MB that inflate to 1.5 GB; 1 MB zips that inflate to 1 GB while their headers say 4 KB.
    const pdf = pdfBomb(1536);
    const docx = zipBomb([...DOCX_PARTS, { name: 'word/styles.xml', zeroMib: 1024, claimedSize: 4096 }]);
    const odt = zipBomb([
      { name: 'mimetype', data: text('application/vnd.oasis.opendocument.text') },
      { name: 'content.xml', zeroMib: 1024, claimedSize: 4096 },
    ]);
    const honest = zipBomb([...DOCX_PARTS]);
    const files: Record<string, [string, Buffer]> = {
      '/bomb.pdf': ['application/pdf', pdf],
      // Two bombs at once: each parsing process meets one.
      '/bomb-2.pdf': ['application/pdf', pdf],
      '/bomb.docx': ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx],
      '/bomb.odt': ['application/vnd.oasis.opendocument.text', odt],
      '/ledger.docx': ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', honest],
    };
    const links = Object.keys(files).map((path) => `<a href="${path}">${path}</a>`).join(' ');
    server = createServer((request, response) => {
      const file = files[(request.url ?? '/').split('?')[0]];
      if (request.url === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Files</title><p>${links}</p>`);
      if (!file) return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': file[0], 'content-length': file[1].length }).end(file[1]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'lse-bombs-'));
    // The memory settings are the defaults (two parsing processes, 512 MB each); the time limit is
    // out of the way, so that memory is what stops the PDF however loaded the machine is.
    const settings = loadSettings({
      env: {},
      overrides: { dataDir: dir, crawler: { resolve: { 'bombs.test:80': `127.0.0.1:${port}` }, allowPrivateNetworks: true, delaySeconds: 0, documents: { timeoutSeconds: 600 } } },
    });
    expect(settings.crawler.documents).toMatchObject({ memoryMb, workers: 2 });
    store = await CrawlStore.open(dir);
    const stack = createCrawlStack(store, settings.crawler);
    // The peak resident memory of this process, from here on.
    writeFileSync('/proc/self/clear_refs', '5');
    const watch = watchChildren();
    try {
      summary = await stack.crawler.crawl({ seeds: ['http://bombs.test/'], scope: parseScope('host:bombs.test'), ordering: 'bfs', maxPages: 20, maxDepth: 2, hostPageBudget: 20, concurrency: 4 });
    } finally {
      children = watch.stop();
      selfPeak = kb(status('self').VmHWM);
      await stack.close();
    }
    for await (const [, page] of store.pages()) pages.set(page.url, page);
  });

  afterAll(async () => {
    server?.close();
    await store?.close();
  });

  it('refuses each bomb with its reason, and reads the honest document beside them', () => {
    const error = (path: string) => pages.get(`http://bombs.test${path}`)?.error;
    expect(error('/bomb.pdf')).toBe(`document: pdf: parsing needed more than the ${memoryMb} MB memory limit`);
    expect(error('/bomb-2.pdf')).toBe(`document: pdf: parsing needed more than the ${memoryMb} MB memory limit`);
    expect(error('/bomb.docx')).toBe('document: docx: zip entry word/styles.xml inflates past the 4096 bytes its header declares: refused as a zip bomb');
    expect(error('/bomb.odt')).toBe('document: odt: zip entry content.xml inflates past the 4096 bytes its header declares: refused as a zip bomb');
    expect(pages.get('http://bombs.test/ledger.docx')).toMatchObject({ state: 'fetched', type: 'docx' });
    expect(pages.get('http://bombs.test/ledger.docx')?.text).toContain('quince orchard ledger');
    // The crawl's diagnosis says so too.
    const causes = summary.diagnosis.find((host) => host.host === 'bombs.test')?.causes ?? [];
    expect(causes.find((cause) => cause.cause === 'document')?.count).toBe(4);
  });

  it('keeps the crawling process under 1 GB and each parsing process under its limit', () => {
    expect(selfPeak).toBeGreaterThan(0);
    expect(selfPeak).toBeLessThan(1024 * MB);
    // Both parsing processes ran, each under the data-size limit the pool set.
    expect(children.size).toBeGreaterThanOrEqual(2);
    const limit = (memoryMb + STARTUP_MB) * MB;
    for (const [, child] of children) {
      expect(child.dataLimit).toBe(String(limit));
      // Resident memory is the data segment plus the mapped program and libraries.
      expect(child.peak).toBeLessThan(limit + 160 * MB);
    }
    // The two PDFs each took a process far up towards its limit, and no further.
    expect([...children.values()].filter((child) => child.peak > memoryMb * MB * 0.5).length).toBeGreaterThanOrEqual(2);
  });
});
