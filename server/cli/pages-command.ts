/**
 * `lse pages`: the URLs of a data directory's stored pages, filtered by state, role or language:
 * where the counts of a crawl summary ("not-html 9") or an index build ("44 pages in a language
 * that cannot be told") lead.
 */
import type { CrawlStore, PageRecord } from '../../indexer/store/crawl-store.ts';
import { settingsForDataDir } from './crawl-command.ts';
import { parseFlags } from './flags.ts';

export const pagesUsage = `lse pages [--data DIR] [--state STATE] [--role local|global] [--lang CODE]

  Lists the stored pages' URLs, one a line, with their state and, for failures, why:
  --state     fetched, not-modified, redirect, error, disallowed, not-html, gone
  --role      local (the site) or global (outside it)
  --lang      the stored language (und: could not be told)`;

export interface PageFilter {
  state?: string;
  role?: string;
  lang?: string;
}

export function matchesFilter(page: PageRecord, filter: PageFilter): boolean {
  return (filter.state === undefined || page.state === filter.state) && (filter.role === undefined || page.role === filter.role) && (filter.lang === undefined || page.lang === filter.lang);
}

/** A few URLs per state of the local pages not fetched: what a summary names. */
export async function exampleUrlsByState(store: CrawlStore, perState = 3): Promise<Map<string, string[]>> {
  const examples = new Map<string, string[]>();
  for await (const [, page] of store.pages()) {
    if (page.role !== 'local' || page.state === 'fetched' || page.state === 'not-modified') continue;
    const list = examples.get(page.state) ?? [];
    if (list.length < perState) list.push(page.url);
    examples.set(page.state, list);
  }
  return examples;
}

/** Lines naming a few pages per state and the command that lists them all. */
export function formatExamples(examples: ReadonlyMap<string, string[]>, dataDir: string): string[] {
  return [...examples].map(([state, urls]) => `  ${state}: ${urls.join(', ')}${urls.length >= 3 ? ', …' : ''} (all of them: lse pages --data ${dataDir} --state ${state})`);
}

export async function pagesCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { config: { type: 'string' }, data: { type: 'string' }, state: { type: 'string' }, role: { type: 'string' }, lang: { type: 'string' } }, 'pages');
  const { store } = await settingsForDataDir(flags, {});
  try {
    const filter: PageFilter = { state: flags.state, role: flags.role, lang: flags.lang };
    for await (const [, page] of store.pages()) {
      if (!matchesFilter(page, filter)) continue;
      process.stdout.write(`${page.url}\t${page.state}${page.error ? `\t${page.error}` : page.contentType && page.state === 'not-html' ? `\t${page.contentType}` : ''}\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}
