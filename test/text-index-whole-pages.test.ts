import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { MAX_CHECKPOINTS } from '../indexer/text-index/segment-analysis.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';

// A reference page of about 1.4 M characters (~200k words): far past the old 20,000-character cap
// and past 65,536 words (16-bit positions).
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
function longPage(): TextDocument {
  const parts: string[] = [];
  const sections: TextDocument['sections'] = [];
  let length = 0;
  const add = (text: string) => {
    if (length > 0) {
      parts.push(' ');
      length++;
    }
    parts.push(text);
    length += text.length;
  };
  for (let s = 0; s < 200; s++) {
    sections.push({ heading: `Part ${s}`, anchor: `part-${s}`, start: length + (length > 0 ? 1 : 0) });
    add(`Part ${s}`);
    for (let i = 0; i < 1_000; i++) add(WORDS[(i * 7 + s) % WORDS.length]);
  }
  sections.push({ heading: 'Appendix', anchor: 'appendix', start: length + 1 });
  add('Appendix');
  add('The zymurgic quokka ferments barley.');
  return { id: 1, url: 'http://docs.test/reference.html', host: 'docs.test', title: 'Reference', headings: sections.map((s) => s.heading), text: parts.join(''), lang: 'en', sections };
}

describe('whole pages', () => {
  const page = longPage();
  const other: TextDocument = { id: 2, url: 'http://docs.test/other.html', host: 'docs.test', title: 'Other', headings: [], text: 'A quokka and barley, but nothing zymurgic. Ferments barley quokka.', lang: 'en' };
  let dir: string;
  let index: TextIndex;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lse-whole-'));
    index = await TextIndex.open(dir, { workers: 0 });
    await index.rebuild([page, other]);
  });
  afterAll(async () => {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('indexes and stores the whole text of a long page', async () => {
    expect(page.text.length).toBeGreaterThan(1_000_000);
    const hits = index.search('zymurgic').hits.map((hit) => hit.id);
    expect(hits).toContain(1);
    const stored = (await index.documents([1])).get(1)!;
    expect(stored.text.length).toBe(page.text.length);
  });

  it('matches phrases past the 65,536th word, and links the passage to its section', async () => {
    expect(index.search('"zymurgic quokka ferments"').hits.map((hit) => hit.id)).toEqual([1]);
    const hits = index.search('quokka ferments').hits;
    const passage = (await index.passages(hits)).get(1)!;
    expect(passage.snippet).toContain('<mark>quokka</mark> <mark>ferments</mark>');
    expect(passage.sectionAnchor).toBe('appendix');
  });

  it('keeps a bounded number of checkpoints, and reopens the 32-bit positions from disk', async () => {
    const line = (await readFile(join(dir, 'index', `${index.info().segments[0].name}.docs.jsonl`), 'utf8')).split('\n')[0];
    const checkpoints = (JSON.parse(line) as { checkpoints: number[] }).checkpoints;
    expect(checkpoints.length / 3).toBeLessThanOrEqual(MAX_CHECKPOINTS);
    const reopened = await TextIndex.open(dir, { workers: 0 });
    try {
      expect(reopened.search('"zymurgic quokka ferments"').hits.map((hit) => hit.id)).toEqual([1]);
      const passage = (await reopened.passages(reopened.search('zymurgic').hits)).get(1)!;
      expect(passage.snippet).toContain('<mark>zymurgic</mark>');
      expect(passage.sectionHeading).toBe('Appendix');
    } finally {
      await reopened.close();
    }
  });

  it('closes a segment at the character bound, not only at the document count', async () => {
    const small = await TextIndex.open(await mkdtemp(join(tmpdir(), 'lse-whole-seg-')), { workers: 0, maxSegmentChars: 500_000 });
    try {
      await small.rebuild([page, other, { ...other, id: 3 }]);
      expect(small.info().segments.map((s) => s.docCount)).toEqual([1, 2]);
    } finally {
      await small.close();
      await rm(join(small.directory, '..'), { recursive: true, force: true });
    }
  });
});

describe('whole documents', () => {
  it('finds a word on page 97 of a 98-page PDF and links to that page', async () => {
    const pages = Array.from({ length: 98 }, (_, p) => `Page ${p + 1}. ${'The application manual describes its processes and tables in detail. '.repeat(40)}${p === 96 ? 'The snapshot_isolation option is explained here.' : ''}`);
    const sections: NonNullable<TextDocument['sections']> = [];
    let text = '';
    pages.forEach((content, p) => {
      if (text !== '') text += ' ';
      sections.push({ heading: `Page ${p + 1}`, anchor: `page=${p + 1}`, start: text.length });
      text += content;
    });
    expect(text.length).toBeGreaterThan(250_000);
    const dir = await mkdtemp(join(tmpdir(), 'lse-whole-pdf-'));
    const index = await TextIndex.open(dir, { workers: 0 });
    try {
      await index.rebuild([{ id: 1, url: 'http://docs.test/manual.pdf', host: 'docs.test', title: 'Manual', headings: [], text, lang: 'en', type: 'pdf', sections }]);
      const hits = index.search('snapshot_isolation').hits;
      expect(hits.map((hit) => hit.id)).toEqual([1]);
      const passage = (await index.passages(hits)).get(1)!;
      expect(passage.sectionAnchor).toBe('page=97');
      expect(passage.snippet).toContain('<mark>snapshot_isolation</mark>');
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
