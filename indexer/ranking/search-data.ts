/**
 * The data the search keeps in memory beside the text index: page facts (facets, copies,
 * translations) and the suggestion index. Loaded from the store when the server starts, and
 * again for the pages a crawl or re-crawl changed; the suggestions also after an estimation
 * round, as they are ranked by the global PageRank estimate.
 */
import type { CrawlStore } from '../store/crawl-store.ts';
import { indexableDocuments } from '../text-index/store-adapter.ts';
import { SuggestIndex } from '../suggest/suggest-index.ts';
import { loadPageFacts, refreshPageFacts } from './page-facts.ts';
import { loadRankSnapshot, type SearchEngine } from './search-engine.ts';

/** Loads facts and suggestions into the engine. */
export async function loadSearchData(engine: SearchEngine, store: CrawlStore): Promise<void> {
  engine.setFacts(await loadPageFacts(store));
  await rebuildSuggestions(engine, store);
}

/** After a crawl or re-crawl: the changed pages' facts, and the suggestions anew. */
export async function refreshSearchData(engine: SearchEngine, store: CrawlStore, changedIds: readonly number[]): Promise<void> {
  engine.setFacts(await refreshPageFacts(engine.pageFacts, store, changedIds));
  await rebuildSuggestions(engine, store);
}

/** After an estimation round (or a local PageRank update): the new ranks, and the suggestions ranked by them. */
export async function refreshRanks(engine: SearchEngine, store: CrawlStore): Promise<void> {
  engine.setRanks(await loadRankSnapshot(store));
  await rebuildSuggestions(engine, store);
}

async function rebuildSuggestions(engine: SearchEngine, store: CrawlStore): Promise<void> {
  const ranks = engine.currentRanks;
  engine.setSuggestions(await SuggestIndex.build(indexableDocuments(store), (id) => ranks.global.get(id) ?? 0, ranks.globalScale));
}
