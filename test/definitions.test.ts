import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitionName } from '../crawler/definitions.ts';
import { parseHtml } from '../crawler/html.ts';
import { FIELD_NAMES, type TextDocument } from '../indexer/text-index/document.ts';
import { decodePostings, encodePostings } from '../indexer/text-index/postings-file.ts';
import { buildPostings } from '../indexer/text-index/postings-builder.ts';
import { analyzeDocument } from '../indexer/text-index/segment-analysis.ts';
import { TextIndex } from '../indexer/text-index/text-index.ts';

const DOC = '/usr/share/doc';
const defs = (html: string) => (parseHtml(html, 'http://docs.test/page.html').content.definitions ?? []).map((d) => `${d.name}#${d.anchor}`);
const realDefs = (path: string) => defs(readFileSync(join(DOC, path), 'utf8'));

describe.skipIf(!existsSync(`${DOC}/sphinx-doc/html`) || !existsSync(`${DOC}/python-django-doc/html`))('definitions of real Sphinx pages', () => {
  it('takes the qualified names of Sphinx objects and modules, not section slugs', () => {
    const found = realDefs('sphinx-doc/html/extdev/appapi.html');
    expect(found).toContain('sphinx.application#module-sphinx.application');
    expect(found).toContain('sphinx.application.Sphinx.connect#sphinx.application.Sphinx.connect');
    expect(found.some((d) => /^(?:id\d|index-)/.test(d.split('#')[1]))).toBe(false);
    const config = realDefs('sphinx-doc/html/usage/configuration.html');
    expect(config).toContain('source_suffix#confval-source_suffix');
  });

  it("takes Django's settings and model field options, not its duplicate s- ids", () => {
    const settings = realDefs('python-django-doc/html/ref/settings.html');
    expect(settings).toContain('ADMINS#std-setting-ADMINS');
    expect(settings.filter((d) => d.includes('#s-'))).toEqual([]);
    expect(settings.some((d) => d.startsWith('admins#'))).toBe(false);
    expect(realDefs('python-django-doc/html/ref/models/fields.html')).toContain('django.db.models.Field.null#django.db.models.Field.null');
  });

  it('keeps an option of the same spelling for each program that has it', () => {
    const found = realDefs('python-django-doc/html/ref/django-admin.html');
    expect(found).toContain('--template TEMPLATE#cmdoption-startapp-template');
    expect(found).toContain('--template TEMPLATE#cmdoption-startproject-template');
  });
});

describe.skipIf(!existsSync(`${DOC}/rust-doc/html`) || !existsSync(`${DOC}/postgresql-doc-15/html`))('definitions of real rustdoc and DocBook pages', () => {
  it('takes the page item and its members from rustdoc, and leaves out layout ids and impl blocks', () => {
    const found = realDefs('rust-doc/html/std/vec/struct.Vec.html');
    // The page defines its item (no anchor: the page itself), and the item's members.
    expect(found[0]).toBe('std::vec::Vec#');
    expect(found).toContain('Vec::push#method.push');
    expect(found).toContain('Vec::with_capacity#method.with_capacity');
    expect(found.filter((d) => /mainThemeStyle|main-content|#impl|#examples|settings-menu/.test(d))).toEqual([]);
    expect(found.length).toBeGreaterThan(100);
  });

  it('takes DocBook function tables, environment variables, command pages and listed storage parameters', () => {
    // `<a id="id-1.5.8…" class="indexterm"></a> <code class="function">btrim</code> ( string text … )`
    const functions = realDefs('postgresql-doc-15/html/functions-string.html');
    expect(functions).toContain('btrim#id-1.5.8.10.7.2.2.3.1.1.1');
    expect(functions.map((d) => d.split('#')[0])).toEqual(expect.arrayContaining(['left', 'chr', 'concat_ws', 'string_to_array', 'regexp_replace']));
    // The `text || text` entry's index anchor is followed by a type, not a function: no definition of `text`.
    expect(functions.some((d) => d.startsWith('text#'))).toBe(false);
    expect(realDefs('postgresql-doc-15/html/functions-info.html').map((d) => d.split('#')[0])).toContain('pg_get_multixact_members');
    expect(realDefs('postgresql-doc-15/html/libpq-envars.html').map((d) => d.split('#')[0])).toEqual(expect.arrayContaining(['PGDATABASE', 'PGHOST', 'PGCONNECT_TIMEOUT']));
    expect(realDefs('postgresql-doc-15/html/sql-alterdomain.html')).toEqual(['ALTER DOMAIN#id-1.9.3.9.1']);
    expect(realDefs('postgresql-doc-15/html/sql-selectinto.html').map((d) => d.split('#')[0])).toContain('SELECT INTO');
    const createTable = realDefs('postgresql-doc-15/html/sql-createtable.html');
    expect(createTable).toContain('autovacuum_vacuum_threshold#RELOPTION-AUTOVACUUM-VACUUM-THRESHOLD');
    expect(createTable).toContain('toast.autovacuum_vacuum_threshold#RELOPTION-AUTOVACUUM-VACUUM-THRESHOLD');
    // A term that holds its index anchor after the name (`<dt>ssl_cipher() returns text <a class="indexterm">`).
    expect(realDefs('postgresql-doc-15/html/sslinfo.html')).toContain('ssl_cipher#id-1.11.7.51.6.2.3.1.2');
    expect(realDefs('postgresql-doc-15/html/intarray.html').map((d) => d.split('#')[0])).toEqual(expect.arrayContaining(['sort', 'sort_desc', 'uniq']));
    // Mentions in prose after an index anchor name nothing.
    expect(realDefs('postgresql-doc-15/html/creating-cluster.html').map((d) => d.split('#')[0])).not.toContain('PGDATA');
  });

  it('takes the item of rustdoc pages that name it without a path (primitives, keywords)', () => {
    const found = realDefs('rust-doc/html/std/primitive.i16.html');
    expect(found[0]).toBe('i16#');
    expect(found).toContain('i16::abs#method.abs');
    expect(realDefs('rust-doc/html/std/primitive.array.html')[0]).toBe('array#');
    expect(realDefs('rust-doc/html/std/keyword.fn.html')[0]).toBe('fn#');
  });

  it('names DocBook terms by their text when the id is not an identifier', () => {
    const found = realDefs('postgresql-doc-15/html/runtime-config-resource.html');
    expect(found).toContain('shared_buffers#GUC-SHARED-BUFFERS');
    expect(found).toContain('work_mem#GUC-WORK-MEM');
    expect(found.some((d) => /RUNTIME-CONFIG|#id-/.test(d))).toBe(false);
  });
});

/**
 * A class page in the shape the JDK's javadoc (17+) writes: navigation header, `<main>`, the
 * package in a sub-title, `<h1 title="Class …">`, summary tables of links, then member details
 * as `<section class="detail" id="name(parameter.Types)">` (constructors `<init>(…)`).
 */
function javadocClassPage(pkg: string, kind: string, name: string, fields: string[], methods: Array<[string, string[]]>): string {
  const signature = (method: string, params: string[]) => `${method}(${params.join(',')})`;
  const summaryRow = (method: string, params: string[]) => `<div class="col-second even-row-color method-summary-table"><code><a href="#${signature(method, params)}" class="member-name-link">${method}</a>(${params.map((p) => `<a href="../../${p.replace(/\./g, '/')}.html">${p.split('.').pop()}</a>`).join(', ')})</code></div><div class="col-last even-row-color"><div class="block">Does ${method}.</div></div>`;
  return `<!DOCTYPE HTML><html lang="en"><head><title>${name} (Java SE 17 &amp; JDK 17)</title></head><body class="class-declaration-page">
<div class="flex-box"><header role="banner" class="flex-header"><nav role="navigation"><div class="top-nav" id="navbar-top"><ul id="navbar-top-firstrow" class="nav-list" title="Navigation">
<li><a href="../module-summary.html">Module</a></li><li><a href="package-summary.html">Package</a></li><li class="nav-bar-cell1-rev">Class</li><li><a href="package-tree.html">Tree</a></li><li><a href="../../index-all.html">Index</a></li><li><a href="../../help-doc.html#class">Help</a></li></ul></div>
<div class="sub-nav"><ul class="sub-nav-list"><li>Summary:&nbsp;</li><li><a href="#field-summary">Field</a>&nbsp;|&nbsp;</li><li><a href="#method-summary">Method</a></li></ul></div></nav></header>
<div class="flex-content"><main role="main"><div class="header"><div class="sub-title"><span class="module-label-in-type">Module</span>&nbsp;<a href="../module-summary.html">java.base</a></div>
<div class="sub-title"><span class="package-label-in-type">Package</span>&nbsp;<a href="package-summary.html">${pkg}</a></div>
<h1 title="${kind} ${name}" class="title">${kind} ${name}</h1></div>
<section class="class-description" id="class-description"><div class="type-signature"><span class="modifiers">public final class </span><span class="element-name type-name-label">${name}</span></div>
<div class="block">The <code>${name}</code> class represents values of its kind. Every method of this class is described below with its parameters and the values it returns.</div></section>
<section class="summary"><ul class="summary-list"><li><section class="field-summary" id="field-summary"><h2>Field Summary</h2><div class="caption"><span>Fields</span></div><div class="summary-table three-column-summary">
${fields.map((f) => `<div class="col-second"><code><a href="#${f}" class="member-name-link">${f}</a></code></div><div class="col-last"><div class="block">The ${f} field.</div></div>`).join('\n')}</div></section></li>
<li><section class="method-summary" id="method-summary"><h2>Method Summary</h2><div class="summary-table three-column-summary">${methods.map(([m, p]) => summaryRow(m, p)).join('\n')}</div></section></li></ul></section>
<section class="details"><ul class="details-list"><li><section class="field-details" id="field-detail"><h2>Field Details</h2><ul class="member-list">
${fields.map((f) => `<li><section class="detail" id="${f}"><h3>${f}</h3><div class="member-signature"><span class="modifiers">public static final</span>&nbsp;<span class="return-type">int</span>&nbsp;<span class="element-name">${f}</span></div><div class="block">The value of ${f}, used by the methods of the class when they compare.</div></section></li>`).join('\n')}</ul></section></li>
<li><section class="constructor-details" id="constructor-detail"><h2>Constructor Details</h2><ul class="member-list"><li><section class="detail" id="&lt;init&gt;(java.lang.String)"><h3>${name}</h3><div class="member-signature"><span class="modifiers">public</span>&nbsp;<span class="element-name">${name}</span><wbr><span class="parameters">(String&nbsp;original)</span></div><div class="block">Makes a new one from another.</div></section></li></ul></section></li>
<li><section class="method-details" id="method-detail"><h2>Method Details</h2><ul class="member-list">
${methods.map(([m, p]) => `<li><section class="detail" id="${signature(m, p)}"><h3>${m}</h3><div class="member-signature"><span class="modifiers">public</span>&nbsp;<span class="return-type">int</span>&nbsp;<span class="element-name">${m}</span><wbr><span class="parameters">(${p.map((x, i) => `${x.split('.').pop()}&nbsp;arg${i}`).join(', ')})</span></div><div class="block">Returns what ${m} computes from its arguments, as described in the class description above.</div><dl class="notes"><dt>Parameters:</dt><dd><code>arg0</code> - the first argument</dd></dl></section></li>`).join('\n')}</ul></section></li></ul></section>
</main><footer role="contentinfo"><hr><p class="legal-copy"><small><a href="../../../legal/copyright.html">Copyright</a> © 1993, 2021, Oracle and/or its affiliates. All rights reserved.</small></p></footer></div></div></body></html>`;
}

describe('definitions of generated Javadoc class pages', () => {
  it('qualifies methods, overloads and fields by their class, and the page defines the class', () => {
    const html = javadocClassPage('java.lang', 'Class', 'String', ['CASE_INSENSITIVE_ORDER'], [
      ['charAt', ['int']],
      ['indexOf', ['java.lang.String']],
      ['indexOf', ['java.lang.String', 'int']],
      ['regionMatches', ['boolean', 'int', 'java.lang.String', 'int', 'int']],
    ]);
    expect(defs(html)).toEqual(['String#', 'String.CASE_INSENSITIVE_ORDER#CASE_INSENSITIVE_ORDER', 'String.charAt#charAt(int)', 'String.indexOf#indexOf(java.lang.String)', 'String.regionMatches#regionMatches(boolean,int,java.lang.String,int,int)']);
    const nested = defs(javadocClassPage('java.util', 'Interface', 'Map.Entry', [], [['getKey', []]]));
    expect(nested).toEqual(['Map.Entry#', 'Map.Entry.getKey#getKey()']);
  });

  it('finds a method by its qualified name, first, with its anchor', async () => {
    const docs = [
      javadocClassPage('java.lang', 'Class', 'String', ['CASE_INSENSITIVE_ORDER'], [['charAt', ['int']], ['substring', ['int', 'int']]]),
      javadocClassPage('java.lang', 'Class', 'StringBuilder', [], [['charAt', ['int']], ['append', ['java.lang.String']], ['substring', ['int']]]),
      javadocClassPage('java.lang', 'Interface', 'CharSequence', [], [['charAt', ['int']], ['length', []]]),
    ].map((html, i) => {
      const parsed = parseHtml(html, `http://docs.test/api/${i}.html`);
      return { id: i + 1, url: `http://docs.test/api/${i}.html`, host: 'docs.test', title: parsed.title, headings: parsed.content.headings, text: parsed.content.text, lang: 'en', sections: parsed.content.sections, definitions: parsed.content.definitions } satisfies TextDocument;
    });
    const dir = await mkdtemp(join(tmpdir(), 'lse-javadoc-'));
    const index = await TextIndex.open(dir, { workers: 0 });
    try {
      await index.rebuild(docs);
      for (const [query, id, anchor] of [['StringBuilder.charAt', 2, 'charAt(int)'], ['CharSequence.charAt', 3, 'charAt(int)'], ['String.substring', 1, 'substring(int,int)']] as const) {
        const hits = index.search(query).hits;
        expect(hits[0]?.id, query).toBe(id);
        expect((await index.passages(hits.slice(0, 1))).get(id)!.sectionAnchor, query).toBe(anchor);
      }
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('definitions in hand-written generator markup', () => {
  it('reads Javadoc, Doxygen, MkDocs and Apache anchors', () => {
    const javadoc = defs(`<main><h1>Class String</h1><section class="detail" id="charAt(int)"><h3>charAt</h3><p>Returns the char value.</p></section>
      <a id="substring-int-int-"><!-- --></a><h4>substring</h4><p>Returns a substring.</p></main>`);
    expect(javadoc).toEqual(['String#', 'String.charAt#charAt(int)', 'String.substring#substring-int-int-']);
    const unqualified = defs(`<main><h1>String handling</h1><section class="detail" id="charAt(int)"><h3>charAt</h3><p>Returns the char value.</p></section></main>`);
    expect(unqualified).toEqual(['charAt#charAt(int)']);
    const doxygen = defs(`<div class="contents"><a id="a8f5f0ee8a0c4d1b47fd7e8a5d7a77889"></a><h2 class="memtitle"><span class="permalink"><a href="#a8f5f0ee8a0c4d1b47fd7e8a5d7a77889">◆ </a></span>push_back()</h2><p>Appends an element.</p></div>`);
    expect(doxygen).toEqual(['push_back#a8f5f0ee8a0c4d1b47fd7e8a5d7a77889']);
    const mkdocs = defs(`<article class="md-content__inner"><h2 id="installation">Installation</h2><p>pip install.</p>
      <h2 id="mkdocs.config.base.Config" class="doc doc-heading"><code>Config</code></h2><p>The config.</p></article>`);
    expect(mkdocs).toEqual(['mkdocs.config.base.Config#mkdocs.config.base.Config']);
    const apache = defs(`<div id="page-content"><div class="directive-section"><h2><a name="ProxyPass" id="ProxyPass">ProxyPass</a> <a name="proxypass" id="proxypass">Directive</a></h2><p>Maps remote servers into the local server URL-space.</p></div></div>`);
    expect(apache).toEqual(['ProxyPass#ProxyPass']);
  });

  it('leaves out generated and layout ids, numbers, slugs and anchors in the site chrome', () => {
    const found = defs(`<nav><a id="nav.home" href="/">Home</a></nav><div class="sidebar"><a href="/a">a</a><a href="/b">b</a><span id="sidebar.item_one">x</span></div>
      <main><div id="toc">Contents</div><section id="section-3"><h2 id="getting-started">Getting started</h2><p id="12">Text.</p><p id="id3">More text.</p>
      <dt id="real.defined_name">defined_name()</dt><dd>What it does.</dd></section></main>`);
    expect(found).toEqual(['real.defined_name#real.defined_name']);
    for (const id of ['section-3', 'toc', '12', 'id3', 'footnote-2', 'a3f9c0d2e1b4a5c6d7e8f9a0b1c2d3e4', 'getting-started', 'with-push_str-and-push']) expect(definitionName('h2', id, ''), id).toBeNull();
  });

  it('keeps at most 2,000 definitions of a page', () => {
    const many = Array.from({ length: 3_000 }, (_, i) => `<dt id="mod.fn_${i}">fn_${i}()</dt><dd>x</dd>`).join('');
    expect(defs(`<main><dl>${many}</dl></main>`)).toHaveLength(2_000);
  });
});

// Pages a docs site might hold: each defines identifiers; others mention them in passing.
function page(id: number, path: string, title: string, body: string): TextDocument {
  const url = `http://docs.test/${path}`;
  const parsed = parseHtml(`<html><head><title>${title}</title></head><body><main>${body}</main></body></html>`, url);
  return { id, url, host: 'docs.test', title: parsed.title, headings: parsed.content.headings, text: parsed.content.text, lang: 'en', sections: parsed.content.sections, definitions: parsed.content.definitions };
}
const filler = (n: number) => Array.from({ length: n }, (_, i) => `Sentence ${i} of ordinary prose about the library.`).join(' ');
const PAGES: TextDocument[] = [
  page(1, 'library/json.html', 'json — JSON encoder and decoder', `<h1>json — JSON encoder and decoder</h1><p>${filler(20)}</p>
    <dl class="py function"><dt class="sig sig-object py" id="json.dump">dump(obj, fp)</dt><dd>Serialize obj to a file.</dd></dl>
    <p>${filler(30)}</p><dl class="py function"><dt class="sig sig-object py" id="json.dumps">dumps(obj)</dt><dd>Serialize obj to a str.</dd></dl><p>${filler(10)}</p>`),
  page(2, 'tutorial/serializing.html', 'Serializing data', `<h1>Serializing data</h1><p>Call json.dumps to get a string; json.dumps takes indent. Remember json.dumps and
    os.path.join and ProxyPass and String.prototype.at, ConfigParser and remove_section. ${filler(5)}</p>`),
  page(3, 'library/os.path.html', 'os.path — Common pathname manipulations', `<h1>os.path</h1><p>${filler(20)}</p>
    <dl><dt id="os.path.join">join(path, *paths)</dt><dd>Join one or more path segments.</dd><dt id="os.path.split">split(path)</dt><dd>Split.</dd></dl>`),
  page(4, 'mod/mod_proxy.html', 'mod_proxy - Apache-style HTTP Server', `<h1>Apache Module mod_proxy</h1><p>${filler(20)}</p>
    <div class="directive-section"><h2><a name="ProxyPass" id="ProxyPass">ProxyPass</a> <a name="proxypass" id="proxypass">Directive</a></h2><p>Maps remote servers into the local server URL-space.</p></div>`),
  page(5, 'js/string.html', 'String', `<h1>String</h1><p>${filler(20)}</p><dl><dt id="String.prototype.at"><code>at(index)</code></dt><dd>Returns the character at index.</dd></dl>`),
  page(6, 'library/configparser.html', 'configparser — Configuration file parser', `<h1>configparser</h1><p>${filler(40)}</p>
    <dl><dt id="configparser.ConfigParser.has_section">has_section(section)</dt><dd>Is the section present.</dd>
    <dt id="configparser.ConfigParser.remove_section">remove_section(section)</dt><dd>Remove the given section.</dd></dl><p>${filler(10)}</p>`),
];

describe('the definitions field in search', () => {
  let dir: string;
  let index: TextIndex;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lse-definitions-'));
    index = await TextIndex.open(dir, { workers: 0 });
    await index.rebuild(PAGES);
  });
  afterAll(async () => {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['json.dumps', 1, 'json.dumps'],
    ['os.path.join', 3, 'os.path.join'],
    ['ProxyPass', 4, 'ProxyPass'],
    ['String.prototype.at', 5, 'String.prototype.at'],
    ['ConfigParser remove_section', 6, 'configparser.ConfigParser.remove_section'],
    ['ConfigParser.remove_section', 6, 'configparser.ConfigParser.remove_section'],
  ])('%s finds its definition first, and links to its anchor', async (query, id, anchor) => {
    const hits = index.search(query).hits;
    expect(hits[0]?.id, JSON.stringify(hits)).toBe(id);
    const passage = (await index.passages(hits.slice(0, 1))).get(id)!;
    expect(passage.sectionAnchor).toBe(anchor);
  });

  it('shows the passage of the definition, not of the first mention', async () => {
    const passage = (await index.passages(index.search('json.dumps').hits.slice(0, 1))).get(1)!;
    expect(passage.snippet).toContain('Serialize obj to a str');
    expect(passage.sectionHeading).toBe('json.dumps');
  });

  it('keeps definitions through a merge (stored, then indexed again)', async () => {
    await index.update({ upsert: [{ ...PAGES[1], id: 7, url: 'http://docs.test/other.html' }] });
    await index.merge({ force: true });
    expect(index.search('os.path.join').hits[0].id).toBe(3);
  });
});

it('opens postings written before the definitions field, with that field empty', () => {
  const docs = PAGES.slice(0, 2);
  const segment = buildPostings('seg-old', docs, docs.map(analyzeDocument));
  const old = { ...segment, fields: segment.fields.slice(0, FIELD_NAMES.indexOf('definitions')) };
  const { postings } = decodePostings(encodePostings(old, [0, 1, 2]), 'old');
  expect(postings.fields).toHaveLength(FIELD_NAMES.length);
  expect(postings.fields[FIELD_NAMES.indexOf('definitions')].lengths).toEqual(new Uint32Array(2));
});
