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
import type { CrawlStore, RankVersion } from '../../indexer/store/crawl-store.ts';

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
  /** Store ids of the start's global pages, parallel to `start.globalPages.keys`. */
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

/** What the stored pages are to a round, by store id (0: anything else — failed, or not stored). */
const LOCAL = 1;
/** A global page with links: it can stay in F. */
const LINKED = 2;

/**
 * Reads the store once, keeping per page only typed arrays indexed by store id (and the URLs of
 * the pages the round starts with), so that a supergraph of a million global pages costs a few
 * bytes a page here, not a record, a set entry and a link list each.
 */
export async function loadRoundStart(store: CrawlStore, options: RoundStartOptions): Promise<RoundStart> {
  const only = options.localIds ? new Set(options.localIds) : undefined;
  const kind = new Uint8Array(store.urlCount);
  const local: number[] = [];
  const unreachable: string[] = [];
  for await (const [id, page] of store.pages()) {
    const isLocal = only ? only.has(id) : page.role === 'local' && (page.state === 'fetched' || page.state === 'not-modified');
    if (isLocal) {
      local.push(id);
      kind[id] = LOCAL;
    } else if (!hasLinks(page)) unreachable.push(page.url);
    else kind[id] = LINKED;
  }
  // L in URL order, not the crawl's discovery order: a round then numbers its pages as an
  // offline run over the same pages does, and a re-crawl that changes nothing changes no id.
  const urlOf = (id: number) => store.urlOf(id)!;
  // Each URL decoded once (the store's table decodes on every urlOf), not at every comparison.
  const byUrl = local.map((id) => ({ id, url: urlOf(id) })).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  for (let i = 0; i < byUrl.length; i++) local[i] = byUrl[i].id;

  const saved = options.fresh ? undefined : await supergraphVersion(store, options.version);
  const globalIds: number[] = [];
  if (saved) {
    const localCount = Number(saved.info?.localCount ?? 0);
    for (let i = localCount; i < saved.ids.length; i++) {
      const id = saved.ids[i];
      // A page gone since (no links now) or become local leaves the global part of F.
      if (kind[id] === LINKED) globalIds.push(id);
    }
  }
  const ids = [...local, ...globalIds];
  const links = await linksInOrder(store, ids);
  const domainIds = Int32Array.from(local);
  const pages: Array<FetchedPage<string>> = local.map((id, i) => ({ key: urlOf(id), links: links.links.slice(links.offsets[i], links.offsets[i + 1]) }));
  const domain: LocalDomain = { ids: domainIds, pages };
  if (!saved) return { domain, globalIds: new Int32Array(0) };
  return {
    domain,
    globalIds: Int32Array.from(globalIds),
    from: saved.version,
    start: {
      // The global pages' part of the link list, in place: offsets index the whole list.
      globalPages: { keys: globalIds.map(urlOf), linkOffsets: links.offsets.subarray(local.length), links: links.links },
      unreachable,
      rank: rankInOrder(saved, ids, store.urlCount),
      fingerprint: typeof saved.info?.fingerprint === 'string' ? saved.info.fingerprint : undefined,
      selectorState: selectorStateOf(saved.info?.selectorState),
    },
  };
}

/** The followed links of the pages `ids`, in that order, as one URL list with offsets (CSR). */
async function linksInOrder(store: CrawlStore, ids: readonly number[]): Promise<{ offsets: Int32Array; links: string[] }> {
  const place = new Int32Array(store.urlCount).fill(-1);
  ids.forEach((id, i) => (place[id] = i));
  // The store gives links in id order: first gathered in that order, then laid out in `ids` order.
  const count = new Int32Array(ids.length);
  const gathered: string[] = [];
  const gatheredStart = new Int32Array(ids.length);
  for await (const [id, stored] of store.allLinks()) {
    const i = id < place.length ? place[id] : -1;
    if (i < 0) continue;
    gatheredStart[i] = gathered.length;
    for (const url of followedLinkUrls(store, stored)) gathered.push(url);
    count[i] = gathered.length - gatheredStart[i];
  }
  const offsets = new Int32Array(ids.length + 1);
  for (let i = 0; i < ids.length; i++) offsets[i + 1] = offsets[i] + count[i];
  const links: string[] = new Array(offsets[ids.length]);
  for (let i = 0; i < ids.length; i++) for (let l = 0; l < count[i]; l++) links[offsets[i] + l] = gathered[gatheredStart[i] + l];
  return { offsets, links };
}

async function supergraphVersion(store: CrawlStore, version: number | undefined): Promise<RankVersion | undefined> {
  return version === undefined ? store.latestRanks(SUPERGRAPH_RANKS) : store.getRanks(SUPERGRAPH_RANKS, version);
}

/** The saved PageRank in the order of `ids` (0 for pages it did not have). */
function rankInOrder(saved: RankVersion, ids: readonly number[], urlCount: number): Float64Array {
  const position = new Int32Array(urlCount).fill(-1);
  saved.ids.forEach((id, i) => {
    if (id < urlCount) position[id] = i;
  });
  const rank = new Float64Array(ids.length);
  ids.forEach((id, i) => {
    const at = position[id];
    if (at >= 0) rank[i] = saved.values[at];
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
