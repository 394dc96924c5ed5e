/**
 * The supergraph `F ⊇ L` that FindGlobalPR grows, with its frontier `F_out` (pages linked from
 * `F` but not in it). Pages are identified by a key of the caller's choice — a page number in
 * an offline experiment, a URL on the live crawl — and numbered densely in the order they join;
 * the local pages come first, so `L = 0 … localCount-1`.
 *
 * Only links among pages of `F` are edges of the ranked graph (docs/estimation.md); a link to a
 * page outside `F` makes that page a frontier candidate with a linker in `F`.
 */
import { buildGraph, type LinkGraph } from '../graph.ts';

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

/** A growable Int32Array. */
class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): number {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length] = value;
    return this.length++;
  }
}

const compareKeys = <K>(a: K, b: K): number => (typeof a === 'number' ? (a as number) - (b as unknown as number) : a < b ? -1 : a > b ? 1 : 0);

/**
 * Storage is typed arrays, not objects per page: the edges of F as two parallel lists, and each
 * frontier candidate's linkers as a linked list through shared arrays (appended in the order the
 * linkers joined F). The candidates' key order is kept across iterations: a view sorts only the
 * candidates found since the last one and merges them in, O(frontier + linkers) per iteration.
 */
export class Supergraph<K> {
  private readonly keys: K[] = [];
  private readonly position = new Map<K, number>();
  /** Edges among pages of F (graph() sorts and deduplicates). */
  private readonly edgeFrom = new IntList();
  private readonly edgeTo = new IntList();
  /** Frontier candidates: key → slot. Slots are never reused; a dead slot joined F or became unreachable. */
  private readonly slotOf = new Map<K, number>();
  private readonly slotKeys: K[] = [];
  private readonly slotHead = new IntList();
  private readonly slotTail = new IntList();
  private readonly slotLinkers = new IntList();
  /** 1 while the slot's key is a candidate. */
  private readonly slotAlive = new IntList();
  /** Linker lists: entry e is page `linkPage[e]`, followed by entry `linkNext[e]` (−1 ends). */
  private readonly linkPage = new IntList();
  private readonly linkNext = new IntList();
  /** Live slots in key order as of the last view, and the slots added since. */
  private sortedSlots = new Int32Array(0);
  private pendingSlots: number[] = [];
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
    return this.slotOf.size;
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
      const slot = this.slotOf.get(page.key);
      if (slot !== undefined) {
        for (let e = this.slotHead.data[slot]; e !== -1; e = this.linkNext.data[e]) this.addEdge(this.linkPage.data[e], id);
        this.slotOf.delete(page.key);
        this.slotAlive.data[slot] = 0;
      }
      this.unreachable.delete(page.key);
      added.push(id);
      fresh.push(page);
    }
    // Pass 2: the new pages' own links. A page's links are read one after the other, so a
    // repeated link to a candidate finds this page already at the end of its linker list.
    for (let a = 0; a < fresh.length; a++) {
      const id = added[a];
      const page = fresh[a];
      for (let l = 0; l < page.links.length; l++) {
        const target = page.links[l];
        if (target === page.key) continue;
        const inF = this.position.get(target);
        if (inF !== undefined) this.addEdge(id, inF);
        else if (!this.unreachable.has(target)) this.addLinker(target, id);
      }
    }
    if (added.length > 0) this.invalidate();
    return added;
  }

  /** Removes candidates that could not be crawled (404, robots, …) so they are not chosen again. */
  markUnreachable(keys: Iterable<K>): void {
    for (const key of keys) {
      if (this.position.has(key)) continue;
      this.unreachable.add(key);
      const slot = this.slotOf.get(key);
      if (slot === undefined) continue;
      this.slotOf.delete(key);
      this.slotAlive.data[slot] = 0;
      this.cachedFrontier = undefined;
    }
  }

  /** The link graph of `F` (internal links only). Rebuilt after each change, O(|F| + links). */
  graph(): LinkGraph {
    this.cachedGraph ??= buildGraph(this.keys.length, this.edgeFrom.data, this.edgeTo.data, this.edgeFrom.length);
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
    // Candidates in ascending key order, so that selectors' ties go to the lowest key (page id
    // offline, URL live) whatever order the pages were discovered in.
    const alive = this.slotAlive.data;
    const live = (slot: number) => alive[slot] === 1;
    const pending = this.pendingSlots.filter(live).sort((a, b) => compareKeys(this.slotKeys[a], this.slotKeys[b]));
    this.pendingSlots = [];
    const old = this.sortedSlots;
    const sorted = new Int32Array(this.slotOf.size);
    let write = 0;
    let p = 0;
    for (let o = 0; o < old.length; o++) {
      const slot = old[o];
      if (!live(slot)) continue;
      while (p < pending.length && compareKeys(this.slotKeys[pending[p]], this.slotKeys[slot]) < 0) sorted[write++] = pending[p++];
      sorted[write++] = slot;
    }
    while (p < pending.length) sorted[write++] = pending[p++];
    this.sortedSlots = sorted;

    const keys: K[] = new Array(sorted.length);
    const linkerOffsets = new Int32Array(sorted.length + 1);
    for (let c = 0; c < sorted.length; c++) {
      keys[c] = this.slotKeys[sorted[c]];
      linkerOffsets[c + 1] = linkerOffsets[c] + this.slotLinkers.data[sorted[c]];
    }
    const linkers = new Int32Array(linkerOffsets[sorted.length]);
    let at = 0;
    for (let c = 0; c < sorted.length; c++) {
      for (let e = this.slotHead.data[sorted[c]]; e !== -1; e = this.linkNext.data[e]) linkers[at++] = this.linkPage.data[e];
    }
    this.cachedFrontier = { keys, linkerOffsets, linkers };
    return this.cachedFrontier;
  }

  private addEdge(from: number, to: number): void {
    this.edgeFrom.push(from);
    this.edgeTo.push(to);
  }

  /** Page `id` links to the candidate `key`: appended to its linkers (once). */
  private addLinker(key: K, id: number): void {
    let slot = this.slotOf.get(key);
    if (slot === undefined) {
      slot = this.slotKeys.length;
      this.slotKeys.push(key);
      this.slotHead.push(-1);
      this.slotTail.push(-1);
      this.slotLinkers.push(0);
      this.slotAlive.push(1);
      this.slotOf.set(key, slot);
      this.pendingSlots.push(slot);
    } else if (this.linkPage.data[this.slotTail.data[slot]] === id) {
      return;
    }
    const entry = this.linkPage.push(id);
    this.linkNext.push(-1);
    const tail = this.slotTail.data[slot];
    if (tail === -1) this.slotHead.data[slot] = entry;
    else this.linkNext.data[tail] = entry;
    this.slotTail.data[slot] = entry;
    this.slotLinkers.data[slot]++;
  }

  private invalidate(): void {
    this.cachedGraph = undefined;
    this.cachedFrontier = undefined;
  }
}
