/**
 * A query whose words, after analysis, are a page's title or one of its headings ranks that page
 * first (indexer/text-index/exact-name.ts, analysed names): on real PostgreSQL pages, where a
 * concept's chapter or section is titled by the query in other inflections or with stop words.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHtml } from '../crawler/html.ts';
import type { TextDocument } from '../indexer/text-index/document.ts';
import { analyzedNameTerm, documentExactNames, queryAnalyzedNames, titleWordTerms } from '../indexer/text-index/exact-name.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';

const ROOT = '/usr/share/doc/postgresql-doc-15/html';

describe('analysed-name terms', () => {
  it('analyse a title, heading or query of plain words, and nothing else', () => {
    expect(analyzedNameTerm('Primary Keys', 'en')).toBe('>primari key');
    expect(analyzedNameTerm('primary key', 'en')).toBe('>primari key');
    expect(analyzedNameTerm('The Information Schema', 'en')).toBe(analyzedNameTerm('information schema', 'en'));
    for (const text of ['pg_dump', 'postgresql.conf', '--settings', 'If', '']) expect(analyzedNameTerm(text, 'en'), text).toBeNull();
    // Operators make the query more than a name.
    expect(queryAnalyzedNames('+primary key', ['en'])).toEqual([]);
    expect(queryAnalyzedNames('primary keys', ['en', 'und'])).toEqual(['>primari key', '>primary keys']);
  });

  it("take a title's plain words, not an identifier's parts", () => {
    // A camel-case word gives its parts too, as a query's word does.
    expect(titleWordTerms('19.6. Upgrading a PostgreSQL Cluster', 'en')).toEqual(['+upgrad', '+postgresql', '+postgr', '+postgre', '+sql', '+cluster']);
    expect(titleWordTerms('pg_upgrade', 'en')).toEqual([]);
    expect(titleWordTerms('26.3. Continuous Archiving and Point-in-Time Recovery (PITR)', 'en')).toContain('+pitr');
  });

  it('are never what a wildcard or a typo expands to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lse-analyzed-name-'));
    const index = await TextIndex.open(dir, { workers: 0 });
    try {
      await index.rebuild([{ id: 1, url: 'http://docs.test/a.html', host: 'docs.test', title: 'Primary Keys', headings: ['Primary Keys', 'Foreign Keys'], text: 'constraints', lang: 'en' }]);
      for (const query of ['*i*', 'prim*', 'primari~1', 'foreign~2']) {
        const terms = index.search(query, { mode: 'any' }).terms;
        expect(terms.length, query).toBeGreaterThan(0);
        expect(terms.filter((term) => /^[+<=>]/.test(term)), query).toEqual([]);
      }
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('give a document its title without the section number and each heading', () => {
    const doc: TextDocument = { id: 1, url: 'http://docs.test/ddl.html', host: 'docs.test', title: '5.4. Constraints', headings: ['5.4. Constraints', '5.4.4. Primary Keys', 'pg_dump'], text: 'x', lang: 'en' };
    const names = documentExactNames(doc);
    expect(names.title).toEqual(['=constraints', '>constraint', '+constraint']);
    expect(names.headings).toEqual(['>constraint', '>primari key']);
  });
});

function page(id: number, path: string): TextDocument {
  const url = `http://docs.test/${path}`;
  const parsed = parseHtml(readFileSync(join(ROOT, path), 'utf8'), url);
  return { id, url, host: 'docs.test', title: parsed.title, headings: parsed.content.headings, text: parsed.content.text, lang: 'en', sections: parsed.content.sections, definitions: parsed.content.definitions };
}

describe.skipIf(!existsSync(ROOT))('a concept titled in other words on real PostgreSQL pages', () => {
  let dir: string;
  let index: TextIndex;
  // The information schema's chapter and views, the SQL syntax and function chapters, the query
  // chapters, the rule system, data modification, SPI, access methods, the history appendix.
  const paths = readdirSync(ROOT)
    .filter((file) => /^(?:infoschema-|information-schema|sql-|typeconv-|functions-|queries|tutorial-|protocol-|history|datetime-|tableam|indexam|dml-|spi-|rules|upgrading|pgupgrade|ddl-|catalog-pg-partitioned|logical-replication-row-filter)/.test(file) && file.endsWith('.html'))
    .sort();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lse-analyzed-name-'));
    index = await TextIndex.open(dir, { workers: 0 });
    await index.rebuild(paths.map((path, i) => page(i + 1, path)));
  }, 120_000);
  afterAll(async () => {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  });
  const first = (query: string) => paths[index.search(query).hits[0].id - 1];

  it.each([
    // "Chapter 37. The Information Schema", above the view information_schema_catalog_name.
    ['information schema', 'information-schema.html'],
    // Section "4.2.5. Operator Invocations", above the chapter on operator type conversion.
    ['operator invocation', 'sql-expressions.html'],
  ])('%s gives %s first', (query, expected) => {
    expect(first(query)).toBe(expected);
  });

  it.each([
    // "A Brief History of PostgreSQL" above "History of Units".
    ['history of PostgreSQL', 'history.html'],
    // "Table Access Method Interface Definition" above CREATE ACCESS METHOD.
    ['Table Access Method', 'tableam.html'],
    // "Returning Data from Modified Rows" above SPI_execute, which mentions RETURNING most.
    ['RETURNING', 'dml-returning.html'],
    // "Rules on INSERT, UPDATE, and DELETE" above CREATE RULE.
    ['rule for DELETE', 'rules-update.html'],
    // "19.6. Upgrading a PostgreSQL Cluster" above pg_upgrade, whose name only contains the word.
    ['upgrading', 'upgrading.html'],
    // "5.11. Table Partitioning" above the catalog pg_partitioned_table.
    ['partitioned table', 'ddl-partitioning.html'],
  ])('%s gives %s first: its title holds every word of the query', (query, expected) => {
    expect(first(query)).toBe(expected);
  });
});
