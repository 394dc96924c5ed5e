/**
 * Where a round starts: the local pages as the store holds them now and, unless the round is
 * fresh, the supergraph earlier rounds built — every global page they added that still has
 * links, with its stored links, and their last PageRank as the warm start (exact when the graph
 * is unchanged). The supergraph is kept as a rank version named {@link SUPERGRAPH_RANKS}: the
 * store ids of F in the order they joined (L first) and F's PageRank.
 */
import { followedLinkUrls, hasLinks } from '../../crawler/crawled-page-source.ts';
import type { NamedSelectorState, SupergraphStart } from '../../indexer/estimation/find-global-pagerank.ts';
import type { FetchedPage } from '../../indexer/estimation/supergraph.ts';
import type { CrawlStore, PageRecord, RankVersion } from '../../indexer/store/crawl-store.ts';

export const SUPERGRAPH_RANKS = 'supergraph';

export interface LocalDomain {
  /** Store ids and URLs of the local pages with known links, in URL order. */
  ids: Int32Array;
  pages: Array<FetchedPage<string>>;
}

export interface RoundStart {
  domain: LocalDomain;
  /** Absent on a fresh round or before the first round. */
  start?: SupergraphStart<string>;
  /** Store ids of the start's global pages, parallel to `start.globalPages`. */
  globalIds: Int32Array;
  /** The supergraph version the round starts from. */
  from?: number;
}

export interface RoundStartOptions {
  /** Start from the local pages alone. */
  fresh: boolean;
  /** Exactly these local pages (a resumed round keeps the L it started with). */
  localIds?: readonly number[];
  /** This supergraph version instead of the latest (a resumed round). */
  version?: number;
}

const byUrl = (a: { url: string }, b: { url: string }) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
/** Stored outcomes that give no links: such a page cannot join F. */
const failed = (page: PageRecord) => !hasLinks(page);

export async function loadRoundStart(store: CrawlStore, options: RoundStartOptions): Promise<RoundStart> {
  const only = options.localIds ? new Set(options.localIds) : undefined;
  const local: Array<{ id: number; url: string }> = [];
  const unreachable: string[] = [];
  const records = new Map<number, PageRecord>();
  for await (const [id, page] of store.pages()) {
    const isLocal = only ? only.has(id) : page.role === 'local' && (page.state === 'fetched' || page.state === 'not-modified');
    if (isLocal) local.push({ id, url: page.url });
    else if (failed(page)) unreachable.push(page.url);
    else records.set(id, page);
  }
  // L in URL order, not the crawl's discovery order: a round then numbers its pages as an
  // offline run over the same pages does, and a re-crawl that changes nothing changes no id.
  local.sort(byUrl);

  const saved = options.fresh ? undefined : await supergraphVersion(store, options.version);
  const localSet = new Set(local.map((p) => p.id));
  const globalIds: number[] = [];
  if (saved) {
    const localCount = Number(saved.info?.localCount ?? 0);
    for (let i = localCount; i < saved.ids.length; i++) {
      const id = saved.ids[i];
      // A page gone since (no links now) or become local leaves the global part of F.
      if (!localSet.has(id) && records.has(id)) globalIds.push(id);
    }
  }
  const wanted = new Set([...localSet, ...globalIds]);
  const linksOf = new Map<number, string[]>();
  for await (const [id, links] of store.allLinks()) if (wanted.has(id)) linksOf.set(id, followedLinkUrls(store, links));
  const pageOf = (id: number, url: string): FetchedPage<string> => ({ key: url, links: linksOf.get(id) ?? [] });
  const domain: LocalDomain = { ids: Int32Array.from(local, (p) => p.id), pages: local.map((p) => pageOf(p.id, p.url)) };
  if (!saved) return { domain, globalIds: new Int32Array(0) };
  return {
    domain,
    globalIds: Int32Array.from(globalIds),
    from: saved.version,
    start: {
      globalPages: globalIds.map((id) => pageOf(id, records.get(id)!.url)),
      unreachable,
      rank: rankInOrder(saved, [...domain.ids, ...globalIds]),
      fingerprint: typeof saved.info?.fingerprint === 'string' ? saved.info.fingerprint : undefined,
      selectorState: selectorStateOf(saved.info?.selectorState),
    },
  };
}

async function supergraphVersion(store: CrawlStore, version: number | undefined): Promise<RankVersion | undefined> {
  return version === undefined ? store.latestRanks(SUPERGRAPH_RANKS) : store.getRanks(SUPERGRAPH_RANKS, version);
}

/** The saved PageRank in the order of `ids` (0 for pages it did not have). */
function rankInOrder(saved: RankVersion, ids: readonly number[]): Float64Array {
  const position = new Map<number, number>();
  saved.ids.forEach((id, i) => position.set(id, i));
  const rank = new Float64Array(ids.length);
  ids.forEach((id, i) => {
    const at = position.get(id);
    if (at !== undefined) rank[i] = saved.values[at];
  });
  return rank;
}

/** The selector state stored with a supergraph version, when it has the stored shape (a later round checks the values). */
function selectorStateOf(value: unknown): NamedSelectorState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { selector, state } = value as Partial<NamedSelectorState>;
  if (typeof selector !== 'string' || typeof state !== 'object' || state === null) return undefined;
  return { selector, state };
}
