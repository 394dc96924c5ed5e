/**
 * The page contributions to the suggestions as of the store's current pages, at the cost of the
 * pages written since they were saved: those the store's page journal lists are read and
 * tokenised again and their rows replaced; nothing else is read. Without a usable saved copy
 * (none, damaged, of another store, or older than the journal reaches) every page is read once,
 * with a warning, as a full build does — never a wrong answer.
 */
import type { CrawlStore, PageRecord } from '../store/crawl-store.ts';
import { isIndexablePage } from '../text-index/store-adapter.ts';
import { nextTurn, runStepsYielding } from '../stepwise.ts';
import { ContributionsWriter, replaceRowsSteps, Vocabulary, type SuggestContributions } from './suggest-contributions.ts';
import { decodeContributionsSteps, encodeContributionsSteps, readContributionsFile, saveContributions } from './suggest-contributions-file.ts';
import type { SuggestSource } from './suggest-index.ts';

/** What a stored page gives the suggestions: nothing unless it is indexable. */
export function suggestSourceOf(id: number, page: PageRecord | undefined): SuggestSource | undefined {
  if (!page || !isIndexablePage(page)) return undefined;
  return { id, url: page.url, title: page.title ?? '', headings: page.headings ?? [], text: page.text ?? '' };
}

export interface CurrentContributions {
  contributions: SuggestContributions;
  /** Pages read and tokenised: the written ones, or all. */
  pagesRead: number;
  /** Every page was read (no usable saved copy, or `reason` tells why). */
  full: boolean;
  reason: string;
}

/**
 * The contributions of the store's pages as of `sequence` (the store's page-write sequence, read
 * by the caller before this: a page written meanwhile is read again next time), saved again.
 */
export async function currentContributions(store: CrawlStore, sequence: number): Promise<CurrentContributions> {
  const saved = await savedContributions(store.directory);
  let reason = saved.reason;
  if (saved.contributions) {
    const written = saved.pageSequence > sequence ? undefined : await store.pageJournalSince(saved.pageSequence);
    if (written) {
      const contributions = written.length === 0 ? saved.contributions : await replaceWritten(store, saved.contributions, written);
      if (saved.pageSequence !== sequence) await saveContributionsAsOf(store.directory, contributions, sequence);
      return { contributions, pagesRead: written.length, full: false, reason: 'saved' };
    }
    reason = saved.pageSequence > sequence ? 'saved for another store (its sequence is past the store’s)' : 'the page journal no longer reaches back to it';
  }
  process.stderr.write(`suggestions: reading every page (the saved page contributions: ${reason})\n`);
  const writer = new ContributionsWriter(new Vocabulary());
  let pagesRead = 0;
  for await (const [id, page] of store.pages()) {
    const source = suggestSourceOf(id, page);
    if (source) writer.add(source);
    // Pages an iterator has buffered arrive as microtasks, which never let a timer or a request in.
    if (++pagesRead % 1024 === 0) await nextTurn();
  }
  const contributions = await runStepsYielding(writer.doneSteps());
  await saveContributionsAsOf(store.directory, contributions, sequence);
  return { contributions, pagesRead, full: true, reason };
}

/** Saves the contributions as of `sequence`; a failure only costs the next refresh a full read. */
export async function saveContributionsAsOf(dataDir: string, contributions: SuggestContributions, sequence: number): Promise<void> {
  try {
    await saveContributions(dataDir, await runStepsYielding(encodeContributionsSteps(contributions, sequence)));
  } catch (error) {
    process.stderr.write(`suggestions: the page contributions were not saved (${(error as Error).message})\n`);
  }
}

async function savedContributions(dataDir: string): Promise<{ contributions?: SuggestContributions; pageSequence: number; reason: string }> {
  const file = await readContributionsFile(dataDir);
  if (!file.bytes) return { pageSequence: -1, reason: file.reason };
  try {
    return { ...(await runStepsYielding(decodeContributionsSteps(file.bytes))), reason: 'saved' };
  } catch (error) {
    return { pageSequence: -1, reason: `cannot read it: ${(error as Error).message}` };
  }
}

async function replaceWritten(store: CrawlStore, old: SuggestContributions, written: readonly number[]): Promise<SuggestContributions> {
  const changed = new Map<number, SuggestSource | undefined>();
  for await (const [id, page] of store.pagesOf(written)) changed.set(id, suggestSourceOf(id, page));
  return runStepsYielding(replaceRowsSteps(old, changed));
}
