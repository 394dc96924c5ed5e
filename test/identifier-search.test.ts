/**
 * Identifier queries on a real text index: `module:function`, `a::b`, `name/arity`,
 * `Class#method`, dotted names and URLs are found whole and by their parts; a code-like word is
 * not stemmed away from itself (`ets` ahead of `et`); a query of stop words searches them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeText } from '../indexer/text-index/analysis.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';

const page = (id: number, title: string, text: string, url = `https://docs.example/${id}.html`): TextDocument => ({ id, url, host: 'docs.example', title, headings: [], text, lang: 'en' });

const PAGES: TextDocument[] = [
  page(1, 'ets', 'This module is an interface to the built-in term storage. Use ets:insert/2 to store objects and ets:lookup/2 to read them back.'),
  page(2, 'et', 'The Event Tracer et collects trace events. Call et:trace_me/4 to report an event; et shows it in the viewer. et and et again.'),
  page(3, 'lists', 'keyfind(Key, N, TupleList) searches the list of tuples TupleList for a tuple whose Nth element compares equal to Key.'),
  page(4, 'decimal', 'getcontext() returns the current context for the active thread. The context holds the precision.'),
  page(5, 'If', 'Contains directives that apply only when a condition is satisfied by a request at runtime.'),
  page(6, 'Containers', 'A sequence container std::vector<T> stores elements contiguously; std::list does not.'),
  page(7, 'gen_server', 'gen_server:call/3 makes a synchronous call to the server and waits for the reply.'),
  page(8, 'Date', 'Date#parse reads a string and returns the number of milliseconds since the epoch.'),
  page(9, 'Storage terms', 'Terms are stored here and there, with a term in every storage.'),
  page(10, 'Calls', 'Servers answer calls; a call waits for a server. General servers are generic.'),
];

let dir: string;
let index: TextIndex;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lse-identifiers-'));
  index = await TextIndex.open(dir, { workers: 0, autoMerge: false });
  await index.rebuild(PAGES);
});
afterAll(async () => {
  await index?.close();
  await rm(dir, { recursive: true, force: true });
});

const ids = (query: string) => index.search(query).hits.map((hit) => hit.id);

describe('identifier analysis', () => {
  it('indexes identifiers joined by :, ::, / and # whole, by compound segment, and by parts as written', () => {
    const terms = (text: string) => analyzeText(text, 'en').map((token) => token.term);
    expect(terms('gen_server:call/3')).toEqual(['gen_server:call/3', 'gen_server', 'gen', 'server', 'call', '3']);
    expect(terms('ets:insert')).toEqual(['ets:insert', 'et', 'ets', 'insert']);
    expect(terms('std::vector')).toEqual(['std::vector', 'std', 'vector']);
    expect(terms('Date#parse')).toEqual(['date#parse', 'date', 'pars', 'parse']);
    // A plain word keeps its one term; a colon before a space is not a joiner.
    expect(terms('note: storage')).toEqual(['note', 'storag']);
  });
});

describe('identifier queries', () => {
  it('finds module:function, a::b, name/arity and Class#method, whole matches first', () => {
    expect(ids('lists:keyfind')[0]).toBe(3);
    expect(ids('ets:insert')[0]).toBe(1);
    expect(ids('std::vector')).toEqual([6]);
    expect(ids('gen_server:call/3')[0]).toBe(7);
    expect(ids('Date#parse')).toEqual([8]);
    // A segment of a longer identifier finds it.
    expect(ids('gen_server')[0]).toBe(7);
  });

  it('finds a dotted name by its parts when the page never writes it whole', () => {
    expect(ids('decimal.getcontext')).toEqual([4]);
  });

  it('finds a pasted URL of a page', () => {
    expect(ids('https://docs.example/4.html')[0]).toBe(4);
  });

  it('ranks a code-like word above the word its stem shares', () => {
    // Without prefixes (which find `ets:insert/2` too): the part `ets` is indexed as written.
    for (const hits of [ids('ets'), index.search('ets', { tolerance: false }).hits.map((hit) => hit.id)]) {
      expect(hits.indexOf(1)).toBeGreaterThanOrEqual(0);
      expect(hits.indexOf(1)).toBeLessThan(hits.indexOf(2));
    }
  });

  it('searches a query of stop words only', () => {
    expect(ids('If')).toEqual([5]);
    expect(ids('if')).toEqual([5]);
  });

  it('reads an unknown word: as text', () => {
    expect(ids('storage: terms')).toEqual(expect.arrayContaining([9]));
    expect(index.search('storage: terms').notices).toEqual([]);
  });

  it('completes an identifier typed in part', () => {
    expect(ids('ets:ins')[0]).toBe(1);
    expect(ids('gen_serv')[0]).toBe(7);
  });
});
