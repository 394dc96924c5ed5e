import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHtml } from '../crawler/html.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { snippet } from '../indexer/text-index/snippet.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';

const filler = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i} talks about ${topic} in general terms.`).join(' ');
const html = `<header><a href="/">Example Docs</a><nav><a href="/a">A</a></nav></header><main>
  <h1 id="top">Web server guide</h1><p>${filler('servers', 60)}</p>
  <h2 id="rewrite">URL rewriting</h2><p>${filler('rules', 40)} Enable mod_rewrite and write a RewriteRule for every redirect.</p>
  <h2 id="tls">Certificates</h2><p>${filler('keys', 40)} Renew the certificate before it expires.</p></main><footer>Example Docs footer</footer>`;

describe('snippets from stored passages, with their section', () => {
  const page = parseHtml(html, 'http://docs.test/en/server.html');
  const doc: TextDocument = { id: 1, url: 'http://docs.test/en/server.html', host: 'docs.test', title: page.title, headings: page.content.headings, text: page.content.text, lang: 'en', sections: page.content.sections };
  const other: TextDocument = { id: 2, url: 'http://docs.test/de/server.html', host: 'docs.test', title: 'Zertifikate', headings: [], text: `${filler('Schlüssel', 5)} Das Zertifikat erneuern.`, lang: 'de' };
  let dir: string;
  let index: TextIndex;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lse-passages-'));
    index = await TextIndex.open(dir, { workers: 0 });
    await index.rebuild([doc, other]);
  });
  afterAll(async () => {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes the passage where the terms stand together, names its section and anchor', async () => {
    const result = index.search('rewriterule redirect');
    const passages = await index.passages(result.hits);
    const passage = passages.get(1)!;
    expect(passage.sectionHeading).toBe('URL rewriting');
    expect(passage.sectionAnchor).toBe('rewrite');
    expect(passage.snippet).toContain('<mark>RewriteRule</mark>');
    expect(passage.snippet).toContain('<mark>redirect</mark>');
    expect(passage.document.url).toBe(doc.url);
  });

  it('marks exactly the words of the page that matched, in the page language', async () => {
    const passages = await index.passages(index.search('Zertifikate').hits);
    expect(passages.get(2)!.snippet).toContain('<mark>Zertifikat</mark>');
    const english = await index.passages(index.search('certificates', { lang: 'en' }).hits);
    expect(english.get(1)!.snippet).toMatch(/<mark>Certificates?<\/mark>/);
    expect(english.get(1)!.sectionHeading).toBe('Certificates');
  });

  it('never starts with the site name or menu, and agrees with the whole-text snippet', async () => {
    const passages = await index.passages(index.search('guide').hits);
    const start = passages.get(1)!.snippet;
    expect(start, start).toMatch(/^Web server <mark>guide<\/mark>/);
    expect(start).not.toContain('Example Docs');
    const whole = snippet(doc.text, ['renew', 'certificate']);
    const fast = (await index.passages(index.search('renew certificate').hits)).get(1)!.snippet;
    expect(fast.replace(/<\/?mark>/g, '')).toContain('Renew the certificate before it expires');
    expect(whole.replace(/<\/?mark>/g, '')).toContain('Renew the certificate before it expires');
  });

  it('keeps a segment\'s document files open across searches, reading them after they are removed', async () => {
    const openFiles = () => readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/self/fd/${fd}`)];
      } catch {
        return [];
      }
    }).filter((path) => path.startsWith(dir));
    const first = (await index.passages(index.search('renew certificate').hits)).get(1)!.snippet;
    const opened = openFiles();
    expect(opened.some((path) => path.endsWith('.docs.jsonl'))).toBe(true);
    expect(opened.some((path) => path.endsWith('.text.bin'))).toBe(true);
    for (let i = 0; i < 20; i++) await index.passages(index.search('renew certificate').hits);
    expect(openFiles().length).toBe(opened.length);
    // A snapshot's files may be removed by a later generation (a merge) while its queries still run.
    const documentFiles = (await readdir(dir, { recursive: true })).filter((name) => name.endsWith('.docs.jsonl') || name.endsWith('.text.bin'));
    for (const name of documentFiles) await rm(join(dir, name));
    expect((await index.passages(index.search('renew certificate').hits)).get(1)!.snippet).toBe(first);
  });
});
