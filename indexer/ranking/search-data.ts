/**
 * The data the search keeps in memory beside the text index: page facts (facets, copies,
 * translations) and the suggestion index. Loaded when the server starts — the suggestions from
 * the copy saved when the index or the ranks were last built (suggest-file.ts), built anew only
 * when that copy is missing or the pages or ranks moved on — and again for the pages a crawl or
 * re-crawl changed; the suggestions after an estimation round or local PageRank update, as they
 * are ranked by the global PageRank estimate. The suggestions are computed from what each page
 * contributes, saved beside them (suggest-refresh.ts): a refresh reads only the pages written
 * since, or none when only the ranks moved.
 */
import type { CrawlStore, PageRecord } from '../store/crawl-store.ts';
import { runSteps, runStepsYielding } from '../stepwise.ts';
import { SuggestIndex, type SuggestSource } from '../suggest/suggest-index.ts';
import { loadSuggestIndex, saveSuggestIndex, type SuggestKey } from '../suggest/suggest-file.ts';
import { ContributionsWriter, Vocabulary, type SuggestContributions } from '../suggest/suggest-contributions.ts';
import { currentContributions, savedStart, saveContributionsAsOf, writtenSources } from '../suggest/suggest-refresh.ts';
import { refreshSuggestionsInWorker } from '../suggest/suggest-refresh-thread.ts';
import { rankedSuggestionsSteps } from '../suggest/suggest-ranking.ts';
import { PageFactsPass } from './fact-table.ts';
import { loadPageFacts, refreshPageFacts, savePageFacts } from './page-facts.ts';
import { loadRankSnapshot, type RankSnapshot, type SearchEngine } from './search-engine.ts';

/** Loads facts and suggestions into the engine, and makes what its first search would make. */
export async function loadSearchData(engine: SearchEngine, store: CrawlStore): Promise<void> {
  engine.setFacts(await loadPageFacts(store));
  await engine.prepare();
  const ranks = engine.currentRanks;
  const saved = await loadSuggestIndex(store.directory, suggestKey(store, ranks));
  if (saved.index) engine.setSuggestions(saved.index);
  else {
    process.stderr.write(`building the suggestion index (saved one: ${saved.reason})\n`);
    engine.setSuggestions(await buildSuggestions(store, ranks));
  }
}

/**
 * After a crawl or re-crawl: the changed pages' facts. The suggestions follow with the local
 * PageRank that a crawl always updates next (refreshRanks).
 */
export async function refreshSearchData(engine: SearchEngine, store: CrawlStore, changedIds: readonly number[]): Promise<void> {
  await engine.changeFacts(await refreshPageFacts(engine.pageFacts, store, changedIds));
}

/** After an estimation round (or a local PageRank update): the new ranks, and the suggestions ranked by them. */
export async function refreshRanks(engine: SearchEngine, store: CrawlStore): Promise<void> {
  await engine.changeRanks(await loadRankSnapshot(store));
  engine.setSuggestions(await buildSuggestions(store, engine.currentRanks, { worker: true }));
}

/**
 * What a server loads at start, saved when the index is built (`lse index`, `lse import`): the
 * page facts and the suggestions.
 */
export async function saveSearchData(store: CrawlStore): Promise<void> {
  await savePageFacts(store);
  await buildSuggestions(store);
}

/**
 * The page facts and the suggestions built from a pass over the store's pages that something else
 * makes (the index build: `indexableDocuments`' `onPage`), then saved as saveSearchData saves
 * them, so that the pages are read once rather than three times. Started after the ranks are
 * stored and before the pass; its keys are read then, so a page written during the pass makes
 * the saved copies stale, never wrong. Should the pass not come in id order, the data is read by
 * its own passes instead.
 */
export class SearchDataPass {
  private readonly facts: PageFactsPass;
  private readonly suggestions = new ContributionsWriter(new Vocabulary());
  private readonly key: SuggestKey;
  private broken: Error | undefined;

  private constructor(
    private readonly store: CrawlStore,
    private readonly snapshot: RankSnapshot,
  ) {
    this.key = suggestKey(store, snapshot);
    this.facts = new PageFactsPass(store);
  }

  static async start(store: CrawlStore): Promise<SearchDataPass> {
    return new SearchDataPass(store, await loadRankSnapshot(store));
  }

  /** One stored page, with its document when it is indexable. */
  add(id: number, page: PageRecord, document: SuggestSource | undefined): void {
    if (this.broken) return;
    try {
      this.facts.add(id, page);
      if (document) this.suggestions.add(document);
    } catch (error) {
      this.broken = error as Error;
    }
  }

  async save(): Promise<void> {
    if (this.broken) {
      process.stderr.write(`reading the page facts and suggestions again (${this.broken.message})\n`);
      await saveSearchData(this.store);
      return;
    }
    await this.facts.save();
    const contributions = await runStepsYielding(this.suggestions.doneSteps());
    await saveContributionsAsOf(this.store.directory, contributions, this.key.pageSequence);
    await saveSuggestIndex(this.store.directory, await rankSuggestions(contributions, this.snapshot), this.key);
  }
}

/**
 * Builds the suggestions of the store's pages ranked by `ranks` (default: the stored ones) and
 * saves them. With `worker`, a refresh from the saved page contributions runs in a worker thread
 * (suggest-refresh-thread.ts), and on this thread only when it cannot (no saved copy to start
 * from) or failed there.
 */
export async function buildSuggestions(store: CrawlStore, ranks?: RankSnapshot, options: { worker?: boolean } = {}): Promise<SuggestIndex> {
  const snapshot = ranks ?? (await loadRankSnapshot(store));
  // Read before the pages: a page written during the build makes the saved copy stale, never wrong.
  const pageSequence = store.pageWriteSequence;
  const key = { pageSequence, rankDigest: await runStepsYielding(rankDigestSteps(snapshot)) };
  if (options.worker) {
    const refreshed = await suggestionsInWorker(store, snapshot, key);
    if (refreshed) return refreshed;
  }
  // Only the pages written since the page contributions were saved are read (all when none are).
  const { contributions } = await currentContributions(store, key.pageSequence);
  const suggestions = await rankSuggestions(contributions, snapshot);
  await saveSuggestIndex(store.directory, suggestions, key);
  return suggestions;
}

/** The suggestions refreshed in a worker from the saved contributions; undefined when there are none to start from, or it failed (said why). */
async function suggestionsInWorker(store: CrawlStore, snapshot: RankSnapshot, key: SuggestKey): Promise<SuggestIndex | undefined> {
  const start = await savedStart(store, key.pageSequence);
  if (!start) return undefined;
  const job = { dataDir: store.directory, savedSequence: start.savedSequence, sequence: key.pageSequence, key, scale: snapshot.globalScale };
  try {
    return await refreshSuggestionsInWorker(job, snapshot.global, writtenSources(store, start.written));
  } catch (error) {
    process.stderr.write(`suggestions: refreshed on the main thread (${(error as Error).message})\n`);
    return undefined;
  }
}

const rankSuggestions = (contributions: SuggestContributions, snapshot: RankSnapshot) =>
  runStepsYielding(rankedSuggestionsSteps(contributions, (id) => snapshot.global.get(id) ?? 0, snapshot.globalScale));

/** The state suggestions are built from: the store's page writes, and a digest of the ranks. */
export function suggestKey(store: CrawlStore, ranks: RankSnapshot): SuggestKey {
  return { pageSequence: store.pageWriteSequence, rankDigest: rankDigest(ranks) };
}

const rankDigest = (ranks: RankSnapshot) => runSteps(rankDigestSteps(ranks));

/**
 * FNV-1a (and a second, independent lane) over the ids and the bits of the global values (in the
 * snapshot's order) and its scale; a yield every 16,384 ranks (a million take about 70 ms).
 */
function* rankDigestSteps(ranks: RankSnapshot): Generator<void, string> {
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  let hash = 0x811c9dc5;
  let second = 0x9747b28c;
  const mix = (value: number) => {
    hash = Math.imul(hash ^ (value >>> 0), 0x01000193);
    second = Math.imul(second ^ (value >>> 0), 0x5bd1e995) ^ (second >>> 15);
  };
  const mixNumber = (value: number) => {
    bits[0] = value;
    mix(words[0]);
    mix(words[1]);
  };
  let count = 0;
  for (const [id, value] of ranks.global) {
    mix(id);
    mixNumber(value);
    if (++count % 16_384 === 0) yield;
  }
  const scale = ranks.globalScale;
  for (const value of [scale.minLog, scale.maxLog, scale.mean, scale.median]) mixNumber(value);
  return `${ranks.global.size}:${(hash >>> 0).toString(16)}:${(second >>> 0).toString(16)}`;
}
