import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import lunr from 'lunr';
import { describe, expect, it } from 'vitest';
import type { CompactSegment } from '../indexer/text-index/compact-segment.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { buildLunrSegment } from '../indexer/text-index/lunr-segment.ts';
import { syntheticCorpus } from '../indexer/text-index/synthetic-documents.ts';
import { readSegment } from '../indexer/text-index/segment-files.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';
import { languagesOf } from '../indexer/text-index/language-column.ts';

const { tempDir, openIndex } = tempIndexes('lse-text-merge-');

const corpus = syntheticCorpus({ count: 300, seed: 11, wordsPerPage: 120, vocabularySize: 1_500 });
const docs = corpus.documents;
const [w0, w1, w2] = corpus.topicWords[2];
const common = corpus.vocabulary[4];
const QUERIES = [w0, `${w0} ${w1}`, `${w1} ${w2} ${common}`, `+${w0} ${w2}`, `${w0} -${w1}`, `title:${w0} ${w2}`, `"${w0} ${w1}"`, `${corpus.vocabulary[40]} ${corpus.vocabulary[90]}`];

/** Without typo tolerance and prefixes: then scores are exactly lunr's. */
function allHits(index: TextIndex, query: string): Array<[number, number]> {
  return index.search(query, { limit: 1_000, mode: 'any', tolerance: false }).hits.map((hit) => [hit.id, hit.score]);
}

/** A page whose body passes 65,536 words: its segment's body positions are 32-bit. */
function longPage(id: number): TextDocument {
  const words = Array.from({ length: 70_000 }, (_, i) => corpus.vocabulary[(i * 7) % 1_000]);
  return { id, url: `https://long.example.org/${id}`, host: 'long.example.org', title: 'A very long reference page', headings: ['Everything'], text: `${words.join(' ')} ${w0} ${w1}` };
}

/** The postings arrays of the only segment of an index, read whole from its file, without its name. */
async function onlySegment(index: TextIndex): Promise<Omit<CompactSegment, 'name'>> {
  const { segments } = index.handle.current;
  expect(segments).toHaveLength(1);
  const { name: _name, ...postings } = (await readSegment(index.directory, segments[0].stored.postings.name)).postings;
  return postings;
}

describe('text index: merging segments from their postings', () => {
  it('gives the postings, documents, scores and passages of a fresh build over the live pages', async () => {
    const dir = await tempDir();
    const index = await openIndex(dir, { maxSegmentDocs: 40 });
    // Ids arrive out of order, so merged pages interleave across segments.
    const shuffled = [...docs.slice(0, 200)].sort((a, b) => ((a.id * 7919) % 211) - ((b.id * 7919) % 211));
    await index.rebuild([...shuffled, longPage(10_000)]);
    const changed = { ...docs[10], title: 'Zyzzyva observatory', text: `${docs[10].text} zyzzyva` };
    const removed = [docs[20].id, docs[21].id, docs[150].id];
    // Pages that define identifiers: their definitions follow their bodies in the text file.
    const defining = docs.slice(200, 230).map((d, i) => (i % 3 === 0 ? { ...d, definitions: [{ name: `quux.frobnicate${i}`, anchor: `frob-${i}`, start: 5 }] } : d));
    await index.update({ upsert: [changed, ...defining], remove: removed });
    expect(index.info().segments.length).toBeGreaterThan(5);
    const report = await index.merge();
    expect(report.merged.flat().length).toBe(report.segmentsBefore);
    expect(index.info().segments).toHaveLength(1);

    const live = [...docs.slice(0, 200).filter((d) => !removed.includes(d.id)).map((d) => (d.id === changed.id ? changed : d)), ...defining, longPage(10_000)];
    const fresh = await openIndex(await tempDir(), { maxSegmentDocs: 10_000 });
    await fresh.rebuild(live);
    const merged = await onlySegment(index);
    const built = await onlySegment(fresh);
    expect(merged.docIds).toEqual(built.docIds);
    expect(merged.terms).toEqual(built.terms);
    expect(languagesOf(merged.docLangs)).toEqual(languagesOf(built.docLangs));
    merged.fields.forEach((field, f) => expect(field, `field ${f}`).toEqual(built.fields[f]));
    expect(merged.fields.some((field) => field.positions instanceof Uint32Array)).toBe(true);

    const single = lunr.Index.load(buildLunrSegment(live).lunr as unknown as object);
    for (const query of [...QUERIES, 'zyzzyva observatory']) {
      expect(allHits(index, query), query).toEqual(allHits(fresh, query));
      if (!query.includes('"')) expect(allHits(index, query).map(([id]) => id).sort(), query).toEqual(single.search(query).map((r) => Number(r.ref)).sort());
    }
    const ids = live.map((d) => d.id);
    expect(await index.documents(ids)).toEqual(await fresh.documents(ids));
    for (const query of [`${w0} ${w1}`, 'frobnicate3']) {
      const hits = index.search(query, { limit: 20 }).hits;
      expect(hits.length, query).toBeGreaterThan(0);
      expect(await index.passages(hits)).toEqual(await fresh.passages(hits));
    }
    expect((await index.passages(index.search('frobnicate3').hits)).get(defining[3].id)?.sectionAnchor).toBe('frob-3');

    // Reopened from disk, the merged segment answers the same.
    await index.close();
    const reopened = await openIndex(dir, { maxSegmentDocs: 40 });
    expect(await onlySegment(reopened)).toEqual(merged);
    expect(allHits(reopened, `${w1} ${w2} ${common}`)).toEqual(allHits(fresh, `${w1} ${w2} ${common}`));
  });

  it('drops the 32-bit positions with the long page that needed them', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 40 });
    await index.rebuild([...docs.slice(0, 60), longPage(10_000)]);
    await index.update({ remove: [10_000] });
    await index.merge();
    const fresh = await openIndex(await tempDir(), { maxSegmentDocs: 10_000 });
    await fresh.rebuild(docs.slice(0, 60));
    const merged = await onlySegment(index);
    expect(merged.fields.every((field) => field.positions instanceof Uint16Array)).toBe(true);
    expect(merged).toEqual({ ...await onlySegment(fresh), surfaces: merged.surfaces });
  });

  it('merges a rebuild of small segments into tiers', async () => {
    // Tiers of 10, 30, 90, 270 pages: 300 pages in 30 segments end as 270 + 30.
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 10, autoMerge: true, mergePolicy: { segmentsPerTier: 3 } });
    const info = await index.rebuild(docs);
    expect(info.segments.map((s) => s.liveCount).sort((a, b) => a - b)).toEqual([30, 270]);
    expect(info.documentCount).toBe(docs.length);
    const fresh = await openIndex(await tempDir(), { maxSegmentDocs: 10_000 });
    await fresh.rebuild(docs);
    for (const query of QUERIES) expect(allHits(index, query), query).toEqual(allHits(fresh, query));
  });

  it('runs the afterBuild hook between the build and the merges, and merges with fresh workers', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 10, autoMerge: true, workers: 2, mergePolicy: { segmentsPerTier: 3 } });
    let segmentsAtHook = 0;
    const info = await index.rebuild(docs, {
      afterBuild: async () => {
        segmentsAtHook = index.info().segments.length;
      },
    });
    // The hook saw the built generation (30 segments of 10), the merges came after it.
    expect(segmentsAtHook).toBe(30);
    expect(info.segments.map((s) => s.liveCount).sort((a, b) => a - b)).toEqual([30, 270]);
    const fresh = await openIndex(await tempDir(), { maxSegmentDocs: 10_000 });
    await fresh.rebuild(docs);
    for (const query of QUERIES) expect(allHits(index, query), query).toEqual(allHits(fresh, query));
  });

  it('keeps updates that arrive while a merge runs, and searches go on meanwhile', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 20, workers: 2 });
    await index.rebuild(docs.slice(0, 280));
    const before = index.info();
    expect(before.segments).toHaveLength(14);
    const events: string[] = [];
    const merging = index.merge().then((report) => {
      events.push('merge');
      return report;
    });
    await new Promise((done) => setImmediate(done));
    const changed = { ...docs[5], title: 'Quokka sanctuary', text: `${docs[5].text} quokka` };
    const removed = [docs[7].id, docs[250].id];
    const updating = index.update({ upsert: [changed, ...docs.slice(280)], remove: removed }).then(() => events.push('update'));
    const searched: number[] = [];
    while (events.length < 2) {
      searched.push(index.search(common, { mode: 'any' }).total);
      await new Promise((done) => setTimeout(done, 2));
    }
    await Promise.all([merging, updating]);
    // The update did not wait for the merge, and the merge kept its changes.
    expect(events).toEqual(['update', 'merge']);
    expect((await merging).merged.length).toBeGreaterThan(0);
    expect(searched.length).toBeGreaterThan(0);
    expect(index.info().segments.length).toBeLessThan(before.segments.length);
    expect(index.info().documentCount).toBe(docs.length - removed.length);
    expect(index.search('quokka').hits.map((h) => h.id)).toEqual([docs[5].id]);
    expect(index.has(docs[7].id)).toBe(false);

    const live = docs.filter((d) => !removed.includes(d.id)).map((d) => (d.id === changed.id ? changed : d));
    const fresh = await openIndex(await tempDir(), { maxSegmentDocs: 10_000 });
    await fresh.rebuild(live);
    for (const query of [...QUERIES, docs[5].title]) expect(allHits(index, query), query).toEqual(allHits(fresh, query));
  });

  it('merges in the background after updates, until the policy is met', async () => {
    const index = await openIndex(await tempDir(), { maxSegmentDocs: 10, autoMerge: true, mergePolicy: { segmentsPerTier: 3 }, workers: 2 });
    for (let i = 0; i < 90; i += 10) await index.update({ upsert: docs.slice(i, i + 10), remove: i > 0 ? [docs[i - 5].id] : [] });
    await index.mergesSettled();
    const info = index.info();
    expect(info.documentCount).toBe(90 - 8);
    // No tier holds three segments any more.
    const counts = new Map<number, number>();
    for (const s of info.segments) {
      const tier = s.liveCount <= 10 ? 0 : s.liveCount <= 30 ? 1 : s.liveCount <= 90 ? 2 : 3;
      counts.set(tier, (counts.get(tier) ?? 0) + 1);
    }
    expect([...counts.values()].every((n) => n < 3)).toBe(true);
  });

  it('a kill during a merge leaves the index as it was, and its files are cleaned up on open', async () => {
    const dataDir = await tempDir();
    const big = syntheticCorpus({ count: 2_000, seed: 5, wordsPerPage: 200, vocabularySize: 3_000 }).documents;
    const index = await TextIndex.open(dataDir, { workers: 2, autoMerge: false, maxSegmentDocs: 200 });
    await index.rebuild(big);
    const query = `${corpus.vocabulary[4]} ${corpus.vocabulary[9]}`;
    const expected = index.search(query, { limit: 50 });
    const info = index.info();
    await index.close();
    const indexDir = join(dataDir, 'index');
    const filesBefore = new Set(await readdir(indexDir));

    const child = spawn(process.execPath, ['--import', 'tsx', resolve('test/helpers/index-merger.ts'), dataDir, '200'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<NodeJS.Signals | number | null>((done) => child.once('exit', (code, signal) => done(signal ?? code)));
    // Killed as soon as the merge writes its first file.
    const watcher = watch(indexDir, (_event, file) => {
      if (file && !filesBefore.has(file) && file !== 'manifest.json') child.kill('SIGKILL');
    });
    const outcome = await exited;
    watcher.close();
    expect(outcome, stderr).toBe('SIGKILL');
    const manifest = JSON.parse(await readFile(join(indexDir, 'manifest.json'), 'utf8'));
    expect(manifest.generation).toBe(info.generation);

    // A stray file of each kind, as a crash may leave.
    for (const file of ['seg-999999.docs.jsonl', 'seg-999999.text.bin', 'seg-999999.postings.bin', '.seg-999999.text.bin.1.2.3.tmp']) await writeFile(join(indexDir, file), 'partial');
    const reopened = await openIndex(dataDir, { maxSegmentDocs: 200 });
    expect(reopened.info()).toEqual(info);
    expect(reopened.search(query, { limit: 50 }).hits).toEqual(expected.hits);
    expect((await readdir(indexDir)).sort()).toEqual([...filesBefore].sort());
    // And the merge completes on the reopened index.
    await reopened.merge();
    expect(reopened.info().segments).toHaveLength(1);
    expect(reopened.search(query, { limit: 50 }).hits).toEqual(expected.hits);
  }, 120_000);
});
