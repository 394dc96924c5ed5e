/**
 * Reading web graphs from files (the I/O edge of the link-analysis core).
 *
 * Formats (tab- or space-separated, plain or gzip — detected by the gzip magic bytes):
 * - nodes: `id  url  host  [label]`, ids dense and 1-based (the `../shared/data/graphs` files);
 * - edges: `src  dst` per line, `#` comment lines allowed (SNAP style);
 * - PageRank: optional header, then `id  value` per line.
 *
 * Pages are renumbered densely `0 … n-1`; `ids[i]` keeps the file's id of page `i`, so vectors
 * read from other files (a reference PageRank) line up with the graph.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildGraph, GraphError, type LinkGraph } from './graph.ts';

export interface WebGraph {
  readonly graph: LinkGraph;
  /** The id each page has in the files. */
  readonly ids: Int32Array;
  /** Present when a nodes file was read. */
  readonly urls?: readonly string[];
  readonly hosts?: readonly string[];
  /** Fourth column of the nodes file (e.g. `liberal`), `''` where absent. */
  readonly labels?: readonly string[];
  /** Lines that could not be parsed (skipped), for the caller to report. */
  readonly skippedLines: number;
}

/** Reads a file as bytes, gunzipping it when it starts with the gzip magic number. */
export function readMaybeGzip(path: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new GraphError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return gunzipSync(bytes);
    } catch (error) {
      throw new GraphError(`${path} looks like gzip but cannot be decompressed: ${(error as Error).message}`);
    }
  }
  return bytes;
}

/**
 * Calls `onPair(a, b)` for every line of the form `INT <ws> INT [...]`, skipping blank lines and
 * `#` / `%` comments. Byte-level parsing: the notredame edge list (1.5 M lines) parses in well
 * under a second, where split-based parsing allocates a string per field. Returns the number of
 * malformed lines skipped.
 */
export function forEachIntegerPair(bytes: Uint8Array, onPair: (a: number, b: number) => void): number {
  let skipped = 0;
  let i = 0;
  const end = bytes.length;
  while (i < end) {
    let lineEnd = bytes.indexOf(10, i);
    if (lineEnd < 0) lineEnd = end;
    let p = i;
    while (p < lineEnd && (bytes[p] === 32 || bytes[p] === 9 || bytes[p] === 13)) p++;
    if (p < lineEnd && bytes[p] !== 35 && bytes[p] !== 37) {
      const values = [0, 0];
      let ok = true;
      for (let field = 0; field < 2 && ok; field++) {
        while (p < lineEnd && (bytes[p] === 32 || bytes[p] === 9)) p++;
        const start = p;
        let value = 0;
        while (p < lineEnd && bytes[p] >= 48 && bytes[p] <= 57) value = value * 10 + (bytes[p++] - 48);
        const next = p < lineEnd ? bytes[p] : 32;
        ok = p > start && (next === 32 || next === 9 || next === 13) && value <= 0x7fffffff;
        values[field] = value;
      }
      if (ok) onPair(values[0], values[1]);
      else skipped++;
    }
    i = lineEnd + 1;
  }
  return skipped;
}

interface NodeTable {
  ids: Int32Array;
  urls: string[];
  hosts: string[];
  labels: string[];
  skipped: number;
}

function readNodeTable(path: string): NodeTable {
  const text = readMaybeGzip(path).toString('utf8');
  const ids: number[] = [];
  const urls: string[] = [];
  const hosts: string[] = [];
  const labels: string[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.length === 0 || line.startsWith('#')) continue;
    const fields = line.replace(/\r$/, '').split('\t');
    const id = Number(fields[0]);
    if (!Number.isInteger(id) || id < 0 || fields.length < 2) {
      skipped++;
      continue;
    }
    ids.push(id);
    urls.push(fields[1]);
    hosts.push(fields[2] ?? '');
    labels.push(fields[3] ?? '');
  }
  if (ids.length === 0) throw new GraphError(`${path} holds no nodes`);
  return { ids: Int32Array.from(ids), urls, hosts, labels, skipped };
}

/** File id → dense page number. */
function positions(ids: ArrayLike<number>): Map<number, number> {
  const map = new Map<number, number>();
  for (let i = 0; i < ids.length; i++) map.set(ids[i], i);
  return map;
}

/**
 * Loads a graph from an edge list and, optionally, a nodes file. With a nodes file, its ids
 * define the pages (edges naming unknown ids are an error). Without one, the pages are the
 * ids that occur in the edge list, in ascending id order.
 */
export function loadWebGraph(options: { edges: string; nodes?: string }): WebGraph {
  const table = options.nodes ? readNodeTable(options.nodes) : undefined;
  const bytes = readMaybeGzip(options.edges);
  const sources: number[] = [];
  const targets: number[] = [];
  let unknown = 0;
  let skipped = 0;
  if (table) {
    const map = positions(table.ids);
    skipped = forEachIntegerPair(bytes, (a, b) => {
      const s = map.get(a);
      const t = map.get(b);
      if (s === undefined || t === undefined) unknown++;
      else {
        sources.push(s);
        targets.push(t);
      }
    });
    if (unknown > 0) throw new GraphError(`${options.edges}: ${unknown} edges name ids that are not in ${options.nodes}`);
    const graph = buildGraph(table.ids.length, sources, targets);
    return { graph, ids: table.ids, urls: table.urls, hosts: table.hosts, labels: table.labels, skippedLines: skipped + table.skipped };
  }
  // No nodes file: collect the ids, then number them in ascending order so that the numbering
  // does not depend on the order of the lines.
  skipped = forEachIntegerPair(bytes, (a, b) => {
    sources.push(a);
    targets.push(b);
  });
  const distinct = Int32Array.from(new Set([...sources, ...targets])).sort();
  if (distinct.length === 0) throw new GraphError(`${options.edges} holds no edges`);
  const map = positions(distinct);
  for (let e = 0; e < sources.length; e++) {
    sources[e] = map.get(sources[e])!;
    targets[e] = map.get(targets[e])!;
  }
  return { graph: buildGraph(distinct.length, sources, targets), ids: distinct, skippedLines: skipped };
}

/**
 * Reads a vector keyed by file id (`id value` lines, a non-numeric header allowed) into page
 * order. Every page must get a value.
 */
export function readPageVector(path: string, web: Pick<WebGraph, 'ids'>): Float64Array {
  const text = readMaybeGzip(path).toString('utf8');
  const position = positions(web.ids);
  const values = new Float64Array(web.ids.length).fill(Number.NaN);
  let lineNumber = 0;
  for (const line of text.split('\n')) {
    lineNumber++;
    const fields = line.trim().split(/\s+/);
    if (fields.length < 2 || fields[0] === '' || fields[0].startsWith('#')) continue;
    const id = Number(fields[0]);
    const value = Number(fields[1]);
    if (!Number.isFinite(id) || !Number.isFinite(value)) {
      if (lineNumber === 1) continue; // header
      throw new GraphError(`${path}:${lineNumber}: expected "id value", got "${line.slice(0, 80)}"`);
    }
    const index = position.get(id);
    if (index !== undefined) values[index] = value;
  }
  const missing = values.findIndex((v) => Number.isNaN(v));
  if (missing >= 0) throw new GraphError(`${path} has no value for page id ${web.ids[missing]}`);
  return values;
}
