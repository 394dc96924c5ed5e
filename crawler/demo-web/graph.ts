/**
 * The demo web's whole link graph and its true global PageRank — what the estimator is measured
 * against.
 *
 * Nodes: every HTML page URL and every redirect URL (the URLs a crawler fetches and gets an HTML
 * page or a redirect for), in resource-id order. Edges: a page links to each URL its `<a href>`s
 * resolve to (after `<base href>`), when that URL is a node; a redirect links to its target.
 * Dropped: links to errors, non-HTML files, unknown URLs and spider traps (infinite, so not
 * nodes); by default, links a crawler honouring nofollow would not follow (`rel="nofollow"`,
 * and every link of a page whose meta robots says nofollow). Canonicals and duplicates are not
 * folded: the mirror, `/index.html` and print versions are nodes of their own. Pages robots.txt
 * disallows are nodes (they exist and are linked; a polite crawler only sees them as frontier).
 */
import { buildGraph, type LinkGraph } from '../../indexer/graph.ts';
import { restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank, type PageRankOptions } from '../../indexer/pagerank.ts';
import type { DemoWeb } from './generate.ts';
import { demoPageLinks } from './links.ts';

export interface DemoWebGraphOptions {
  /** Keep nofollow links (default false). */
  includeNofollow?: boolean;
}

export interface DemoWebGraph {
  graph: LinkGraph;
  /** URL of each node. */
  urls: string[];
  /** Resource id (index in `web.resources`) of each node. */
  resourceIds: Int32Array;
  /** Node of each URL. */
  nodeOf: ReadonlyMap<string, number>;
}

const graphCache = new WeakMap<DemoWeb, Map<boolean, DemoWebGraph>>();

export function demoWebGraph(web: DemoWeb, options: DemoWebGraphOptions = {}): DemoWebGraph {
  const includeNofollow = options.includeNofollow ?? false;
  let cached = graphCache.get(web);
  if (!cached) graphCache.set(web, (cached = new Map()));
  const hit = cached.get(includeNofollow);
  if (hit) return hit;

  const nodeOfResource = new Int32Array(web.resources.length).fill(-1);
  const ids: number[] = [];
  const urls: string[] = [];
  const nodeOf = new Map<string, number>();
  for (const resource of web.resources) {
    if (resource.kind !== 'page' && resource.kind !== 'redirect') continue;
    nodeOfResource[resource.id] = ids.length;
    nodeOf.set(resource.url, ids.length);
    ids.push(resource.id);
    urls.push(resource.url);
  }
  const sources: number[] = [];
  const targets: number[] = [];
  const nodeAt = (url: string | null): number => {
    if (url === null) return -1;
    const id = web.urlIndex.get(url);
    return id === undefined ? -1 : nodeOfResource[id];
  };
  for (let node = 0; node < ids.length; node++) {
    const resource = web.resources[ids[node]];
    if (resource.kind === 'redirect') {
      const target = nodeAt(resource.target);
      if (target >= 0) {
        sources.push(node);
        targets.push(target);
      }
      continue;
    }
    if (resource.kind !== 'page') continue;
    for (const link of demoPageLinks(web, resource)) {
      if (link.nofollow && !includeNofollow) continue;
      const target = nodeAt(link.url);
      if (target >= 0) {
        sources.push(node);
        targets.push(target);
      }
    }
  }
  const result: DemoWebGraph = { graph: buildGraph(ids.length, sources, targets), urls, resourceIds: Int32Array.from(ids), nodeOf };
  cached.set(includeNofollow, result);
  return result;
}

const rankCache = new WeakMap<DemoWebGraph, Float64Array>();

/** Global PageRank of every node of {@link demoWebGraph} (default options are memoised). */
export function demoWebGlobalPageRank(web: DemoWeb, options: PageRankOptions & DemoWebGraphOptions = {}): Float64Array {
  const { includeNofollow, ...rankOptions } = options;
  const whole = demoWebGraph(web, { includeNofollow });
  const memoise = Object.keys(rankOptions).length === 0;
  const cached = memoise ? rankCache.get(whole) : undefined;
  if (cached) return cached;
  const rank = pageRank(whole.graph, { tolerance: 1e-10, ...rankOptions }).rank;
  if (memoise) rankCache.set(whole, rank);
  return rank;
}

/**
 * The true global PageRank of a set of pages, `p* = E_L g / ‖E_L g‖₁`: the whole web's PageRank
 * restricted to `urls` (in that order) and renormalised to sum 1. Every URL must be a node.
 */
export function demoWebTruePageRank(web: DemoWeb, urls: readonly string[], options: PageRankOptions & DemoWebGraphOptions = {}): Float64Array {
  const whole = demoWebGraph(web, { includeNofollow: options.includeNofollow });
  const nodes = new Int32Array(urls.length);
  urls.forEach((url, k) => {
    const node = whole.nodeOf.get(url);
    if (node === undefined) throw new RangeError(`${url} is not a page of the demo web graph`);
    nodes[k] = node;
  });
  return restrictAndNormalise(demoWebGlobalPageRank(web, options), nodes);
}

/** The graph's URLs on one host (default: the local domain), in node order. */
export function demoWebHostUrls(web: DemoWeb, host: string = web.localHost): string[] {
  const prefix = `http://${host}/`;
  return demoWebGraph(web).urls.filter((url) => url.startsWith(prefix));
}
