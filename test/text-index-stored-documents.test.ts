/**
 * The document store: a hit reads its stored line and a window of its body, never the whole page.
 * The windowed passages are pinned against passages cut from whole bodies read from the start
 * (the layout of earlier versions, with no checkpoints), on the Debian documentation in 11
 * languages (multi-byte text, CJK); that layout stays readable; a section's snippet starts in it.
 */
import { cp, mkdtemp, readdir, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianCorpus, sampleWords } from '../bench/multilingual-recall.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { IndexCorruptError } from '../indexer/text-index/errors.ts';
import { encodePostings } from '../indexer/text-index/postings-file.ts';
import { readSegment } from '../indexer/text-index/segment-files.ts';
import { encodeDocuments, readAllStoredDocuments, wholeCharacters, type DocumentHead } from '../indexer/text-index/stored-documents.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { debianDocs } from './helpers/debian-docs.ts';

/** Rewrites every segment of an index directory in the earlier layout: bodies inside the lines, no checkpoints, no text file. */
async function toEarlierLayout(dataDir: string): Promise<void> {
  const dir = join(dataDir, 'index');
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.postings.bin'))) {
    const name = file.slice(0, -'.postings.bin'.length);
    const segment = await readSegment(dir, name);
    const bodies = (await readAllStoredDocuments(dir, name)).map((doc) => doc.text);
    const lines = (await readFile(join(dir, `${name}.docs.jsonl`), 'utf8')).split('\n').filter(Boolean);
    const encoder = new TextEncoder();
    const offsets = [0];
    const out: Uint8Array[] = [];
    for (const [i, line] of lines.entries()) {
      const { body: _body, checkpoints: _checkpoints, ...head } = JSON.parse(line) as DocumentHead;
      const text = bodies[i];
      const bytes = encoder.encode(`${JSON.stringify({ ...head, text })}\n`);
      out.push(bytes);
      offsets.push(offsets.at(-1)! + bytes.length);
    }
    await writeFile(join(dir, `${name}.docs.jsonl`), Buffer.concat(out));
    await writeFile(join(dir, file), encodePostings(segment.postings, offsets));
    await unlink(join(dir, `${name}.text.bin`));
  }
}

const debian = debianDocs();
describe.skipIf(debian.length === 0)('passages from windows of stored bodies (Debian documentation, 11 languages)', () => {
  let root: string;
  let current: TextIndex;
  let earlier: TextIndex;
  let docs: TextDocument[];
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lse-stored-docs-'));
    // Every third page: all languages, long pages among them, a few segments.
    docs = debianCorpus().docs.filter((_, i) => i % 3 === 0);
    const built = await TextIndex.open(join(root, 'current'), { workers: 0, maxSegmentDocs: 40 });
    await built.rebuild(docs);
    await built.close();
    await cp(join(root, 'current'), join(root, 'earlier'), { recursive: true });
    await toEarlierLayout(join(root, 'earlier'));
    current = await TextIndex.open(join(root, 'current'), { workers: 0 });
    earlier = await TextIndex.open(join(root, 'earlier'), { workers: 0 });
  }, 120_000);
  afterAll(async () => {
    await current?.close();
    await earlier?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('gives the passages cut from whole bodies read from the start, in every language', async () => {
    const languages = [...new Set(docs.map((doc) => doc.lang ?? 'en'))].filter((lang) => lang !== 'und');
    expect(languages.length).toBeGreaterThanOrEqual(10);
    let compared = 0;
    for (const lang of languages) {
      const words = sampleWords(docs.filter((doc) => doc.lang === lang).map((doc) => doc.text), lang, 12, 11);
      for (const [i, word] of words.entries()) {
        const q = i % 3 === 2 ? `${words[i - 1]} ${word}` : word;
        const hits = current.search(q, { limit: 10 }).hits;
        expect(earlier.search(q, { limit: 10 }).hits).toEqual(hits);
        const windowed = await current.passages(hits);
        const whole = await earlier.passages(hits);
        for (const hit of hits) {
          expect(windowed.get(hit.id), `${lang} “${q}” page ${hit.id}`).toEqual(whole.get(hit.id));
          expect(windowed.get(hit.id)!.snippet).not.toContain('\uFFFD');
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it('matches phrases and dashed words beside words as the exhaustive scorer does, in every language', () => {
    // A phrase of two neighbouring words (or a dashed word) with a word from the same page: the
    // phrase is checked on the word's candidates only (segment-matches.ts), the exhaustive path marks it over every page.
    const languages = [...new Set(docs.map((doc) => doc.lang ?? 'en'))].filter((lang) => lang !== 'und');
    let found = 0;
    for (const lang of languages) {
      for (const doc of docs.filter((d) => d.lang === lang).slice(0, 4)) {
        const words = doc.text.match(/[\p{L}]{3,}/gu) ?? [];
        const dashed = doc.text.match(/\p{L}{2,}-\p{L}{2,}/u)?.[0];
        for (const q of [`"${words[10]} ${words[11]}" ${words[30]}`, `${words[40]} "${words[20]} ${words[21]}"`, ...(dashed ? [`${dashed} ${words[5]}`] : [])]) {
          const exhaustive = current.search(q, { limit: 10, exhaustive: true });
          const pruned = current.search(q, { limit: 10 });
          expect({ q, hits: pruned.hits.map((hit) => [hit.id, hit.score]), total: pruned.total }).toEqual({ q, hits: exhaustive.hits.map((hit) => [hit.id, hit.score]), total: exhaustive.total });
          if (exhaustive.total > 0) found++;
        }
      }
    }
    expect(found).toBeGreaterThan(60);
  });

  it('reads whole documents alike from both layouts, and updates an index of the earlier layout', async () => {
    const ids = docs.slice(0, 25).map((doc) => doc.id);
    expect(await current.documents(ids)).toEqual(await earlier.documents(ids));
    const changed = { ...docs[0], text: `${docs[0].text} zyxwvutsrq appended` };
    await earlier.update({ upsert: [changed] });
    const hits = earlier.search('zyxwvutsrq').hits;
    expect(hits.map((hit) => hit.id)).toEqual([changed.id]);
    expect((await earlier.passages(hits)).get(changed.id)!.snippet).toContain('<mark>zyxwvutsrq</mark>');
    expect((await earlier.documents([changed.id])).get(changed.id)!.text).toBe(changed.text);
    // A merge rewrites segments of the earlier layout in today's, from their lines.
    const report = await earlier.merge();
    expect(report.merged.length).toBeGreaterThan(0);
    const unchanged = ids.slice(1);
    expect(await earlier.documents(unchanged)).toEqual(await current.documents(unchanged));
    const query = docs[3].title;
    const merged = earlier.search(query).hits.filter((hit) => hit.id !== changed.id);
    expect(merged.length).toBeGreaterThan(0);
    expect(await earlier.passages(merged)).toEqual(await current.passages(merged));
  });
});

describe('the document store on its own', () => {
  let dir: string;
  let index: TextIndex;
  const filler = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word} sentence number ${i} goes on.`).join(' ');
  const intro = `${filler('Opening', 30)} The chapter closes with quartz and feldspar.`;
  const text = `${intro} Minerals ${filler('Crystal', 30)}`;
  const doc: TextDocument = {
    id: 7,
    url: 'http://docs.test/geology.html',
    host: 'docs.test',
    title: 'Geology',
    headings: ['Minerals'],
    text,
    lang: 'en',
    sections: [{ heading: 'Minerals', anchor: 'minerals', start: intro.length + 1 }],
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lse-stored-docs-own-'));
    index = await TextIndex.open(dir, { workers: 0 });
    await index.rebuild([doc]);
  });
  afterAll(async () => {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("starts a section's snippet at its heading, not in the section before", async () => {
    const passage = (await index.passages(index.search('minerals').hits)).get(7)!;
    expect(passage.sectionHeading).toBe('Minerals');
    expect(passage.snippet).toMatch(/^… <mark>Minerals<\/mark> Crystal sentence/);
    expect(passage.snippet).not.toContain('feldspar');
  });

  it('keeps only the line and a window in memory: the hit carries no body', async () => {
    const passage = (await index.passages(index.search('feldspar').hits)).get(7)!;
    expect(passage.document).not.toHaveProperty('text');
    // Whether a page is indexed is known without reading its document.
    expect([index.has(7), index.has(8)]).toEqual([true, false]);
    expect(passage.document).toMatchObject({ id: 7, title: 'Geology', url: doc.url });
    expect(passage.snippet).toContain('<mark>feldspar</mark>');
  });

  it('keeps windows on word boundaries after astral characters and lone surrogates', async () => {
    const odd = `${'Intro 😀 words here. '.repeat(40)}${'broken \uD800é pair and \uDC00 too. '.repeat(40)}${'More text 𝄞 follows. '.repeat(40)}needle in the text.`;
    const dir2 = await mkdtemp(join(tmpdir(), 'lse-stored-docs-odd-'));
    const oddIndex = await TextIndex.open(dir2, { workers: 0 });
    try {
      await oddIndex.rebuild([{ ...doc, id: 9, text: odd, sections: [] }]);
      const passage = (await oddIndex.passages(oddIndex.search('needle').hits)).get(9)!;
      expect(passage.snippet).toMatch(/<mark>needle<\/mark> in the text\.$/);
      expect(passage.snippet).toMatch(/^… (More|text|𝄞|follows)/);
      expect(passage.snippet).not.toContain('\uFFFD');
      // Every checkpoint's byte offset is where the encoder puts that character (independent reference).
      const pairs = [0, 0, 5, 6, 10, 20, 20, 290, 30, 1000, 40, odd.length - 6];
      const { lines } = encodeDocuments([{ ...doc, id: 9, text: odd, checkpoints: pairs }]);
      const stored = JSON.parse(new TextDecoder().decode(lines)).checkpoints as number[];
      for (let i = 0; i < stored.length; i += 3) expect(stored[i + 2], `char ${stored[i + 1]}`).toBe(new TextEncoder().encode(odd.slice(0, stored[i + 1])).length);
    } finally {
      await oddIndex.close();
      await rm(dir2, { recursive: true, force: true });
    }
  });

  it('answers a clear error when the text file is cut short', async () => {
    const textFile = (await readdir(join(dir, 'index'))).find((name) => name.endsWith('.text.bin'))!;
    await truncate(join(dir, 'index', textFile), 100);
    // The blocks earlier passages read stay in the index's memory (body-block-cache.ts): an index
    // opened afresh, as after a restart, reads the file.
    await index.close();
    index = await TextIndex.open(dir, { workers: 0 });
    await expect(index.passages(index.search('feldspar').hits)).rejects.toBeInstanceOf(IndexCorruptError);
  });
});

describe.skipIf(debian.length === 0)('a window cut anywhere in UTF-8', () => {
  it('keeps the characters a streaming decoder gives, in every language of the corpus', () => {
    const byLanguage = new Map(debianCorpus().docs.map((doc) => [doc.lang, doc.text]));
    expect(byLanguage.size).toBeGreaterThanOrEqual(8);
    let multibyte = 0;
    for (const text of byLanguage.values()) {
      const bytes = new TextEncoder().encode(text.slice(0, 600));
      for (let cut = 0; cut <= bytes.length; cut++) {
        const window = bytes.subarray(0, cut);
        const kept = window.subarray(0, wholeCharacters(window));
        expect(new TextDecoder().decode(kept)).toBe(new TextDecoder().decode(window, { stream: true }));
        if (kept.length < window.length) multibyte++;
      }
    }
    // Cuts inside a character were met (Cyrillic, CJK, accented letters).
    expect(multibyte).toBeGreaterThan(500);
  });
});
