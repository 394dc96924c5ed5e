/**
 * Character bigrams against `Intl.Segmenter` words for Chinese and Japanese, on the Debian
 * documentation: recall and precision@10 of dictionary words and two-word phrases sampled from
 * the pages, and the size of what each would index. Both sides match a query's tokens as a
 * phrase within one run of CJK characters; a page is relevant when its text holds the query.
 */
import { seededRandom } from '../indexer/seeded-random.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';

export interface SegmentationFigures {
  lang: string;
  method: 'bigrams' | 'segmenter';
  kind: 'words' | 'phrases';
  pages: number;
  queries: number;
  recall: number;
  precisionAt10: number;
  /** Distinct terms, (term, page) postings and term occurrences over the pages' CJK runs. */
  terms: number;
  postings: number;
  positions: number;
}

const RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]+/gu;
const CJK_WORD = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]{2,}$/u;
const SEP = '\u0001';

function bigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length === 1) return [run];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

const segmenters = new Map<string, Intl.Segmenter>();
function segmenterWords(run: string, lang: string): string[] {
  let segmenter = segmenters.get(lang);
  if (!segmenter) segmenters.set(lang, (segmenter = new Intl.Segmenter(lang, { granularity: 'word' })));
  return [...segmenter.segment(run)].filter((s) => s.isWordLike).map((s) => s.segment);
}

const runsOf = (text: string) => [...text.matchAll(new RegExp(RUN.source, 'gu'))].map((m) => m[0]);

/** Dictionary words (Intl.Segmenter's, 2+ characters) and adjacent two-word phrases from the pages. */
function sampleQueries(pages: readonly string[], lang: string, seed: number): { words: string[]; phrases: string[] } {
  const random = seededRandom(seed);
  const words = new Set<string>();
  const phrases = new Set<string>();
  for (let attempt = 0; attempt < 20_000 && (words.size < 40 || phrases.size < 20); attempt++) {
    const runs = runsOf(pages[Math.floor(random() * pages.length)]);
    if (runs.length === 0) continue;
    const tokens = segmenterWords(runs[Math.floor(random() * runs.length)], lang);
    const i = Math.floor(random() * tokens.length);
    if (!CJK_WORD.test(tokens[i] ?? '')) continue;
    if (words.size < 40) words.add(tokens[i]);
    else if (i + 1 < tokens.length && CJK_WORD.test(tokens[i + 1]) && phrases.size < 20) phrases.add(tokens[i] + tokens[i + 1]);
  }
  return { words: [...words], phrases: [...phrases] };
}

export function compareCjkSegmentation(docs: readonly TextDocument[], languages = ['ja', 'zh'], seed = 19): SegmentationFigures[] {
  const figures: SegmentationFigures[] = [];
  for (const lang of languages) {
    const pages = docs.filter((d) => d.lang === lang).map((d) => [d.title, ...d.headings, d.text].join('\n'));
    if (pages.length === 0) continue;
    const queries = sampleQueries(pages, lang, seed);
    for (const method of ['bigrams', 'segmenter'] as const) {
      const tokenise = (run: string) => (method === 'bigrams' ? bigrams(run) : segmenterWords(run, lang));
      // Each run as SEP-delimited tokens, so a query's tokens match only adjacent ones in one run.
      const indexed = pages.map((text) => runsOf(text).map((run) => `${SEP}${tokenise(run).join(SEP)}${SEP}`).join('\n'));
      const terms = new Set<string>();
      let postings = 0;
      let positions = 0;
      for (const page of indexed) {
        const tokens = page.split(/[\u0001\n]+/).filter(Boolean);
        positions += tokens.length;
        const distinct = new Set(tokens);
        postings += distinct.size;
        for (const token of distinct) terms.add(token);
      }
      for (const kind of ['words', 'phrases'] as const) {
        let relevant = 0;
        let found = 0;
        let precisionSum = 0;
        let answered = 0;
        for (const query of queries[kind]) {
          const pattern = `${SEP}${tokenise(query).join(SEP)}${SEP}`;
          const hits = indexed
            .map((page, i) => ({ i, count: page.split(pattern).length - 1 }))
            .filter((hit) => hit.count > 0)
            .sort((a, b) => b.count - a.count || a.i - b.i);
          const hitSet = new Set(hits.map((hit) => hit.i));
          pages.forEach((page, i) => {
            if (!page.includes(query)) return;
            relevant++;
            if (hitSet.has(i)) found++;
          });
          const top = hits.slice(0, 10);
          if (top.length > 0) {
            precisionSum += top.filter((hit) => pages[hit.i].includes(query)).length / top.length;
            answered++;
          }
        }
        figures.push({ lang, method, kind, pages: pages.length, queries: queries[kind].length, recall: found / relevant, precisionAt10: precisionSum / Math.max(1, answered), terms: terms.size, postings, positions });
      }
    }
  }
  return figures;
}
