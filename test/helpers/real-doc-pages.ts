/**
 * Real documentation pages (Debian's python-django-doc and sphinx-doc) and queries of words taken
 * from them, for tests that compare two ways of answering the same query.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHtml } from '../../crawler/html.ts';
import { seededRandom } from '../../indexer/seeded-random.ts';
import type { TextDocument } from '../../indexer/text-index/document.ts';

const ROOTS = ['/usr/share/doc/python-django-doc/html', '/usr/share/doc/sphinx-doc/html'];

function htmlFiles(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) htmlFiles(path, out);
    else if (entry.name.endsWith('.html')) out.push(path);
  }
}

/** The first `count` pages of Django's and Sphinx's documentation, parsed as the crawler parses them. */
export function realDocPages(count: number): TextDocument[] {
  const files: string[] = [];
  for (const root of ROOTS) if (existsSync(root)) htmlFiles(root, files);
  files.sort();
  return files.slice(0, count).map((path, id) => {
    const url = `http://docs.test${path}`;
    const page = parseHtml(readFileSync(path, 'utf8'), url);
    return { id, url, host: 'docs.test', title: page.title, headings: page.content.headings, text: page.content.text, lang: 'en', sections: page.content.sections, definitions: page.content.definitions };
  });
}

/** Queries of words taken from the pages: plain words, required, prohibited, fields, phrases, patterns. */
export function pageQueries(docs: readonly TextDocument[], count: number): string[] {
  const random = seededRandom(11);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const out: string[] = [];
  while (out.length < count) {
    const doc = pick(docs);
    const at = Math.floor(random() * Math.max(1, doc.text.length - 300));
    const words = (doc.text.slice(at, at + 300).toLowerCase().match(/[a-z]{3,}/g) ?? []).slice(1);
    if (words.length < 4) continue;
    const [a, b, c] = [pick(words), pick(words), pick(words)];
    const i = Math.floor(random() * (words.length - 1));
    const kinds = [
      `${a} ${b}`,
      `${a} ${b} ${c}`,
      a,
      `+${a} ${b}`,
      `${a} ${b} -${c}`,
      `title:${a} ${b}`,
      `"${words[i]} ${words[i + 1]}" ${c}`,
      `${a.slice(0, 3)}* ${b}`,
      `${a}~1 ${b}`,
      `${a}^3 ${b}`,
      // A name the page defines: its exact-name bonus takes part in the bounds.
      doc.definitions?.length ? pick(doc.definitions).name : a,
    ];
    out.push(kinds[out.length % kinds.length]);
  }
  return out;
}

