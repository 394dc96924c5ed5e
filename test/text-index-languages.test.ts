import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianCorpus, multilingualRecall } from '../bench/multilingual-recall.ts';
import { analyzeText } from '../indexer/text-index/analysis.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { SUPPORTED_LANGUAGES, UnknownLanguageError } from '../indexer/text-index/languages.ts';
import { QuerySyntaxError } from '../indexer/text-index/errors.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { debianDocs } from './helpers/debian-docs.ts';

const terms = (text: string, lang?: string) => analyzeText(text, lang).map((t) => t.term);

describe('analysis per language', () => {
  it('indexes identifiers whole and by their parts, at the same position', () => {
    const tokens = analyzeText('Enable mod_rewrite, call os.path.join and asyncio.gather in RewriteRule');
    const byTerm = new Map(tokens.map((t) => [t.term, t.index]));
    for (const whole of ['mod_rewrite', 'os.path.join', 'asyncio.gather', 'rewriterule']) expect(byTerm.has(whole), whole).toBe(true);
    for (const part of ['mod', 'rewrit', 'path', 'join', 'asyncio', 'gather', 'rule']) expect(byTerm.has(part), part).toBe(true);
    expect(byTerm.get('mod_rewrite')).toBe(byTerm.get('mod'));
    expect(byTerm.get('rewriterule')).toBe(byTerm.get('rule')! - 1);
  });

  it('cuts CJK runs into bigrams, so a word is found inside longer runs', () => {
    expect(terms('설정파일', 'ko')).toEqual(['설정', '정파', '파일']);
    const inside = terms('주설정파일에서', 'ko');
    expect(inside.join(' ')).toContain('설정 정파 파일');
    expect(terms('設定ファイル', 'ja')).toEqual(['設定', '定フ', 'ファ', 'ァイ', 'イル']);
    expect(terms('的', 'zh')).toEqual(['的']);
  });

  it('segments Thai with Intl.Segmenter', () => {
    expect(terms('ภาษาไทยง่ายนิดเดียว', 'th')).toEqual(['ภาษา', 'ไทย', 'ง่าย', 'นิด', 'เดียว']);
  });

  it('stems and drops stop words per language, and keeps stems of different languages apart', () => {
    expect(terms('Die Pakete werden installiert', 'de')).toEqual([null, 'de:paket', null, 'de:installiert']);
    expect(terms('Les fichiers de configuration', 'fr')).toEqual([null, 'fr:fichi', null, 'fr:configur']);
    expect(terms('installing packages')).toEqual(['instal', 'packag']);
    // Words in another script than the language's, and numbers, get the neutral analysis.
    expect(terms('Что такое Debian 12', 'ru')).toEqual([null, 'ru:так', 'debian', '12']);
    // A language without its own analysis, and an unknown one: lower-cased words.
    expect(terms('Pakiety Debiana', 'pl')).toEqual(['pakiety', 'debiana']);
    expect(terms('Pakiety Debiana', 'und')).toEqual(['pakiety', 'debiana']);
  });
});

describe('searching pages in several languages', () => {
  const page = (id: number, lang: string | undefined, title: string, text: string): TextDocument => ({ id, url: `http://site.test/${lang ?? 'x'}/${id}.html`, host: 'site.test', title, headings: [], text, ...(lang ? { lang } : {}) });
  const docs: TextDocument[] = [
    page(1, 'en', 'Installing packages', 'How to install packages with apt and configure them. Use mod_rewrite with a RewriteRule.'),
    page(2, 'fr', 'Installation des paquets', 'Les installations se font avec apt. Les fichiers de configuration sont dans /etc.'),
    page(3, 'de', 'Pakete installieren', 'Die Paketen werden mit apt installiert. Ein Paket ist eine Datei.'),
    page(4, 'ko', '설정', '주설정파일에서 값을 바꿉니다.'),
    page(5, 'ja', '設定', '設定ファイルを編集します。'),
    page(6, 'und', 'apt', 'apt-get install foo bar'),
    page(7, 'en', 'Python', 'Join paths with os.path.join and gather tasks with asyncio.gather.'),
  ];
  let dir: string;
  let index: TextIndex;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lse-languages-'));
    index = await TextIndex.open(dir, { workers: 0 });
    await index.rebuild(docs);
  });
  afterAll(async () => {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  });
  const ids = (query: string, options = {}) => index.search(query, { limit: 50, ...options }).hits.map((h) => h.id).sort();

  it('matches each page through its own language analysis', () => {
    // "configuration": English stem configur (the English page's "configure"), French stem fr:configur.
    expect(ids('configuration')).toEqual([1, 2]);
    expect(ids('configuration', { lang: 'en' })).toEqual([1]);
    expect(ids('configuration', { lang: 'fr' })).toEqual([2]);
    expect(ids('Paket')).toEqual([3]); // German: Paket, Pakete, Paketen
    expect(ids('fichier')).toEqual([2]);
  });

  it('finds Korean and Japanese words inside longer runs', () => {
    expect(ids('설정파일')).toEqual([4]);
    expect(ids('ファイル')).toEqual([5]);
    expect(ids('設定')).toEqual([5]);
  });

  it('finds identifiers by the whole and by their parts', () => {
    expect(ids('mod_rewrite')).toEqual([1]);
    expect(ids('RewriteRule')).toEqual([1]);
    expect(ids('rewriterule')).toEqual([1]);
    expect(ids('os.path.join')).toEqual([7]);
    expect(ids('asyncio.gather')).toEqual([7]);
    expect(ids('asyncio')).toEqual([7]);
  });

  it('tolerates typos in unknown words, below exact matches, and says what it searched for', () => {
    const typo = index.search('rewirte');
    expect(typo.hits.map((h) => h.id)).toEqual([1]);
    expect(typo.corrections).toEqual([{ typed: 'rewirte', term: 'rewrit' }]);
    expect(index.search('rewrite').corrections).toEqual([]);
    expect(ids('confgure')).toEqual([1, 2]); // an edit from the English and the French stem
    expect(ids('cnfigrtion')).toEqual([]); // three edits
    expect(ids('Pakte')).toEqual([3]);
    // An edit is within one language's stems: "depaket" is no typo of German "de:paket".
    expect(ids('depaket')).toEqual([]);
    // Never for CJK, and not for words under four letters.
    expect(ids('설정파알')).toEqual([]);
    expect(ids('apx')).toEqual([]);
    // lunr's own syntax keeps its meaning.
    expect(ids('rewirte~1')).toEqual([1]); // lunr's fuzzy: a swap is one edit
    expect(ids('+installing -configure')).toEqual([]);
  });

  it('matches the last word as an unstemmed prefix (search as you type)', () => {
    expect(ids('mod_rewr')).toEqual([1]);
    expect(ids('asyncio.gat')).toEqual([7]);
    expect(ids('Python asyn')).toEqual([7]);
    // Only the last word: "asyn" before another word is no prefix, so only the fallback to any word finds the page.
    const notLast = index.search('asyn python');
    expect(notLast.matchMode).toBe('any');
    expect(notLast.hits[0].matchedTerms).toEqual(['python']);
    const ranked = index.search('instal', { limit: 10 }).hits.map((h) => h.id);
    expect(ranked).toContain(1);
  });

  it('matches the last word as a prefix of words as written, even past their stem', () => {
    // "installing" is indexed as "instal", French "Installation(s)" as fr:install, "configuration" as fr:configur.
    // Other pages may follow through typo tolerance, below the prefix match.
    const top = (query: string, lang?: string) => index.search(query, lang ? { lang } : {}).hits[0];
    expect(top('installin')).toMatchObject({ id: 1, matchedTerms: expect.arrayContaining(['instal']) });
    expect(top('Installati', 'fr')).toMatchObject({ id: 2, matchedTerms: expect.arrayContaining(['fr:install']) });
    expect(top('configurat', 'fr')).toMatchObject({ id: 2, matchedTerms: expect.arrayContaining(['fr:configur']) });
    // German: "installieren" (the title) is de:installi.
    expect(top('installiere', 'de')).toMatchObject({ id: 3, matchedTerms: expect.arrayContaining(['de:installi']) });
    // Not a prefix of any English written word ("installing" is not "installati…").
    expect(ids('installati', { lang: 'en' })).toEqual([]);
  });

  it('indexes pages of unknown language neutrally, never drops them', () => {
    expect(ids('foo')).toEqual([6]);
    expect(index.search('foo').hits[0].lang).toBe('und');
  });

  it('analyses the query in the language asked for, and refuses an unknown one with the list', () => {
    expect(ids('fichiers', { lang: 'en' })).toEqual([]);
    expect(ids('fichiers', { lang: 'fr' })).toEqual([2]);
    expect(() => index.search('apt', { lang: 'xx' })).toThrow(UnknownLanguageError);
    expect(() => index.search('apt', { lang: 'xx' })).toThrow(QuerySyntaxError);
    expect(() => index.search('apt', { lang: 'xx' })).toThrow(/supported languages are .*\bde\b.*\bja\b/);
    expect(SUPPORTED_LANGUAGES).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'ja', 'ko', 'zh', 'th', 'ru', 'und']));
  });
});

const debian = debianDocs();
describe.skipIf(debian.length === 0)('recall on the Debian documentation in 11 languages', () => {
  it('finds at least 90 % of the pages whose text holds a sampled word, in every language (CJK included)', async () => {
    const { docs: all } = debianCorpus();
    // Ten pages per language keep the test short.
    const perLang = new Map<string, number>();
    const docs = all.filter((doc) => {
      const n = perLang.get(doc.lang!) ?? 0;
      perLang.set(doc.lang!, n + 1);
      return n < 10;
    });
    const dir = await mkdtemp(join(tmpdir(), 'lse-recall-'));
    const index = await TextIndex.open(dir, { workers: 0 });
    try {
      await index.rebuild(docs);
      const table = await multilingualRecall(index, docs, 12);
      expect(table.map((row) => row.lang)).toEqual(expect.arrayContaining(['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'nl', 'pt', 'ru', 'zh']));
      for (const row of table) expect(row.recall, `${row.lang}: ${row.misses.join(', ')}`).toBeGreaterThanOrEqual(0.9);
      // Inflected forms through the stemmer: the singular finds pages that only have the plural.
      const stored = await index.documents(docs.map((d) => d.id));
      const onlyPlural = docs.filter((d) => d.lang === 'de' && /\bPaketen?\b/.test(stored.get(d.id)!.text) && !/\bPaket\b/.test(stored.get(d.id)!.text));
      const found = new Set(index.search('Paket', { limit: 1000 }).hits.map((h) => h.id));
      for (const doc of onlyPlural) expect(found.has(doc.id), doc.url).toBe(true);
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.skipIf(debian.length === 0)('prefixes of written words on the Debian documentation', () => {
  it('finds every page holding a word from a prefix longer than the word\'s stem (English, German)', async () => {
    const { docs: all } = debianCorpus();
    const docs = ['en', 'de'].flatMap((lang) => all.filter((doc) => doc.lang === lang).slice(0, 10));
    const dir = await mkdtemp(join(tmpdir(), 'lse-prefix-'));
    const index = await TextIndex.open(dir, { workers: 0 });
    try {
      await index.rebuild(docs);
      const stored = await index.documents(docs.map((d) => d.id));
      const cases: Array<[lang: string, word: string, prefix: string]> = [
        ['en', 'installation', 'installati'],
        ['en', 'information', 'informati'],
        ['de', 'Funktionalitäten', 'Funktionalitä'],
        ['de', 'Verwendung', 'Verwendu'],
        ['de', 'konfigurieren', 'konfiguriere'],
      ];
      for (const [lang, word, prefix] of cases) {
        // The stem does not begin with the prefix, so only the written word can match it.
        const stem = terms(word, lang)[0]!.replace(/^[a-z]{2}:/, '');
        expect(stem.startsWith(prefix.toLowerCase()), `${word} → ${stem}`).toBe(false);
        const holding = docs.filter((d) => d.lang === lang && new RegExp(`(?<![\\p{L}])${word}`, 'iu').test(stored.get(d.id)!.text));
        expect(holding.length, word).toBeGreaterThan(0);
        const found = new Set(index.search(prefix, { limit: 1000, lang }).hits.map((h) => h.id));
        for (const doc of holding) expect(found.has(doc.id), `${prefix} → ${doc.url}`).toBe(true);
      }
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('edit distance for typo tolerance', () => {
  /** Optimal string alignment distance, by its textbook definition (independent of the scorer's banded version). */
  function osa(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
    return d[a.length][b.length];
  }

  it('agrees with the textbook distance on word pairs, swaps counting as one edit', async () => {
    const { withinEdits } = await import('../indexer/text-index/scorer.ts');
    const words = ['rewrite', 'rewirte', 'rewrit', 'certificate', 'certifcate', 'configur', 'confgur', 'paket', 'pakte', 'de:paket', 'de:pakete', 'abc', 'acb', 'a', ''];
    for (const a of words) {
      for (const b of words) {
        for (const max of [0, 1, 2]) expect(withinEdits(a, b, max), `${a}/${b}/${max}`).toBe(osa(a, b) <= max);
      }
    }
  });
});
