import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docbookIndexEntries, sphinxIndexEntries } from '../bench/relevance-judged.ts';

const BOOKINDEX = '/usr/share/doc/postgresql-doc-15/html/bookindex.html';

describe('the DocBook index judge', () => {
  it('types a configuration parameter by its name, whether the index writes it on one line or as a sub-entry', () => {
    const html = `<div class="index"><div class="indexdiv"><h3>A</h3><dl>
      <dt id="ientry-1">autovacuum_analyze_threshold configuration parameter, <a class="indexterm" href="runtime-config-autovacuum.html">Automatic Vacuuming</a></dt>
      <dt id="ientry-2">autovacuum_multixact_freeze_max_age</dt><dd><dl>
        <dt>configuration parameter, <a class="indexterm" href="runtime-config-autovacuum.html">Automatic Vacuuming</a></dt>
        <dt>storage parameter, <a class="indexterm" href="sql-createtable.html#SQL-CREATETABLE-STORAGE-PARAMETERS">Storage Parameters</a></dt></dl></dd>
      <dt id="ientry-3">CASE</dt><dd><dl><dt>determination of result type, <a class="indexterm" href="typeconv-union-case.html">UNION, CASE, and Related Constructs</a></dt></dl></dd>
    </dl></div></div>`;
    expect(docbookIndexEntries(html).map((entry) => `${entry.query} → ${entry.hrefs.join(' ')}`)).toEqual([
      'autovacuum_analyze_threshold → runtime-config-autovacuum.html',
      'autovacuum_multixact_freeze_max_age → runtime-config-autovacuum.html',
      'autovacuum_multixact_freeze_max_age storage parameter → sql-createtable.html#SQL-CREATETABLE-STORAGE-PARAMETERS',
      'CASE determination of result type → typeconv-union-case.html',
    ]);
  });

  it.skipIf(!existsSync(BOOKINDEX))('leaves no query ending in "configuration parameter" in the PostgreSQL book index', () => {
    const queries = docbookIndexEntries(readFileSync(BOOKINDEX, 'utf8')).map((entry) => entry.query);
    expect(queries.length).toBeGreaterThan(3000);
    expect(queries.filter((query) => / configuration parameter$/.test(query))).toEqual([]);
  });
});

describe('the Sphinx index judge', () => {
  it("reads a name's further definitions, written [1], [2], as definitions of the name, not as part of it", () => {
    const html = `<table class="genindextable"><tr><td><ul>
      <li><a href="ref/forms/fields.html#django.forms.Field.error_messages">error_messages (Field attribute)</a>, <a href="ref/models/fields.html#django.db.models.Field.error_messages">[1]</a></li>
      <li><a href="ref/a.html#a">choices</a>, <a href="ref/b.html#b">[1]</a></li>
    </ul></td></tr></table>`;
    expect(sphinxIndexEntries(html).map((entry) => `${entry.query} → ${entry.hrefs.join(' ')}`)).toEqual([
      'django.forms.Field.error_messages → ref/forms/fields.html#django.forms.Field.error_messages',
      'django.db.models.Field.error_messages → ref/models/fields.html#django.db.models.Field.error_messages',
      'choices → ref/a.html#a ref/b.html#b',
    ]);
  });
});
