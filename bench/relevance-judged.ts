/**
 * Judged known-item queries for the relevance benchmark, read from the indexes that documentation
 * ships with (nobody here wrote them): an index entry is a query as a user would type it, judged
 * by the pages it points to (fragments dropped). Parsers for Sphinx's `genindex.html`, DocBook's
 * `bookindex.html` and rustdoc's `all.html`; a seeded sample keeps the sets the same run to run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import * as cheerio from 'cheerio';
import type { AnyNode } from 'domhandler';
import { seededRandom } from '../indexer/seeded-random.ts';

export interface JudgedQuery {
  query: string;
  /** Site paths of the pages that answer it (`/usage/configuration.html`), without fragments. */
  relevant: string[];
}

/** A query made from an entry, with the paths (relative to the index page) it links to. */
interface Entry {
  query: string;
  hrefs: string[];
}

/** Entries pointing at more pages than this are topics, not known items: left out. */
const MAX_RELEVANT_PAGES = 3;

/** `foo() (in module bar)` → `foo`; `inet (data type)` → `inet`. */
export function bareTerm(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s*\([^()]*\)\s*$/, '')
    .replace(/\(\)$/, '')
    .trim();
}

/**
 * The name a user types for a Sphinx entry: the qualified name its anchor carries when the
 * anchor is a dotted identifier ending in the entry's name (`sphinx.application.Sphinx.add_js_file`),
 * else the entry's bare term.
 */
export function sphinxQuery(text: string, href: string): string {
  const bare = bareTerm(text);
  const fragment = decodeURIComponent(href.split('#')[1] ?? '');
  if (/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+$/.test(fragment) && fragment.endsWith(`.${bare}`)) return fragment;
  return bare;
}

function ownText($: cheerio.CheerioAPI, element: AnyNode): string {
  return $(element)
    .contents()
    // Sphinx writes a name's further definitions as links `[1]`, `[2]` after it: not part of the name.
    .filter((_, node) => node.type === 'text' || (node.type === 'tag' && node.name === 'a' && !/^\[\d+\]$/.test($(node).text().trim())))
    .text()
    .replace(/\s+/g, ' ')
    .replace(/[\s,]+$/, '')
    .trim();
}

/** Sphinx `genindex.html`: each top-level item is a term; `X command line option` sub-items give `X term`. */
export function sphinxIndexEntries(html: string): Entry[] {
  const $ = cheerio.load(html);
  const entries: Entry[] = [];
  $('table.genindextable td > ul > li').each((_, li) => {
    const own = $(li).children('a[href]');
    const text = ownText($, li);
    if (!text) return;
    const subs = $(li).children('ul').children('li');
    const commandOptions = subs.toArray().filter((sub) => / command line option$/.test($(sub).text().trim()));
    if (commandOptions.length > 0) {
      for (const sub of commandOptions) {
        const href = $(sub).find('a[href]').attr('href');
        const command = $(sub).text().trim().replace(/ command line option$/, '');
        if (href) entries.push({ query: `${command} ${bareTerm(text)}`, hrefs: [href] });
      }
      return;
    }
    // Each link is a definition: one with a qualified anchor is its own query, the others share the bare term.
    const links = [...own.toArray(), ...subs.find('a[href]').toArray()].map((a) => $(a).attr('href')!);
    const bare = bareTerm(text);
    const shared: string[] = [];
    for (const href of links) {
      const query = sphinxQuery(text, href);
      if (query === bare) shared.push(href);
      else entries.push({ query, hrefs: [href] });
    }
    if (shared.length > 0) entries.push({ query: bare, hrefs: shared });
  });
  return entries;
}

/** DocBook `bookindex.html`: `term, <a>…</a>` entries and their `term sub-term` sub-entries. */
export function docbookIndexEntries(html: string): Entry[] {
  const $ = cheerio.load(html);
  const entries: Entry[] = [];
  // `log_directory configuration parameter` is typed `log_directory`.
  const termOf = (dt: AnyNode) => bareTerm(($(dt).contents().first().text() ?? '').replace(/,\s*$/, '').replace(/ configuration parameter$/, ''));
  $('div.index > div.indexdiv > dl > dt').each((_, dt) => {
    const term = termOf(dt);
    if (!term) return;
    const hrefs = $(dt).children('a.indexterm[href]').toArray().map((a) => $(a).attr('href')!);
    if (hrefs.length > 0) entries.push({ query: term, hrefs });
    $(dt)
      .next('dd')
      .children('dl')
      .children('dt')
      .each((_, sub) => {
        const subTerm = termOf(sub);
        const subHrefs = $(sub).children('a.indexterm[href]').toArray().map((a) => $(a).attr('href')!);
        // `autovacuum_freeze_max_age` › `configuration parameter` is typed `autovacuum_freeze_max_age`, as the one-line form is.
        if (subTerm && subHrefs.length > 0) entries.push({ query: subTerm === 'configuration parameter' ? term : `${term} ${subTerm}`, hrefs: subHrefs });
      });
  });
  return entries;
}

/** rustdoc `all.html`: every item of a crate by its path (`collections::HashMap`). */
export function rustdocIndexEntries(html: string): Entry[] {
  const $ = cheerio.load(html);
  return $('ul.docblock > li > a[href]')
    .toArray()
    .map((a) => ({ query: $(a).text().trim(), hrefs: [$(a).attr('href')!] }));
}

/**
 * The judged queries of an index page at `indexPath` (a site path such as `/genindex.html`) of a
 * site served from `root`: entries whose pages exist, one per query text (the first kept), at
 * most {@link MAX_RELEVANT_PAGES} pages each, `count` of them drawn with `seed`.
 */
export function judgedQueries(root: string, indexPath: string, parse: (html: string) => Entry[], count: number, seed: number): JudgedQuery[] {
  const entries = parse(readFileSync(join(root, indexPath), 'utf8'));
  const byQuery = new Map<string, JudgedQuery>();
  for (const entry of entries) {
    if (entry.query.length < 2 || byQuery.has(entry.query.toLowerCase())) continue;
    const relevant = new Set<string>();
    for (const href of entry.hrefs) {
      if (/^[a-z]+:/i.test(href)) continue;
      const path = normalize(join(dirname(indexPath), href.split('#')[0])).replace(/\\/g, '/');
      if (existsSync(join(root, path))) relevant.add(path);
    }
    if (relevant.size === 0 || relevant.size > MAX_RELEVANT_PAGES) continue;
    byQuery.set(entry.query.toLowerCase(), { query: entry.query, relevant: [...relevant] });
  }
  const all = [...byQuery.values()];
  const random = seededRandom(seed);
  // Fisher–Yates with the seeded generator: the same sample every run.
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, count);
}
