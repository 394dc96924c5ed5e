/**
 * Real multilingual documentation shipped by Debian (installed by `.ci/run`): the Debian Reference
 * and the Debian FAQ as HTML in several languages. Tests that read them are skipped where the
 * packages are missing (a developer machine), and run in CI.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DebianDoc {
  /** The file's language as its name says it (`de`, `zh-cn`). */
  fileLang: string;
  /** Primary subtag of the file's language. */
  lang: string;
  path: string;
  /** Path relative to the documentation root, the same for a page's translations (`reference/ch03.html`). */
  key: string;
}

const REFERENCE = '/usr/share/debian-reference';
const FAQ = '/usr/share/doc/debian/FAQ';

export function debianDocs(): DebianDoc[] {
  const docs: DebianDoc[] = [];
  if (existsSync(REFERENCE)) {
    for (const file of readdirSync(REFERENCE).sort()) {
      const match = /^(.+)\.([a-z]{2}(?:-[a-z]{2})?)\.html$/.exec(file);
      if (match) docs.push({ fileLang: match[2], lang: match[2].slice(0, 2), path: join(REFERENCE, file), key: `reference/${match[1]}.html` });
    }
  }
  if (existsSync(FAQ)) {
    // English pages sit at the top, each translation in its own folder.
    const folders = [FAQ, ...readdirSync(FAQ, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'images').map((e) => join(FAQ, e.name))];
    for (const dir of folders) {
      for (const file of readdirSync(dir).sort()) {
        const match = /^(.+)\.([a-z]{2}(?:-[a-z]{2})?)\.html$/.exec(file);
        if (match) docs.push({ fileLang: match[2], lang: match[2].slice(0, 2), path: join(dir, file), key: `faq/${match[1]}.html` });
      }
    }
  }
  return docs;
}

export function readDoc(doc: DebianDoc): string {
  return readFileSync(doc.path, 'utf8');
}

/** The languages present (at least `min` pages each). */
export function docLanguages(docs: readonly DebianDoc[], min = 5): string[] {
  const counts = new Map<string, number>();
  for (const doc of docs) counts.set(doc.lang, (counts.get(doc.lang) ?? 0) + 1);
  return [...counts].filter(([, n]) => n >= min).map(([lang]) => lang).sort();
}
