/**
 * A known web graph with URLs served over HTTP on loopback, so a live crawl and an offline run
 * can be compared page for page.
 *
 * The graph is first taken as the crawler sees it: every URL normalised by the crawl rules,
 * pages whose URL the rules refuse left out (with the links to them), pages whose URLs
 * normalise alike merged. Its pages are numbered in URL order, the order a live round breaks
 * ties in. One node:http server answers for every host (by the Host header); each page is an
 * HTML page with a link to each of its out-links.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { normalizeUrl, urlRules } from '../../crawler/url.ts';
import { buildGraph, type LinkGraph } from '../../indexer/graph.ts';
import type { WebGraph } from '../../indexer/graph-files.ts';

export interface CrawlableGraph {
  /** Normalised URLs, ascending: page `p` is `urls[p]`. */
  urls: string[];
  graph: LinkGraph;
  pageOf: Map<string, number>;
}

export function crawlableGraph(web: WebGraph): CrawlableGraph {
  if (!web.urls) throw new Error('the graph has no URLs (nodes file)');
  const rules = urlRules();
  const normalised = web.urls.map((url) => {
    const check = normalizeUrl(url, rules);
    return check.ok ? check.url : undefined;
  });
  const urls = [...new Set(normalised.filter((u): u is string => u !== undefined))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const pageOf = new Map(urls.map((url, page) => [url, page]));
  const sources: number[] = [];
  const targets: number[] = [];
  const { outOffsets, outTargets, nodeCount } = web.graph;
  for (let u = 0; u < nodeCount; u++) {
    const from = normalised[u] === undefined ? undefined : pageOf.get(normalised[u]!);
    if (from === undefined) continue;
    for (let e = outOffsets[u]; e < outOffsets[u + 1]; e++) {
      const to = normalised[outTargets[e]];
      if (to !== undefined) {
        sources.push(from);
        targets.push(pageOf.get(to)!);
      }
    }
  }
  return { urls, graph: buildGraph(urls.length, sources, targets), pageOf };
}

/** Writes the graph as `lse experiment` reads it: `DIR/graph.nodes.tsv` (id url host) and `DIR/graph.edges.tsv`. */
export function writeGraphFiles(view: CrawlableGraph, dir: string): { nodes: string; edges: string } {
  const nodes = join(dir, 'graph.nodes.tsv');
  const edges = join(dir, 'graph.edges.tsv');
  writeFileSync(nodes, view.urls.map((url, page) => `${page}\t${url}\t${new URL(url).hostname}`).join('\n') + '\n');
  const lines: string[] = [];
  const { outOffsets, outTargets } = view.graph;
  for (let u = 0; u < view.urls.length; u++) for (let e = outOffsets[u]; e < outOffsets[u + 1]; e++) lines.push(`${u}\t${outTargets[e]}`);
  writeFileSync(edges, lines.join('\n') + '\n');
  return { nodes, edges };
}

export interface GraphWebServer {
  port: number;
  /** URLs requested (robots.txt excluded), in arrival order. */
  requested: string[];
  /** From now on the page has these links, or is gone (404) with `null`. */
  changePage(url: string, links: string[] | null): void;
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export async function serveGraphWeb(view: CrawlableGraph, onRequest?: (url: string) => void): Promise<GraphWebServer> {
  const requested: string[] = [];
  const changed = new Map<string, string[] | null>();
  const server = createServer((request, response) => {
    const url = `http://${request.headers.host}${request.url}`;
    const page = view.pageOf.get(url);
    if (request.url === '/robots.txt' || page === undefined || changed.get(url) === null) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    requested.push(url);
    onRequest?.(url);
    const { outOffsets, outTargets } = view.graph;
    const targets = changed.get(url) ?? Array.from(outTargets.subarray(outOffsets[page], outOffsets[page + 1]), (t) => view.urls[t]);
    const links = targets.map((target) => `<li><a href="${escapeHtml(target)}">${escapeHtml(target)}</a></li>`);
    // The page's own URL in its text keeps two pages with the same links from being duplicates.
    const body = `<!doctype html><html><head><title>Page ${page}</title></head><body><p>${escapeHtml(url)}</p><ul>${links.join('')}</ul></body></html>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requested,
    changePage: (url, links) => void changed.set(url, links),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
