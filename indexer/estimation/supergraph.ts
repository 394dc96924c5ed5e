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
import { compareKeys, IntList, mergeEdges, sortByKey } from './supergraph-arrays.ts';

/** A crawled page and the pages it links to (in any order; repeats and self-links are ignored). */
export interface FetchedPage<K> {
  readonly key: K;
  readonly links: ArrayLike<K>;
}

/**
 * The frontier in CSR form, candidates in ascending key order: candidate `c` is linked from
 * `linkers[linkerOffsets[c] … linkerOffsets[c+1])` (ids in F). Keys are read one at a time
 * ({@link keyAt}); `keys` materialises them all and is for tests and small graphs.
 */
export interface FrontierView<K> {
  readonly count: number;
  keyAt(candidate: number): K;
  readonly keys: readonly K[];
  readonly linkerOffsets: Int32Array;
  readonly linkers: Int32Array;
}

/** A crawled batch as parallel arrays: page `i` is `keys[i]`, linking to `links[linkOffsets[i] … linkOffsets[i+1])`. */
export interface PageBatch<K> {
  readonly keys: ArrayLike<K>;
  /** Page `b` links to `links[linkOffsets[b]] … links[linkOffsets[b+1] - 1]` (the first offset need not be 0). */
  readonly linkOffsets: Int32Array;
  readonly links: ArrayLike<K>;
}

/** Pages as one {@link PageBatch} (what a caller with per-page objects passes). */
export function pageBatchOf<K>(pages: ReadonlyArray<FetchedPage<K>>): PageBatch<K> {
  const linkOffsets = new Int32Array(pages.length + 1);
  for (let i = 0; i < pages.length; i++) linkOffsets[i + 1] = linkOffsets[i] + pages[i].links.length;
  const links: K[] = new Array(linkOffsets[pages.length]);
  for (let i = 0, w = 0; i < pages.length; i++) for (let l = 0; l < pages[i].links.length; l++) links[w++] = pages[i].links[l];
  return { keys: pages.map((p) => p.key), linkOffsets, links };
}

/**
 * Storage is typed arrays, not objects per page. The edges of F added since the last
 * {@link graph} wait in two parallel lists and are merged into the previous CSR graph (rows are
 * extended, not re-sorted). Each frontier candidate (a slot) keeps the linkers it had at the
 * last {@link frontierView} as a range of that view, plus a linked list of the linkers found
 * since; the next view merges the new candidates (sorted among themselves) into the kept key
 * order and copies the ranges. An iteration therefore costs O(frontier + linkers) sequential
 * copying plus the new pages' own work, with no per-page objects and no key array rebuilt.
 */
export class Supergraph<K> {
  private readonly keys: K[] = [];
  private readonly position = new Map<K, number>();
  /** Edges among pages of F added since {@link built} (graph() sorts and deduplicates them in). */
  private readonly edgeFrom = new IntList();
  private readonly edgeTo = new IntList();
  private built: LinkGraph | undefined;
  /** Frontier candidates: key → slot. Slots are never reused; a dead slot joined F or became unreachable. */
  private readonly slotOf = new Map<K, number>();
  private readonly slotKeys: K[] = [];
  /** Linkers found since the last view: a list through linkPage/linkNext, −1 when none. */
  private readonly slotHead = new IntList();
  private readonly slotTail = new IntList();
  /** The last linker appended (pages join in id order, so a repeat of it is a repeated link). */
  private readonly slotLast = new IntList();
  /** 1 while the slot is in the last view (its place there is found by key). */
  private readonly slotInView = new IntList();
  /** Slots that left the frontier since the last view. */
  private killedSlots: number[] = [];
  /** 1 while the slot's key is a candidate. */
  private readonly slotAlive = new IntList();
  /** Slots whose list is not empty (reset by the next view). */
  private readonly slotsWithNew = new IntList();
  /** Linker lists: entry e is page `linkPage[e]`, followed by entry `linkNext[e]` (−1 ends). */
  private readonly linkPage = new IntList();
  private readonly linkNext = new IntList();
  /** Live and dead slots in key order as of the last view, with that view's linkers; and the slots added since. */
  private view: FrontierView<K> | undefined;
  private viewSlots: Int32Array = new Int32Array(0);
  private pendingSlots: number[] = [];
  /** Pages that could not be crawled: never offered again. */
  private readonly unreachable = new Set<K>();
  private viewCurrent = false;
  readonly localCount: number;

  /** Starts `F = L` from the local pages and their links. */
  constructor(localPages: ReadonlyArray<FetchedPage<K>> | PageBatch<K>) {
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
  addPages(pages: ReadonlyArray<FetchedPage<K>> | PageBatch<K>): number[] {
    const batch = 'linkOffsets' in pages ? pages : pageBatchOf(pages as ReadonlyArray<FetchedPage<K>>);
    const { keys, linkOffsets, links } = batch;
    const added: number[] = [];
    const fresh: number[] = [];
    // Pass 1: give every new page its id first, so links inside the batch become edges.
    for (let b = 0; b < keys.length; b++) {
      const key = keys[b];
      if (this.position.has(key)) continue;
      const id = this.keys.length;
      this.keys.push(key);
      this.position.set(key, id);
      const slot = this.slotOf.get(key);
      if (slot !== undefined) {
        this.forEachLinker(slot, (linker) => this.addEdge(linker, id));
        this.slotOf.delete(key);
        this.slotAlive.data[slot] = 0;
        this.killedSlots.push(slot);
      }
      this.unreachable.delete(key);
      added.push(id);
      fresh.push(b);
    }
    // Pass 2: the new pages' own links. A page's links are read one after the other, so a
    // repeated link to a candidate finds this page as the candidate's last linker.
    for (let a = 0; a < fresh.length; a++) {
      const id = added[a];
      const b = fresh[a];
      const key = keys[b];
      for (let l = linkOffsets[b]; l < linkOffsets[b + 1]; l++) {
        const target = links[l];
        if (target === key) continue;
        const inF = this.position.get(target);
        if (inF !== undefined) this.addEdge(id, inF);
        else if (!this.unreachable.has(target)) this.addLinker(target, id);
      }
    }
    if (added.length > 0) this.viewCurrent = false;
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
      this.killedSlots.push(slot);
      this.viewCurrent = false;
    }
  }

  /** The link graph of `F` (internal links only): the last one with the edges added since merged in, O(|F| + links). */
  graph(): LinkGraph {
    const size = this.keys.length;
    if (this.built && this.built.nodeCount === size && this.edgeFrom.length === 0) return this.built;
    this.built = this.built
      ? mergeEdges(this.built, size, this.edgeFrom.data, this.edgeTo.data, this.edgeFrom.length)
      : buildGraph(size, this.edgeFrom.data, this.edgeTo.data, this.edgeFrom.length);
    this.edgeFrom.clear();
    this.edgeTo.clear();
    return this.built;
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
    if (this.view && this.viewCurrent) return this.view;
    const { slots, linkerOffsets, linkers } = this.mergedView(this.viewChanges());
    this.forgetPending();
    this.viewSlots = slots;
    this.view = frontierViewOf(slots, this.slotKeys, linkerOffsets, linkers);
    this.viewCurrent = true;
    return this.view;
  }

  /**
   * What changed since the last view: the new candidates in key order (so that selectors' ties
   * go to the lowest key, page id offline, URL live) and where they go in it; the places of its
   * candidates that left (joined F, unreachable) or gained linkers; and how many linkers the new
   * view has beyond the last one's. Found by binary search, so the unchanged runs of the view are
   * copied as they are, without a key comparison each.
   */
  private viewChanges(): ViewChanges {
    const alive = this.slotAlive.data;
    const inView = this.slotInView.data;
    const oldSlots = this.viewSlots;
    const oldOffsets = this.view?.linkerOffsets;
    const pending = sortByKey(
      this.pendingSlots.filter((slot) => alive[slot] === 1),
      this.slotKeys,
    );
    const changed = new Set<number>();
    for (const slot of this.killedSlots) if (inView[slot]) changed.add(this.viewPosition(slot));
    for (let i = 0; i < this.slotsWithNew.length; i++) {
      const slot = this.slotsWithNew.data[i];
      if (inView[slot] && alive[slot] === 1) changed.add(this.viewPosition(slot));
    }
    const edits = Int32Array.from(changed).sort();
    let extra = 0;
    for (const slot of pending) extra += this.newLinkerCount(slot);
    for (const o of edits) extra += alive[oldSlots[o]] === 1 ? this.newLinkerCount(oldSlots[o]) : oldOffsets![o] - oldOffsets![o + 1];
    return { pending, inserts: pending.map((slot) => this.insertionPoint(this.slotKeys[slot])), edits, extra };
  }

  /** The new view: the last one's unchanged runs copied in bulk, edited candidates rewritten, new ones inserted. */
  private mergedView({ pending, inserts, edits, extra }: ViewChanges): { slots: Int32Array; linkerOffsets: Int32Array; linkers: Int32Array } {
    const alive = this.slotAlive.data;
    const inView = this.slotInView.data;
    const head = this.slotHead.data;
    const next = this.linkNext.data;
    const page = this.linkPage.data;
    const oldSlots = this.viewSlots;
    const oldOffsets = this.view?.linkerOffsets ?? new Int32Array(1);
    const oldLinkers = this.view?.linkers ?? new Int32Array(0);
    const count = this.slotOf.size;
    const slots = new Int32Array(count);
    const linkerOffsets = new Int32Array(count + 1);
    const linkers = new Int32Array(oldLinkers.length + extra);
    let c = 0;
    /** Appends a candidate: its linkers kept from the last view (`oldLinkers[from … to)`), then the new ones. */
    const append = (slot: number, from: number, to: number) => {
      linkers.set(oldLinkers.subarray(from, to), linkerOffsets[c]);
      let at = linkerOffsets[c] + to - from;
      for (let e = head[slot]; e !== -1; e = next[e]) linkers[at++] = page[e];
      slots[c] = slot;
      linkerOffsets[++c] = at;
    };
    let o = 0;
    let p = 0;
    let q = 0;
    while (o < oldSlots.length || p < pending.length) {
      // The unchanged run of old candidates before the next edit or insert.
      const stop = Math.min(q < edits.length ? edits[q] : oldSlots.length, p < pending.length ? inserts[p] : oldSlots.length);
      if (stop > o) {
        slots.set(oldSlots.subarray(o, stop), c);
        const shift = linkerOffsets[c] - oldOffsets[o];
        linkers.set(oldLinkers.subarray(oldOffsets[o], oldOffsets[stop]), linkerOffsets[c]);
        for (let i = o; i < stop; i++) linkerOffsets[++c] = oldOffsets[i + 1] + shift;
        o = stop;
      }
      if (p < pending.length && inserts[p] === o) {
        append(pending[p++], 0, 0);
        continue;
      }
      if (o >= oldSlots.length) continue;
      // An edited old candidate: dropped, or its kept linkers then the new ones.
      const slot = oldSlots[o];
      if (alive[slot] === 1) append(slot, oldOffsets[o], oldOffsets[o + 1]);
      else inView[slot] = 0;
      o++;
      q++;
    }
    if (c !== count || linkerOffsets[count] !== linkers.length) throw new Error(`frontier view of ${c} candidates and ${linkerOffsets[c]} linkers, expected ${count} and ${linkers.length}`);
    for (const slot of pending) inView[slot] = 1;
    return { slots, linkerOffsets, linkers };
  }

  /** Empties the lists of what was found since the last view (now in it). */
  private forgetPending(): void {
    for (let i = 0; i < this.slotsWithNew.length; i++) {
      const slot = this.slotsWithNew.data[i];
      this.slotHead.data[slot] = -1;
      this.slotTail.data[slot] = -1;
    }
    this.pendingSlots = [];
    this.slotsWithNew.clear();
    this.killedSlots = [];
    this.linkPage.clear();
    this.linkNext.clear();
  }

  private newLinkerCount(slot: number): number {
    let n = 0;
    for (let e = this.slotHead.data[slot]; e !== -1; e = this.linkNext.data[e]) n++;
    return n;
  }

  /** The place of a slot of the last view in it (binary search by key). */
  private viewPosition(slot: number): number {
    const at = this.insertionPoint(this.slotKeys[slot]);
    if (this.viewSlots[at] !== slot) throw new Error(`frontier slot ${slot} is not at its place in the view`);
    return at;
  }

  /** How many candidates of the last view (live or not) have a key below `key`. */
  private insertionPoint(key: K): number {
    let lo = 0;
    let hi = this.viewSlots.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareKeys(this.slotKeys[this.viewSlots[mid]], key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Every linker of a slot: its range in the last view, then the ones found since. */
  private forEachLinker(slot: number, visit: (page: number) => void): void {
    if (this.slotInView.data[slot] && this.view) {
      const at = this.viewPosition(slot);
      for (let e = this.view.linkerOffsets[at]; e < this.view.linkerOffsets[at + 1]; e++) visit(this.view.linkers[e]);
    }
    for (let e = this.slotHead.data[slot]; e !== -1; e = this.linkNext.data[e]) visit(this.linkPage.data[e]);
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
      this.slotLast.push(-1);
      this.slotInView.push(0);
      this.slotAlive.push(1);
      this.slotOf.set(key, slot);
      this.pendingSlots.push(slot);
    } else if (this.slotLast.data[slot] === id) {
      return;
    }
    this.slotLast.data[slot] = id;
    const entry = this.linkPage.push(id);
    this.linkNext.push(-1);
    const tail = this.slotTail.data[slot];
    if (tail === -1) {
      this.slotHead.data[slot] = entry;
      this.slotsWithNew.push(slot);
    } else {
      this.linkNext.data[tail] = entry;
    }
    this.slotTail.data[slot] = entry;
  }
}

/** See Supergraph.viewChanges. */
interface ViewChanges {
  pending: number[];
  inserts: number[];
  edits: Int32Array;
  extra: number;
}

function frontierViewOf<K>(slots: Int32Array, slotKeys: readonly K[], linkerOffsets: Int32Array, linkers: Int32Array): FrontierView<K> {
  let keys: K[] | undefined;
  return {
    count: slots.length,
    keyAt: (candidate) => slotKeys[slots[candidate]],
    get keys() {
      keys ??= Array.from(slots, (slot) => slotKeys[slot]);
      return keys;
    },
    linkerOffsets,
    linkers,
  };
}

