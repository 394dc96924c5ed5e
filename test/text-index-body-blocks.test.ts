/**
 * Bodies stored compressed in raw-deflate blocks: whole reads and windows give back exactly the
 * text (multi-byte characters across block boundaries, windows cut mid-character), segments of
 * raw bodies stay readable and merge with compressed ones, and a damaged block is an
 * IndexCorruptError, not a crash.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BODY_BLOCK_BYTES, bodyLayout, encodeBody, readRawRange } from '../indexer/text-index/body-blocks.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { IndexCorruptError } from '../indexer/text-index/errors.ts';
import { encodePostings } from '../indexer/text-index/postings-file.ts';
import { readSegment } from '../indexer/text-index/segment-files.ts';
import { encodeDocuments, readAllStoredDocuments, readBodyWindows, readDefinitions, type DocumentHead, type WindowRequest } from '../indexer/text-index/stored-documents.ts';
import { syntheticCorpus } from '../indexer/text-index/synthetic-documents.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';

const { tempDir, openIndex } = tempIndexes('lse-body-blocks-');
const encoder = new TextEncoder();
const utf8Bytes = (text: string) => encoder.encode(text).length;

/** Real English prose: the Rust book's chapters (tags stripped), or a synthetic stand-in. */
function realProse(chars: number): string {
  const dir = '/usr/share/doc/rust-doc/html/book';
  const parts: string[] = [];
  let total = 0;
  if (existsSync(dir)) {
    for (const file of readdirSync(dir).filter((f) => /^ch\d.*\.html$/.test(f)).sort()) {
      const text = readFileSync(join(dir, file), 'utf8').replace(/<script[\s\S]*?<\/script>/g, ' ').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
      parts.push(text);
      if ((total += text.length) > chars) break;
    }
  }
  if (total < chars) parts.push(syntheticCorpus({ count: 40, seed: 3, wordsPerPage: 400 }).documents.map((d) => d.text).join(' '));
  return parts.join(' ').slice(0, chars);
}

/**
 * A body of several blocks where a 4-byte emoji, a 3-byte CJK character and a 2-byte letter each
 * straddle a block boundary, with real prose (its own curly quotes and dashes) and CJK runs between.
 */
function multiByteBody(): string {
  const prose = realProse(80_000);
  const ascii = prose.replace(/[^\x20-\x7e]/g, ' ');
  /** `text` with ASCII prose appended up to `bytes` UTF-8 bytes. */
  const fillTo = (text: string, bytes: number) => text + ascii.slice(0, bytes - utf8Bytes(text));
  let text = fillTo(prose.slice(0, 9_000), BODY_BLOCK_BYTES - 2);
  text += '😀 日本語の文章と絵文字 🎉 '; // the emoji's last two bytes start the second block
  text = fillTo(`${text}${prose.slice(20_000, 25_000)}`, 2 * BODY_BLOCK_BYTES - 1);
  text += '語 Größe '; // bytes 2 and 3 of 語 start the third block
  text += '中文文本，包含标点符号。'.repeat(900);
  text = fillTo(text, Math.ceil(utf8Bytes(text) / BODY_BLOCK_BYTES) * BODY_BLOCK_BYTES - 1);
  text += 'é 𝄞 music '; // é's second byte starts a block
  return `${text}${prose.slice(40_000, 70_000)} the end`;
}

/** [word ordinal, char] pairs every ~1,000 characters, never inside a surrogate pair. */
function checkpointPairs(text: string): number[] {
  const pairs = [0, 0];
  for (let char = 997, ordinal = 1; char < text.length; char += 997, ordinal++) {
    const at = text.charCodeAt(char) >= 0xdc00 && text.charCodeAt(char) <= 0xdfff ? char + 1 : char;
    pairs.push(ordinal * 100, at);
  }
  return pairs;
}

const baseDoc: TextDocument = { id: 1, url: 'http://docs.test/page.html', host: 'docs.test', title: 'Page', headings: [], text: '', lang: 'en' };

async function writeStore(dir: string, name: string, docs: TextDocument[], checkpoints: Array<number[] | undefined>): Promise<DocumentHead[]> {
  const { lines, texts } = encodeDocuments(docs.map((doc, i) => ({ ...doc, checkpoints: checkpoints[i] })));
  await writeFile(join(dir, `${name}.docs.jsonl`), lines);
  await writeFile(join(dir, `${name}.text.bin`), texts);
  return new TextDecoder().decode(lines).split('\n').filter(Boolean).map((line) => JSON.parse(line) as DocumentHead);
}

describe('bodies compressed in blocks', () => {
  it('round-trips multi-byte text across block boundaries, smaller than raw', async () => {
    const dir = await tempDir();
    const text = multiByteBody();
    const short = 'Hi';
    const definitions = Array.from({ length: 300 }, (_, k) => ({ name: `std::collections::HashMap::method_${k}`, anchor: `method.${k}`, start: k * 40 }));
    const heads = await writeStore(dir, 'seg-1', [{ ...baseDoc, text, definitions }, { ...baseDoc, id: 2, text: short, definitions: [{ name: 'x', start: 0 }] }, { ...baseDoc, id: 3, text: '' }], [checkpointPairs(text), undefined, undefined]);
    const raw = utf8Bytes(text);
    const layout = bodyLayout(heads[0].body!, 'seg-1');
    expect(layout.rawBytes).toBe(raw);
    expect(layout.blockStarts.length - 1).toBe(Math.ceil(raw / BODY_BLOCK_BYTES));
    expect(layout.blockStarts.length - 1).toBeGreaterThanOrEqual(4);
    const bytes = encoder.encode(text);
    const straddled = layout.blockStarts.slice(1, -1).filter((_, b) => (bytes[(b + 1) * BODY_BLOCK_BYTES] & 0xc0) === 0x80);
    expect(straddled.length).toBeGreaterThanOrEqual(3);
    // Compression pays on prose; a two-byte body stays raw (three entries), as does an empty one.
    expect(layout.storedBytes).toBeLessThan(raw / 1.5);
    expect(heads[1].body).toEqual([layout.storedBytes + heads[0].defined![1], 2, 2]);
    expect(heads[2].body).toHaveLength(3);
    // Definitions JSON compressed too ([offset, stored, raw]).
    expect(heads[0].defined).toHaveLength(3);
    expect(heads[0].defined![1]).toBeLessThan(heads[0].defined![2] / 3);
    const textFile = await readFile(join(dir, 'seg-1.text.bin'));
    expect(textFile.length).toBe(layout.storedBytes + heads[0].defined![1] + 2 + heads[1].defined![1]);

    const all = await readAllStoredDocuments(dir, 'seg-1');
    expect(all.map((doc) => doc.text)).toEqual([text, short, '']);
    expect(all.map((doc) => doc.definitions)).toEqual([definitions, [{ name: 'x', start: 0 }], undefined]);
    expect(readDefinitions(dir, 'seg-1', heads).map((d) => d?.definitions)).toEqual([definitions, [{ name: 'x', start: 0 }], undefined]);
    const whole = await readBodyWindows(dir, 'seg-1', heads.map((head) => ({ head, checkpoint: { index: 0, char: 0, byte: 0 } })));
    expect(whole.map((w) => w.text)).toEqual([text, short, '']);
    expect(whole[0].bodyChars).toBe(text.length);
  });

  it('reads windows from checkpoints in later blocks, leaving out a character cut by maxBytes', async () => {
    const dir = await tempDir();
    const text = multiByteBody();
    const [head] = await writeStore(dir, 'seg-2', [{ ...baseDoc, text }], [checkpointPairs(text)]);
    expect(bodyLayout(head.body!, 'seg-2').blockStarts.length - 1).toBeGreaterThanOrEqual(4);
    const triples = head.checkpoints!;
    const requests: Array<WindowRequest & { head: DocumentHead }> = [];
    for (let i = 0; i < triples.length; i += 3) {
      for (const maxBytes of [1, 2, 3, 5, 601, 4_099, 20_000, undefined]) requests.push({ head, checkpoint: { index: triples[i], char: triples[i + 1], byte: triples[i + 2] }, maxBytes });
    }
    expect(requests.some((r) => r.checkpoint.byte > 3 * BODY_BLOCK_BYTES)).toBe(true);
    const windows = await readBodyWindows(dir, 'seg-2', requests);
    let cutMidCharacter = 0;
    windows.forEach((window, i) => {
      const { checkpoint, maxBytes } = requests[i];
      const rest = text.slice(checkpoint.char);
      const label = `char ${checkpoint.char}, maxBytes ${maxBytes}`;
      expect(window.charStart, label).toBe(checkpoint.char);
      expect(window.firstIndex, label).toBe(checkpoint.index);
      expect(rest.startsWith(window.text), label).toBe(true);
      expect(window.text, label).not.toContain('\uFFFD');
      if (maxBytes === undefined || utf8Bytes(rest) <= maxBytes) expect(window.text, label).toBe(rest);
      else {
        // As many whole characters as fit: the next one would pass maxBytes.
        const bytes = utf8Bytes(window.text);
        expect(bytes, label).toBeLessThanOrEqual(maxBytes);
        const next = String.fromCodePoint(rest.codePointAt(window.text.length)!);
        expect(bytes + utf8Bytes(next), label).toBeGreaterThan(maxBytes);
        if (bytes < maxBytes) cutMidCharacter++;
      }
    });
    expect(cutMidCharacter).toBeGreaterThan(10);
  });

  it('answers IndexCorruptError for a damaged block or a block of another length', async () => {
    const dir = await tempDir();
    const text = multiByteBody();
    const [head] = await writeStore(dir, 'seg-3', [{ ...baseDoc, text }], [checkpointPairs(text)]);
    const layout = bodyLayout(head.body!, 'seg-3');
    const file = await readFile(join(dir, 'seg-3.text.bin'));
    // The second block overwritten: 0xFF starts a deflate block of the reserved type.
    file.fill(0xff, layout.at + layout.blockStarts[1], layout.at + layout.blockStarts[2]);
    await writeFile(join(dir, 'seg-3.text.bin'), file);
    const inSecond = { head, checkpoint: { index: 0, char: 0, byte: 0 }, maxBytes: BODY_BLOCK_BYTES + 100 };
    await expect(readBodyWindows(dir, 'seg-3', [inSecond])).rejects.toThrow(IndexCorruptError);
    await expect(readBodyWindows(dir, 'seg-3', [inSecond])).rejects.toThrow(/segment seg-3/);
    await expect(readAllStoredDocuments(dir, 'seg-3')).rejects.toThrow(IndexCorruptError);
    // The first block alone is intact.
    const first = (await readBodyWindows(dir, 'seg-3', [{ ...inSecond, maxBytes: 1_000 }]))[0].text;
    expect(first.length).toBeGreaterThan(900);
    expect(text.startsWith(first)).toBe(true);

    // A valid stream that inflates to fewer bytes than its entry says.
    const encoded = encodeBody(encoder.encode('short body '.repeat(50)), 550);
    const stored = encoded.chunks[0];
    const lying = bodyLayout([0, ...encoded.entries.slice(0, 2), 551], 'seg-4');
    expect(() => readRawRange(lying, 0, 551, (at, length) => stored.subarray(at, at + length), 'seg-4')).toThrow(/segment seg-4 inflates to 550 bytes, not 551/);
    // A stream that inflates past its entry is stopped there.
    const short = bodyLayout([0, ...encoded.entries.slice(0, 2), 549], 'seg-5');
    expect(() => readRawRange(short, 0, 549, (at, length) => stored.subarray(at, at + length), 'seg-5')).toThrow(IndexCorruptError);
    expect(() => bodyLayout([0, 10, 5, 40_000, BODY_BLOCK_BYTES, 4, 4], 'seg-6')).toThrow(IndexCorruptError);
  });

  it('merges a segment of raw bodies with compressed ones, copying each as it is stored', async () => {
    const dir = await tempDir();
    const corpus = syntheticCorpus({ count: 60, seed: 5, wordsPerPage: 300, vocabularySize: 2_000 });
    const defining = (n: number) => Array.from({ length: 40 }, (_, k) => ({ name: `quux${n}.frobnicate_${k}`, anchor: `frob-${n}-${k}`, start: 3 + k }));
    const docs: TextDocument[] = corpus.documents.map((doc, i) => {
      if (i === 47) return { ...doc, text: `${doc.text} 日本語 😀 ${multiByteBody()}`, definitions: defining(47) };
      return i === 3 ? { ...doc, definitions: defining(3) } : doc;
    });
    let index = await openIndex(dir, { maxSegmentDocs: 20 });
    await index.rebuild(docs);
    const names = index.info().segments.map((s) => s.name);
    expect(names.length).toBe(3);
    await index.close();
    // The first segment written as before compression: every body raw, three entries.
    await toRawBodies(join(dir, 'index'), names[0]);
    index = await openIndex(dir, { maxSegmentDocs: 20 });
    const fresh = await openIndex(await tempDir(), { maxSegmentDocs: 1_000 });
    await fresh.rebuild(docs);
    const ids = docs.map((doc) => doc.id);
    expect(await index.documents(ids)).toEqual(await fresh.documents(ids));

    const report = await index.merge();
    expect(report.merged.flat().sort()).toEqual([...names].sort());
    const [merged] = index.info().segments;
    expect(index.info().segments).toHaveLength(1);
    const heads = (await readFile(join(dir, 'index', `${merged.name}.docs.jsonl`), 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as DocumentHead);
    const entries = heads.map((head) => head.body!.length);
    // Definitions too: raw ([offset, bytes]) from the first segment, compressed from the third.
    expect(heads.filter((head) => head.defined).map((head) => head.defined!.length).sort()).toEqual([2, 3]);
    expect(entries.filter((n) => n === 3).length).toBe(20);
    expect(entries.filter((n) => n >= 4).length).toBe(40);
    expect(entries.some((n) => n > 5)).toBe(true);
    expect(await index.documents(ids)).toEqual(await fresh.documents(ids));
    for (const query of [corpus.topicWords[1][0], `${corpus.topicWords[2][0]} ${corpus.topicWords[2][1]}`, '日本語', 'frobnicate_7', 'quux3.frobnicate_5', 'quux47.frobnicate_9', 'größe']) {
      const hits = index.search(query, { limit: 20 }).hits;
      expect(hits.length, query).toBeGreaterThan(0);
      expect(hits, query).toEqual(fresh.search(query, { limit: 20 }).hits);
      expect(await index.passages(hits), query).toEqual(await fresh.passages(hits));
    }
  });
});

/** Rewrites a segment's bodies raw, with three-entry heads, as segments were before compression. */
async function toRawBodies(dir: string, name: string): Promise<void> {
  const docs = await readAllStoredDocuments(dir, name);
  const lines = (await readFile(join(dir, `${name}.docs.jsonl`), 'utf8')).split('\n').filter(Boolean);
  const texts: Uint8Array[] = [];
  const out: Uint8Array[] = [];
  const offsets = [0];
  let at = 0;
  lines.forEach((line, i) => {
    const head = JSON.parse(line) as DocumentHead;
    const raw = encoder.encode(docs[i].text);
    head.body = [at, raw.length, docs[i].text.length];
    texts.push(raw);
    at += raw.length;
    const [defined] = readDefinitions(dir, name, [head]);
    if (defined) {
      const json = encoder.encode(JSON.stringify(defined));
      texts.push(json);
      head.defined = [at, json.length];
      at += json.length;
    }
    const bytes = encoder.encode(`${JSON.stringify(head)}\n`);
    out.push(bytes);
    offsets.push(offsets[offsets.length - 1] + bytes.length);
  });
  const segment = await readSegment(dir, name);
  await writeFile(join(dir, `${name}.docs.jsonl`), Buffer.concat(out));
  await writeFile(join(dir, `${name}.text.bin`), Buffer.concat(texts));
  await writeFile(join(dir, `${name}.postings.bin`), encodePostings(segment.postings, offsets));
}
