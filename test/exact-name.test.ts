/**
 * An exact match of the whole query with a name a page defines, or with its title, ranks first
 * (indexer/text-index/exact-name.ts): on real Sphinx and Django pages, and on a generated
 * Apache-style manual with copies and translations, crawled and searched with default settings.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankingSettingsSchema } from '../config/schema.ts';
import { parseHtml } from '../crawler/html.ts';
import { loadSearchData } from '../indexer/ranking/search-data.ts';
import { loadRankSnapshot, SearchEngine } from '../indexer/ranking/search-engine.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { commandOptions, documentExactNames, queryExactName, titleName } from '../indexer/text-index/exact-name.ts';
import { setAsideCode } from '../indexer/text-index/query-text.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';
import { serveSite, type ServedSite } from './helpers/copied-translations-site.ts';
import { crawlAndServe, type CrawledSite } from './helpers/crawled-site.ts';
import { directiveManualSite } from './helpers/directive-manual-site.ts';
import { tempIndexes } from './helpers/temp-indexes.ts';

const DOC = '/usr/share/doc';

describe('exact-name terms', () => {
  const doc = (title: string, names: string[]): TextDocument => ({ id: 1, url: 'http://docs.test/a.html', host: 'docs.test', title, headings: [], text: 'x', definitions: names.map((name) => ({ name, start: 0 })) });

  it('makes a whole name of each definition and of the title, and last parts of qualified names', () => {
    const names = documentExactNames(doc('json — JSON encoder and decoder — Python 3.12 documentation', ['json', 'json.dumps', 'sphinx.errors.VersionRequirementError']));
    expect(names.title).toEqual(['=json', '>json', '+json', '+encod', '+decod', '+python', '+document']);
    expect(names.definitions).toEqual(['=json', '=json.dumps', '=sphinx.errors.versionrequirementerror', '<dumps', '<errors.versionrequirementerror', '<versionrequirementerror']);
    // A word inside a name is not the name.
    expect(names.definitions.some((term) => term.endsWith('version'))).toBe(false);
  });

  it("names a Sphinx command-line option with its program, as the docs' index does", () => {
    expect(commandOptions('--tag TAGS, -t TAGS', 'cmdoption-check-tag')).toEqual([{ program: 'check', option: '--tag' }, { program: 'check', option: '-t' }]);
    expect(commandOptions('-D setting=value', 'cmdoption-sphinx-build-D')).toEqual([{ program: 'sphinx-build', option: '-D' }]);
    expect(commandOptions('--settings SETTINGS', 'cmdoption-settings')).toEqual([{ program: '', option: '--settings' }]);
    expect(commandOptions('-D setting=value', 'std-setting-D')).toEqual([]);
    expect(queryExactName('makemigrations --check')).toBe('=makemigrations --check');
  });

  it('reads a title before the site suffix, and a query typed without operators as one name', () => {
    expect(titleName('mod_proxy - Apache HTTP Server Version 2.4')).toBe('mod_proxy');
    expect(titleName('Configuration — Sphinx documentation')).toBe('Configuration');
    expect(titleName('73.4. Visibility Map')).toBe('Visibility Map');
    expect(titleName('F.36. pg_visibility')).toBe('pg_visibility');
    expect(titleName('Chapter 37. The Information Schema')).toBe('The Information Schema');
    expect(titleName('Appendix C. SQL Key Words')).toBe('SQL Key Words');
    expect(titleName('2to3 — Automated Python 2 to 3 code translation')).toBe('2to3');
    expect(titleName('ALTER DOMAIN')).toBe('ALTER DOMAIN');
    expect(titleName('Part of the problem')).toBe('Part of the problem');
    expect(titleName('Part II. The SQL Language')).toBe('The SQL Language');
    expect(queryExactName('  Format   File ')).toBe('=format file');
    expect(queryExactName('sphinx.errors.ConfigError')).toBe('=sphinx.errors.configerror');
    expect(queryExactName('lists:keyfind')).toBe('=lists:keyfind');
    for (const query of ['+json', 'json -dumps', 'title:json', 'Title:json', 'x definitions:json', 'json~1', 'js*', '"json dumps"']) expect(queryExactName(query), query).toBeUndefined();
  });
});

/** A real page of an installed documentation package, as the crawler reads it. */
function realPage(id: number, root: string, path: string): TextDocument {
  const url = `http://docs.test/${path}`;
  const parsed = parseHtml(readFileSync(join(DOC, root, path), 'utf8'), url);
  return { id, url, host: 'docs.test', title: parsed.title, headings: parsed.content.headings, text: parsed.content.text, lang: 'en', sections: parsed.content.sections, definitions: parsed.content.definitions };
}

/** Every page of Sphinx's manual (its viewcode source listings too), and Django's model, view and GIS reference with their listings. */
const htmlUnder = (root: string, dirs: readonly string[]) => dirs.flatMap((dir) => (existsSync(join(DOC, root, dir)) ? readdirSync(join(DOC, root, dir), { recursive: true, encoding: 'utf8' }) : []).filter((file) => file.endsWith('.html')).map((file) => [root, join(dir, file)])).sort();
const SPHINX = 'sphinx-doc/html';
const DJANGO = 'python-django-doc/html';

describe.skipIf(!existsSync(`${DOC}/${SPHINX}`) || !existsSync(`${DOC}/${DJANGO}`))('exact names on real Sphinx and Django pages', () => {
  let dir: string;
  let index: TextIndex;
  const paths = [...htmlUnder(SPHINX, ['.']), ...htmlUnder(DJANGO, ['ref/models', 'ref/class-based-views', 'ref/contrib/gis', '_modules/django/views/generic', '_modules/django/contrib/gis/gdal', '_modules/django/http'])];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lse-exact-name-'));
    index = await TextIndex.open(dir, { workers: 0 });
    await index.rebuild(paths.map(([root, path], i) => realPage(i + 1, root, path)));
  }, 120_000);
  afterAll(async () => {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  });
  const first = (query: string) => paths[index.search(query).hits[0].id - 1][1].replace(/^\.\//, '');

  it.each([
    // The page that defines the name, not the source listing that uses it most.
    ['texinfo_no_detailmenu', 'usage/configuration.html'],
    ['sphinx.errors.ConfigError', 'extdev/appapi.html'],
    // A definition above a page titled by the name (the module's source listing).
    ['sphinx.builders.epub3', 'usage/builders/index.html'],
    // A whole name (the `day` lookup) above the last part of a qualified one (`DayMixin.day`).
    ['day', 'ref/models/querysets.html'],
    ['intersects', 'ref/contrib/gis/geoquerysets.html'],
  ])('%s gives %s first', (query, expected) => {
    expect(first(query)).toBe(expected);
  });

  it('reads a command-line option as a word to find, not one to exclude', () => {
    expect(setAsideCode('sphinx-build -D').text).toBe('sphinx-build D');
    expect(setAsideCode('makemigrations --check').text).toBe('makemigrations check');
    expect(setAsideCode('json -dumps').text).toBe('json -dumps');
    expect(first('sphinx-build -D')).toBe('man/sphinx-build.html');
    expect(first('sphinx-apidoc -H')).toBe('man/sphinx-apidoc.html');
    expect(first('sphinx-build -M')).toBe('man/sphinx-build.html');
  });

  it('keeps the order by text score for queries with operators', () => {
    const plain = index.search('texinfo_no_detailmenu').hits;
    const required = index.search('+texinfo_no_detailmenu').hits;
    expect(required.map((hit) => hit.id).sort()).toEqual(plain.map((hit) => hit.id).sort());
    expect(required[0].score).toBeLessThan(plain[0].score);
  });
});

describe('a directive query on an Apache-style manual with copies and translations, default settings', () => {
  const HOST = 'manual.directives.test';
  let served: ServedSite;
  let crawled: CrawledSite;
  let engine: SearchEngine;
  beforeAll(async () => {
    served = await serveSite(directiveManualSite());
    crawled = await crawlAndServe({ host: HOST, served: served.url, seeds: [`http://${HOST}/index.html`] });
    engine = new SearchEngine(crawled.index, await loadRankSnapshot(crawled.store), rankingSettingsSchema.parse({}));
    await loadSearchData(engine, crawled.store);
  }, 180_000);
  afterAll(async () => {
    await crawled?.close();
    await served?.close();
  });
  const firstPath = async (q: string, rank: 'blend' | 'text') => new URL((await engine.search({ q, page: 1, size: 10, rank, explain: false })).hits[0].url).pathname;

  it.each(['ProxyPass', 'ProxyPassReverse', 'RewriteRule', 'Alias', 'ServerName', 'Options', 'If'])('%s gives the English module page first, blended and by text alone', async (directive) => {
    const module = { ProxyPass: 'mod_proxy', ProxyPassReverse: 'mod_proxy', RewriteRule: 'mod_rewrite', Alias: 'mod_alias', ServerName: 'core', Options: 'core', If: 'core' }[directive];
    expect(await firstPath(directive, 'blend')).toBe(`/en/mod/${module}.html`);
    expect(await firstPath(directive, 'text')).toBe(`/en/mod/${module}.html`);
  });

  it('gives a module its own page first by its title', async () => {
    expect(await firstPath('mod_rewrite', 'blend')).toBe('/en/mod/mod_rewrite.html');
  });
});

describe('a short module name that stems to another word', () => {
  const { tempDir, openIndex } = tempIndexes('lse-exact-short-');
  it('gives the page titled by the name first, above pages whose words stem alike', async () => {
    const index = await openIndex(await tempDir());
    const page = (id: number, title: string, text: string): TextDocument => ({ id, url: `http://otp.test/${id}.html`, host: 'otp.test', title, headings: [], text });
    // `ets` stems to `et`: by words alone the Event Tracer pages, full of `et`, come first.
    await index.rebuild([
      page(1, 'ets — Erlang term storage', 'Built-in term storage. Tables of tuples, with constant access time. '.repeat(20)),
      page(2, 'et — Event Tracer', 'The et application: et collects events, et viewer, et selector, et filters. '.repeat(20)),
      page(3, 'et_collector', 'Collect trace events with et and hand them to et viewer; et tables. '.repeat(20)),
      page(4, 'mnesia_registry', 'Dump mnesia tables to mnesia_registry. mnesia mnesia mnesia. '.repeat(20)),
      page(5, 'mnesia — A distributed telecommunications DBMS', 'Tables replicated across nodes. '.repeat(20)),
    ]);
    expect(index.search('ets').hits[0].id).toBe(1);
    expect(index.search('mnesia').hits[0].id).toBe(5);
  });
});
