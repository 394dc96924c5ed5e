/**
 * Deterministic synthetic pages for tests and benchmarks: a vocabulary of a few thousand
 * real-looking words drawn with a Zipf distribution, plus topic words so that queries have
 * pages that are about them (for measuring how queries map to clauses).
 */
import type { TextDocument } from './document.ts';
import { seededRandom } from '../seeded-random.ts';

export interface SyntheticCorpusOptions {
  count: number;
  seed?: number;
  vocabularySize?: number;
  wordsPerPage?: number;
  topics?: number;
  /** First page id (ids are consecutive). */
  firstId?: number;
}

export interface SyntheticCorpus {
  documents: TextDocument[];
  vocabulary: string[];
  /** Words characteristic of each topic; documents[i] is about topicOf[i]. */
  topicWords: string[][];
  topicOf: number[];
}



const ONSETS = ['b', 'br', 'c', 'ch', 'cl', 'd', 'f', 'fl', 'g', 'gr', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'pl', 'pr', 'r', 's', 'sc', 'sh', 'st', 't', 'th', 'tr', 'v', 'w', 'z'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ee', 'io', 'ou', 'oa'];
const CODAS = ['', '', 'n', 'r', 'l', 's', 't', 'nd', 'st', 'rk', 'm', 'ng', 'ct'];
const SUFFIXES = ['', '', '', 'er', 'ing', 'ed', 'ion', 'al', 'ly', 'ment', 'ous', 'ity', 's'];

export function syntheticVocabulary(size: number, random: () => number): string[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const words = new Set<string>();
  while (words.size < size) {
    const syllables = 1 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(NUCLEI) + pick(CODAS);
    words.add(word + pick(SUFFIXES));
  }
  return [...words];
}

/** Draws ranks 0..n-1 with probability ∝ 1/(rank+1). */
export function zipfSampler(n: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) cumulative[i] = total += 1 / (i + 1);
  return () => {
    const target = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function syntheticCorpus(options: SyntheticCorpusOptions): SyntheticCorpus {
  const generator = syntheticGenerator(options);
  const documents: TextDocument[] = [];
  const topicOf: number[] = [];
  for (let i = 0; i < options.count; i++) {
    const { document, topic } = generator.next();
    documents.push(document);
    topicOf.push(topic);
  }
  return { documents, vocabulary: generator.vocabulary, topicWords: generator.topicWords, topicOf };
}

/** The same pages one at a time, so that a benchmark's corpus does not sit in memory. */
export function syntheticGenerator(options: Omit<SyntheticCorpusOptions, 'count'>): {
  vocabulary: string[];
  topicWords: string[][];
  next(): { document: TextDocument; topic: number };
} {
  const random = seededRandom(options.seed ?? 42);
  const vocabulary = syntheticVocabulary(options.vocabularySize ?? 4_000, random);
  const zipf = zipfSampler(vocabulary.length, random);
  const topicCount = options.topics ?? 40;
  const wordsPerPage = options.wordsPerPage ?? 300;
  // Topic words come from the vocabulary's middle ranks: neither ubiquitous nor unheard of.
  const topicWords = Array.from({ length: topicCount }, () =>
    Array.from({ length: 12 }, () => vocabulary[200 + Math.floor(random() * (vocabulary.length - 400))]),
  );
  const hosts = ['www.northfield.edu', 'astro.northfield.edu', 'library.northfield.edu', 'news.northfield.edu'];
  const word = (topic: number) => (random() < 0.08 ? topicWords[topic][Math.floor(random() * 12)] : vocabulary[zipf()]);
  const words = (n: number, topic: number) => Array.from({ length: n }, () => word(topic)).join(' ');
  const sentence = (topic: number) => {
    const s = words(6 + Math.floor(random() * 14), topic);
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  };
  let id = options.firstId ?? 0;
  return {
    vocabulary,
    topicWords,
    next() {
      const topic = Math.floor(random() * topicCount);
      const host = hosts[Math.floor(random() * hosts.length)];
      const sentences: string[] = [];
      let length = 0;
      while (length < wordsPerPage) {
        const s = sentence(topic);
        sentences.push(s);
        length += s.split(' ').length;
      }
      const slug = words(3, topic).replace(/ /g, '-');
      const document: TextDocument = {
        id: id++,
        url: `https://${host}/${topicWords[topic][0]}/${slug}.html`,
        host,
        title: `${topicWords[topic][Math.floor(random() * 3)]} ${words(4, topic)}`,
        headings: Array.from({ length: 3 }, () => words(3, topic)),
        text: sentences.join(' '),
      };
      return { document, topic };
    },
  };
}
