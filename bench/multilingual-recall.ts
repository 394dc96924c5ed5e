/**
 * Recall of the text index on real multilingual documentation (Debian Reference and Debian FAQ):
 * words sampled from each language's pages are searched, and recall is the share of the pages
 * whose indexed main text contains the word (as a whole word; a substring for CJK) that the
 * search finds. Used by the languages test and by `npm run bench`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHtml } from '../crawler/html.ts';
import { languageFields } from '../crawler/page-language-fields.ts';
import { seededRandom } from '../indexer/seeded-random.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { isStopWord, stemmedLanguages } from '../indexer/text-index/languages.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { debianDocs, readDoc, type DebianDoc } from '../test/helpers/debian-docs.ts';

export interface LanguageRecall {
  lang: string;
  pages: number;
  queries: number;
  /** Pages containing the sampled words, summed over the queries. */
  relevant: number;
  found: number;
  recall: number;
  /** Queries that missed a page, with what they missed. */
  misses: string[];
}

export interface DebianCorpus {
  docs: TextDocument[];
  sources: DebianDoc[];
}

/** The Debian documentation as documents, parsed and with languages as the crawler tells them. */
export function debianCorpus(): DebianCorpus {
  const sources = debianDocs();
  const docs = sources.map((source, id): TextDocument => {
    const url = `http://docs.test/${source.fileLang}/${source.key}`;
    const page = parseHtml(readDoc(source), url);
    const { lang } = languageFields(page, url, undefined);
    return { id, url, host: 'docs.test', title: page.title, headings: page.content.headings, text: page.content.text, lang, sections: page.content.sections };
  });
  return { docs, sources };
}

export async function withIndex<T>(docs: readonly TextDocument[], run: (index: TextIndex) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'lse-recall-'));
  const index = await TextIndex.open(dir, { workers: 0, autoMerge: false });
  try {
    await index.rebuild(docs);
    return await run(index);
  } finally {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2,}/gu;
const WORD = /(?<![\p{L}\p{N}\p{M}_.])\p{L}{4,}(?![\p{L}\p{N}\p{M}])/gu;
const SEGMENTED = new Set(['ja', 'zh', 'ko']);

/** Words sampled from one language's stored texts (CJK: 2–4 character substrings of runs). */
export function sampleWords(texts: readonly string[], lang: string, count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const words = new Set<string>();
  const languages = stemmedLanguages();
  for (let attempt = 0; attempt < count * 50 && words.size < count; attempt++) {
    const text = texts[Math.floor(random() * texts.length)];
    if (!text) continue;
    const at = Math.floor(random() * text.length);
    const pattern = SEGMENTED.has(lang) ? CJK_RUN : WORD;
    // Whole words: start after the next space (a CJK substring may start anywhere in its run).
    pattern.lastIndex = SEGMENTED.has(lang) ? at : text.indexOf(' ', at) + 1;
    if (pattern.lastIndex === 0 && !SEGMENTED.has(lang)) continue;
    const match = pattern.exec(text);
    if (!match) continue;
    let word = match[0];
    if (SEGMENTED.has(lang)) {
      const chars = Array.from(word);
      const length = Math.min(chars.length, 2 + Math.floor(random() * 3));
      const from = Math.floor(random() * (chars.length - length + 1));
      word = chars.slice(from, from + length).join('');
    } else {
      word = word.toLowerCase();
      // Stop words of any indexed language are not searchable by design.
      if (languages.some((l) => isStopWord(word, l))) continue;
    }
    words.add(word);
  }
  return [...words];
}

function containsWord(text: string, word: string, segmented: boolean): boolean {
  if (segmented) return text.includes(word);
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
    const before = at === 0 ? '' : lower[at - 1];
    const after = lower[at + word.length] ?? '';
    if (!/[\p{L}\p{N}\p{M}]/u.test(before) && !/[\p{L}\p{N}\p{M}]/u.test(after)) return true;
  }
  return false;
}

/** Recall per language over `queriesPerLanguage` sampled words. */
export async function multilingualRecall(index: TextIndex, docs: readonly TextDocument[], queriesPerLanguage = 20, seed = 19): Promise<LanguageRecall[]> {
  const stored = await index.documents(docs.map((doc) => doc.id));
  const texts = docs.map((doc) => stored.get(doc.id)?.text ?? '');
  const byLang = new Map<string, number[]>();
  docs.forEach((doc, i) => {
    const lang = doc.lang ?? 'en';
    byLang.set(lang, [...(byLang.get(lang) ?? []), i]);
  });
  const results: LanguageRecall[] = [];
  for (const [lang, members] of [...byLang].sort()) {
    if (lang === 'und' || members.length < 3) continue;
    const segmented = SEGMENTED.has(lang);
    const words = sampleWords(members.map((i) => texts[i]), lang, queriesPerLanguage, seed);
    let relevant = 0;
    let found = 0;
    const misses: string[] = [];
    for (const word of words) {
      const containing = new Set(docs.filter((_, i) => containsWord(texts[i], word, segmented)).map((doc) => doc.id));
      const hits = new Set(index.search(word, { limit: 1000 }).hits.map((hit) => hit.id));
      let hitCount = 0;
      for (const id of containing) if (hits.has(id)) hitCount++;
      relevant += containing.size;
      found += hitCount;
      if (hitCount < containing.size) misses.push(`${word}: ${hitCount}/${containing.size}`);
    }
    results.push({ lang, pages: members.length, queries: words.length, relevant, found, recall: relevant === 0 ? 1 : found / relevant, misses });
  }
  return results;
}
