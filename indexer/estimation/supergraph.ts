/**
 * The supergraph `F ⊇ L` that FindGlobalPR grows, with its frontier `F_out` (pages linked from
 * `F` but not in it). Pages are identified by a key of the caller's choice — a page number in
 * an offline experiment, a URL on the live crawl — and numbered densely in the order they join;
 * the local pages come first, so `L = 0 … localCount-1`.
 *
 * Only links among pages of `F` are edges of the ranked graph (ALGORITHMS.md §1); a link to a
 * page outside `F` makes that page a frontier candidate with a linker in `F`.
 */
import { graphFromAdjacency, type LinkGraph } from '../graph.ts';

/** A crawled page and the pages it links to (in any order; repeats and self-links are ignored). */
export interface FetchedPage<K> {
  readonly key: K;
  readonly links: ArrayLike<K>;
}

/** The frontier in CSR form, candidates in ascending key order: candidate `c` is linked from `linkers[linkerOffsets[c] … linkerOffsets[c+1])` (ids in F). */
export interface FrontierView<K> {
  readonly keys: readonly K[];
  readonly linkerOffsets: Int32Array;
  readonly linkers: Int32Array;
}

export class Supergraph<K> {
  private readonly keys: K[] = [];
  private readonly position = new Map<K, number>();
  private readonly adjacency: number[][] = [];
  /** Frontier candidates with their linkers in F. */
  private readonly frontier = new Map<K, number[]>();
  /** Pages that could not be crawled: never offered again. */
  private readonly unreachable = new Set<K>();
  private cachedGraph: LinkGraph | undefined;
  private cachedFrontier: FrontierView<K> | undefined;
  readonly localCount: number;

  /** Starts `F = L` from the local pages and their links. */
  constructor(localPages: ReadonlyArray<FetchedPage<K>>) {
    this.addPages(localPages);
    this.localCount = this.keys.length;
  }

  get size(): number {
    return this.keys.length;
  }

  get frontierSize(): number {
    return this.frontier.size;
  }

  keyOf(page: number): K {
    return this.keys[page];
  }

  pageOf(key: K): number | undefined {
    return this.position.get(key);
  }

  has(key: K): boolean {
    return this.position.has(key);
  }

  /**
   * Adds crawled pages to `F`. Links from `F` to them become edges; their own links become
   * edges (to pages of `F`, this batch included) or frontier entries. Pages already in `F`
   * are ignored. Returns the ids of the pages added.
   */
  addPages(pages: ReadonlyArray<FetchedPage<K>>): number[] {
    const added: number[] = [];
    const fresh: FetchedPage<K>[] = [];
    // Pass 1: give every new page its id first, so links inside the batch become edges.
    for (const page of pages) {
      if (this.position.has(page.key)) continue;
      const id = this.keys.length;
      this.keys.push(page.key);
      this.position.set(page.key, id);
      this.adjacency.push([]);
      const linkers = this.frontier.get(page.key);
      if (linkers) {
        for (const linker of linkers) this.adjacency[linker].push(id);
        this.frontier.delete(page.key);
      }
      this.unreachable.delete(page.key);
      added.push(id);
      fresh.push(page);
    }
    // Pass 2: the new pages' own links.
    for (let a = 0; a < fresh.length; a++) {
      const id = added[a];
      const page = fresh[a];
      const seen = new Set<K>();
      for (let l = 0; l < page.links.length; l++) {
        const target = page.links[l];
        if (target === page.key || seen.has(target)) continue;
        seen.add(target);
        const inF = this.position.get(target);
        if (inF !== undefined) {
          this.adjacency[id].push(inF);
        } else if (!this.unreachable.has(target)) {
          const linkers = this.frontier.get(target);
          if (linkers) linkers.push(id);
          else this.frontier.set(target, [id]);
        }
      }
    }
    if (added.length > 0 || fresh.length > 0) this.invalidate();
    return added;
  }

  /** Removes candidates that could not be crawled (404, robots, …) so they are not chosen again. */
  markUnreachable(keys: Iterable<K>): void {
    for (const key of keys) {
      if (this.position.has(key)) continue;
      this.unreachable.add(key);
      if (this.frontier.delete(key)) this.cachedFrontier = undefined;
    }
  }

  /** The link graph of `F` (internal links only). Rebuilt after each change, O(|F| + links). */
  graph(): LinkGraph {
    this.cachedGraph ??= graphFromAdjacency(this.adjacency);
    return this.cachedGraph;
  }

  /** The local pages' ids, `0 … localCount-1` (they come first): the pages an estimate is restricted to. */
  localIds(): Int32Array {
    return Int32Array.from({ length: this.localCount }, (_, i) => i);
  }

  /** 1 for local pages (ids below `localCount`). */
  localMask(): Uint8Array {
    const mask = new Uint8Array(this.keys.length);
    mask.fill(1, 0, this.localCount);
    return mask;
  }

  frontierView(): FrontierView<K> {
    if (this.cachedFrontier) return this.cachedFrontier;
    const keys: K[] = [];
    const linkerOffsets = new Int32Array(this.frontier.size + 1);
    let total = 0;
    let c = 0;
    // Candidates in ascending key order, so that selectors' ties go to the lowest key (page id
    // offline, URL live) whatever order the pages were discovered in.
    const entries = [...this.frontier];
    if (entries.length > 0 && typeof entries[0][0] === 'number') entries.sort((a, b) => (a[0] as number) - (b[0] as number));
    else entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [key, linkers] of entries) {
      keys.push(key);
      total += linkers.length;
      linkerOffsets[++c] = total;
    }
    const linkers = new Int32Array(total);
    let write = 0;
    for (const [, list] of entries) for (const linker of list) linkers[write++] = linker;
    this.cachedFrontier = { keys, linkerOffsets, linkers };
    return this.cachedFrontier;
  }

  private invalidate(): void {
    this.cachedGraph = undefined;
    this.cachedFrontier = undefined;
  }
}
