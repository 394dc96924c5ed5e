/**
 * The page contributions to the suggestions as of the store's current pages, at the cost of the
 * pages written since they were saved: those the store's page journal lists are read and
 * tokenised again and their rows replaced; nothing else is read. Without a usable saved copy
 * (none, damaged, of another store, or older than the journal reaches) every page is read once,
 * with a warning, as a full build does — never a wrong answer.
 */
import type { CrawlStore, PageRecord } from '../store/crawl-store.ts';
import { isIndexablePage } from '../text-index/store-adapter.ts';
import type { RankScale } from '../ranking/blend.ts';
import { nextTurn, runSteps, runStepsYielding } from '../stepwise.ts';
import { ContributionsWriter, replaceRowsSteps, Vocabulary, type SuggestContributions } from './suggest-contributions.ts';
import { decodeContributionsSteps, encodeContributionsSteps, readContributionsFile, readContributionsSequence, saveContributions } from './suggest-contributions-file.ts';
import { saveSuggestIndex, type SuggestKey } from './suggest-file.ts';
import type { SuggestIndex, SuggestSource } from './suggest-index.ts';
import { rankedSuggestionsSteps } from './suggest-ranking.ts';

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
  for await (const [id, source] of writtenSources(store, written)) changed.set(id, source);
  return runStepsYielding(replaceRowsSteps(old, changed));
}

/**
 * What a refresh from the saved contributions starts from: their sequence and the pages written
 * since, or undefined when there is no saved copy to start from (none, another store's, or older
 * than the journal reaches). Reads the file's header and the journal, no page.
 */
export async function savedStart(store: CrawlStore, sequence: number): Promise<{ savedSequence: number; written: number[] } | undefined> {
  const saved = await readContributionsSequence(store.directory);
  if (saved.pageSequence === undefined || saved.pageSequence > sequence) return undefined;
  const written = await store.pageJournalSince(saved.pageSequence);
  return written ? { savedSequence: saved.pageSequence, written } : undefined;
}

/** What the `written` pages give the suggestions now (undefined: a page that gives none). */
export async function* writtenSources(store: CrawlStore, written: readonly number[]): AsyncGenerator<[number, SuggestSource | undefined]> {
  for await (const [id, page] of store.pagesOf(written)) yield [id, suggestSourceOf(id, page)];
}

/** A refresh of the saved suggestions (see {@link refreshSavedSuggestions}). */
export interface SavedRefresh {
  dataDir: string;
  /** The sequence the saved contributions are of (their file's header, read by the caller). */
  savedSequence: number;
  /** The sequence the refreshed ones are of: the store's, read before the written pages. */
  sequence: number;
  /** What the suggestion index is built from, saved with it. */
  key: SuggestKey;
  scale: RankScale;
}

/**
 * The suggestions of the contributions saved as of `savedSequence` with the rows of the `changed`
 * pages replaced, ranked by `rankOf` on `scale`; both saved (the contributions as of `sequence`,
 * the index under `key`). Runs without yielding: it is a worker thread's whole work for a server
 * (suggest-refresh-thread.ts). Throws when the saved copy is missing, damaged or of another
 * sequence: the caller then refreshes on its own thread, which reads every page if it must.
 */
export async function refreshSavedSuggestions(job: SavedRefresh, changed: ReadonlyMap<number, SuggestSource | undefined>, rankOf: (id: number) => number): Promise<SuggestIndex> {
  const file = await readContributionsFile(job.dataDir);
  if (!file.bytes) throw new Error(`the saved page contributions: ${file.reason}`);
  let saved: { contributions: SuggestContributions; pageSequence: number };
  try {
    saved = runSteps(decodeContributionsSteps(file.bytes));
  } catch (error) {
    throw new Error(`the saved page contributions: cannot read them: ${(error as Error).message}`);
  }
  if (saved.pageSequence !== job.savedSequence) throw new Error(`the saved page contributions are of page write ${saved.pageSequence}, not ${job.savedSequence}`);
  const contributions = changed.size === 0 ? saved.contributions : runSteps(replaceRowsSteps(saved.contributions, changed));
  if (job.sequence !== job.savedSequence) await saveContributionsAsOf(job.dataDir, contributions, job.sequence);
  const index = runSteps(rankedSuggestionsSteps(contributions, rankOf, job.scale));
  await saveSuggestIndex(job.dataDir, index, job.key);
  return index;
}
