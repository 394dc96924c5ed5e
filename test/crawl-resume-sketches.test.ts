/**
 * A resumed crawl reads the near-duplicate sketches saved beside the pages instead of computing
 * them from every page's text: computed once (and saved) for a store written without them, read
 * after that, computed again for a page whose text changed since; and duplicates are found the
 * same way either way.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrawlRecorder } from '../crawler/crawl-recorder.ts';
import { loadKnownPages } from '../crawler/crawl-resume.ts';
import { fingerprintHex, normalizedFingerprint } from '../crawler/duplicates.ts';
import { parseHtml } from '../crawler/html.ts';
import { pageWords, type PageOutcome } from '../crawler/page-fetch.ts';
import { urlRules } from '../crawler/url.ts';
import { CrawlStore, type PageRecord } from '../indexer/store/crawl-store.ts';

const DOCS = '/usr/share/doc/debian-reference-common/docs';

/** Texts of ~300 words: the English Debian Reference cut in pieces (generated words where it is missing). */
function texts(count: number): string[] {
  let words: string[];
  try {
    words = readdirSync(DOCS).filter((f) => f.endsWith('.en.html')).flatMap((f) => readFileSync(join(DOCS, f), 'utf8').replace(/<[^>]+>/g, ' ').replace(/&[a-z]+;/g, ' ').split(/\s+/).filter(Boolean));
  } catch {
    words = [];
  }
  if (words.length < count * 300) words = Array.from({ length: count * 300 }, (_, i) => `w${(i * 7919) % 5003}`);
  return Array.from({ length: count }, (_, i) => words.slice(i * 300, i * 300 + 300).join(' '));
}

const fingerprintOf = (title: string, text: string) => fingerprintHex(normalizedFingerprint(pageWords(title, text)));
const page = (n: number, text: string): PageRecord => ({ url: `http://site.test/${n}`, host: 'site.test', role: 'local', state: 'fetched', status: 200, fetchedAt: 1, depth: 1, title: `Page ${n}`, text, fingerprint: fingerprintOf(`Page ${n}`, text), visits: 1, changes: 0 });

/** What the crawl records for a fetched page with this text. */
function fetched(url: string, title: string, text: string): PageOutcome {
  const parsed = parseHtml(`<html><head><title>${title}</title></head><body><main><p>${text}</p></main></body></html>`, url);
  const normalizedText = pageWords(parsed.title, parsed.content.text);
  return { kind: 'page', url, finalUrl: url, redirects: [], status: 200, contentType: 'text/html', page: parsed, noindex: false, nofollow: false, truncated: false, fingerprint: fingerprintHex(normalizedFingerprint(normalizedText)), normalizedText };
}

async function resume(store: CrawlStore): Promise<CrawlRecorder> {
  const recorder = new CrawlRecorder(store, { urlRules: urlRules(), roleOf: () => 'local' });
  await loadKnownPages(store, recorder);
  return recorder;
}

describe('near-duplicate sketches across a resumed crawl', () => {
  it('are computed once, read after that, and computed again for a changed page', async () => {
    const store = await CrawlStore.open(mkdtempSync(join(tmpdir(), 'lse-sketches-')));
    try {
      const pieces = texts(41);
      let batch = store.batch();
      for (let n = 0; n < 40; n++) batch.putPage(batch.idFor(`http://site.test/${n}`), page(n, pieces[n]));
      await batch.commit();

      expect((await resume(store)).knownSketches).toEqual({ saved: 0, computed: 40 });
      let saved = 0;
      for await (const _ of store.sketches()) saved++;
      expect(saved).toBe(40);
      expect((await resume(store)).knownSketches).toEqual({ saved: 40, computed: 0 });

      // Page 5 imported again with other text: its saved sketch is of the old text.
      batch = store.batch();
      batch.putPage(store.idOf('http://site.test/5')!, page(5, pieces[40]));
      await batch.commit();
      const recorder = await resume(store);
      expect(recorder.knownSketches).toEqual({ saved: 39, computed: 1 });

      // A near copy of page 5's new text (one word changed) is found a duplicate of it, and a
      // near copy of its old text is not (no page holds that text any more).
      const edit = (text: string) => text.replace(/\S+/, 'Changed');
      const id = store.assignId('http://site.test/copy');
      expect(recorder.record(fetched('http://site.test/copy', 'Page 5', edit(pieces[40])), { id, depth: 1, role: 'local', now: 2 }).duplicateOf).toBe(store.idOf('http://site.test/5'));
      const other = store.assignId('http://site.test/old-copy');
      expect(recorder.record(fetched('http://site.test/old-copy', 'Page 5', edit(pieces[5])), { id: other, depth: 1, role: 'local', now: 2 }).duplicateOf).toBeUndefined();
      // A fetched original is saved with its sketch: the next resume reads it.
      await recorder.flush(true);
      expect((await resume(store)).knownSketches).toEqual({ saved: 41, computed: 0 });
    } finally {
      await store.close();
    }
  });
});
