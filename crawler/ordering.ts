/**
 * Crawl ordering metrics (docs/crawling.md): which discovered URL to fetch next.
 *
 * An ordering sees only page ids (the store's dense URL ids) and the links of fetched pages; it
 * does no I/O, so it is tested directly and rebuilt from the store when a crawl resumes (replay
 * `discover` for the frontier and `fetched` for the pages in the order they were fetched).
 *
 * - `bfs`: breadth first.
 * - `backlinks`: most in-links from fetched pages first (Cho et al.'s IB').
 * - `pagerank`: highest partial PageRank of the known graph first, recomputed as the graph grows (IR').
 * - `rankmass`: Cho & Schonfeld's RankMass: the page with the largest lower bound `rm_i` on its
 *   personalised PageRank (trust on the seeds) first; `coverage()` is the guaranteed mass CRM.
 * - `windowed-rankmass`: the top `window` share of the frontier by `rm` at once, then propagate.
 * - `lneighbor`: breadth first by levels from the seeds; after level L, coverage ≥ 1 − d^{L+1}
 *   (only if no link was left out: a scoped crawl should report {@link rankMassLowerBound}).
 * - `focused`: a hot queue (URLs whose anchor text or URL match the topic, or near a hot page)
 *   served before the rest, each breadth first.
 */
import { graphFromAdjacency } from '../indexer/graph.ts';
import { pageRank } from '../indexer/pagerank.ts';
import { LazyMaxHeap } from './priority-heap.ts';

export const ORDERING_NAMES = ['bfs', 'backlinks', 'pagerank', 'rankmass', 'windowed-rankmass', 'lneighbor', 'focused'] as const;
export type OrderingName = (typeof ORDERING_NAMES)[number];

export interface Discovery {
  id: number;
  depth: number;
  /** A seed: trusted by RankMass and L-Neighbor. */
  seed?: boolean;
  /** Focused crawling: goes to the hot queue. */
  hot?: boolean;
}

export interface CrawlOrdering {
  readonly name: OrderingName;
  /** A URL to fetch was found (a seed, or a link of a fetched page). Repeats are ignored. */
  discover(found: Discovery): void;
  /** The next page to fetch; undefined when none is waiting. */
  next(): number | undefined;
  /**
   * A page given by `next()` was fetched. `links` are the ids of its links that the crawl
   * follows (already `discover`ed); `outDegree` counts all its links, followed or not.
   */
  fetched(id: number, links: readonly number[], outDegree?: number): void;
  /** A page given by `next()` could not be fetched. */
  failed(id: number): void;
  /** Pages discovered and not handed out yet. */
  readonly waiting: number;
  /** Guaranteed share of PageRank mass downloaded, where the ordering can bound it. */
  coverage(): number | undefined;
}

export interface OrderingOptions {
  /** Damping factor d of RankMass / L-Neighbor / partial PageRank (default 0.85). */
  damping?: number;
  /** Windowed RankMass: share of the frontier taken at once (default 0.1). */
  window?: number;
  /** Partial PageRank: recompute when the number of fetched pages grew by this share (default 0.1, at least 50 pages). */
  recomputeShare?: number;
  /**
   * RankMass: mass below this is not propagated (default 1e-9). The crawl sets ε / (10 · max
   * pages): the mass left unsettled over all pages then stays a tenth of ε.
   */
  massFloor?: number;
}

export class OrderingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OrderingError';
  }
}

export function createOrdering(name: string, options: OrderingOptions = {}): CrawlOrdering {
  const d = options.damping ?? 0.85;
  if (!(d > 0 && d < 1)) throw new OrderingError(`damping must be in (0, 1), got ${d}`);
  switch (name) {
    case 'bfs':
      return new QueueOrdering('bfs', d);
    case 'lneighbor':
      return new QueueOrdering('lneighbor', d);
    case 'focused':
      return new QueueOrdering('focused', d);
    case 'backlinks':
      return new BacklinkOrdering();
    case 'pagerank':
      return new PartialPageRankOrdering(d, options.recomputeShare ?? 0.1);
    case 'rankmass':
      return new RankMassOrdering(d, undefined, options.massFloor ?? 1e-9);
    case 'windowed-rankmass': {
      const window = options.window ?? 0.1;
      if (!(window > 0 && window <= 1)) throw new OrderingError(`window must be in (0, 1], got ${window}`);
      return new RankMassOrdering(d, window, options.massFloor ?? 1e-9);
    }
    default:
      throw new OrderingError(`unknown ordering "${name}"; choose from ${ORDERING_NAMES.join(', ')}`);
  }
}

/** Breadth first (FIFO), with a hot queue for focused crawling and level accounting for L-Neighbor. */
class QueueOrdering implements CrawlOrdering {
  private readonly seen = new Set<number>();
  private readonly queues: number[][] = [[], []];
  private readonly heads = [0, 0];
  private readonly depthOf = new Map<number, number>();
  /** Pages of each depth not finished (fetched or failed) yet. */
  private readonly unfinished: number[] = [];

  constructor(
    readonly name: 'bfs' | 'lneighbor' | 'focused',
    private readonly damping: number,
  ) {}

  get waiting(): number {
    return this.queues[0].length - this.heads[0] + this.queues[1].length - this.heads[1];
  }

  discover(found: Discovery): void {
    if (this.seen.has(found.id)) return;
    this.seen.add(found.id);
    const depth = found.seed ? 0 : found.depth;
    this.depthOf.set(found.id, depth);
    this.unfinished[depth] = (this.unfinished[depth] ?? 0) + 1;
    this.queues[this.name === 'focused' && found.hot ? 0 : 1].push(found.id);
  }

  next(): number | undefined {
    for (let q = 0; q < 2; q++) {
      if (this.heads[q] < this.queues[q].length) {
        const id = this.queues[q][this.heads[q]++];
        if (this.heads[q] > 4096 && this.heads[q] * 2 > this.queues[q].length) {
          this.queues[q] = this.queues[q].slice(this.heads[q]);
          this.heads[q] = 0;
        }
        return id;
      }
    }
    return undefined;
  }

  fetched(id: number): void {
    this.finish(id);
  }

  failed(id: number): void {
    this.finish(id);
  }

  private finish(id: number): void {
    const depth = this.depthOf.get(id);
    if (depth === undefined) return;
    this.depthOf.delete(id);
    this.unfinished[depth]--;
  }

  coverage(): number | undefined {
    if (this.name !== 'lneighbor') return undefined;
    // Completed levels: every page at depth ≤ L finished.
    let level = -1;
    while (level + 1 < this.unfinished.length && this.unfinished[level + 1] === 0) level++;
    // Every level finished and nothing waiting: all reachable pages are downloaded.
    if (level >= 0 && level === this.unfinished.length - 1 && this.waiting === 0) return 1;
    return level < 0 ? 0 : 1 - this.damping ** (level + 1);
  }
}

/** Most in-links from fetched pages first. */
class BacklinkOrdering implements CrawlOrdering {
  readonly name = 'backlinks' as const;
  private readonly heap = new LazyMaxHeap();
  private readonly count = new Map<number, number>();
  private readonly waitingSet = new Set<number>();
  private readonly seen = new Set<number>();

  get waiting(): number {
    return this.waitingSet.size;
  }

  discover(found: Discovery): void {
    if (this.seen.has(found.id)) return;
    this.seen.add(found.id);
    this.waitingSet.add(found.id);
    this.heap.push(found.id, this.count.get(found.id) ?? 0);
  }

  next(): number | undefined {
    const top = this.heap.pop((id, priority) => this.waitingSet.has(id) && (this.count.get(id) ?? 0) === priority);
    if (!top) return undefined;
    this.waitingSet.delete(top.item);
    return top.item;
  }

  fetched(_id: number, links: readonly number[]): void {
    for (const target of new Set(links)) {
      const c = (this.count.get(target) ?? 0) + 1;
      this.count.set(target, c);
      if (this.waitingSet.has(target)) this.heap.push(target, c);
    }
  }

  failed(): void {}

  coverage(): undefined {
    return undefined;
  }
}

/** Highest partial PageRank first, recomputed over the known graph as it grows. */
class PartialPageRankOrdering implements CrawlOrdering {
  readonly name = 'pagerank' as const;
  private readonly heap = new LazyMaxHeap();
  private readonly priority = new Map<number, number>();
  private readonly waitingSet = new Set<number>();
  private readonly seen = new Set<number>();
  /** Known graph: out-links of fetched pages, by position in `nodes`. */
  private readonly nodes: number[] = [];
  private readonly position = new Map<number, number>();
  private readonly rows: number[][] = [];
  private rank = new Map<number, number>();
  private fetchedCount = 0;
  private lastRecompute = 0;

  constructor(
    private readonly damping: number,
    private readonly recomputeShare: number,
  ) {}

  get waiting(): number {
    return this.waitingSet.size;
  }

  private node(id: number): number {
    let p = this.position.get(id);
    if (p === undefined) {
      p = this.nodes.length;
      this.nodes.push(id);
      this.position.set(id, p);
      this.rows.push([]);
    }
    return p;
  }

  discover(found: Discovery): void {
    if (this.seen.has(found.id)) return;
    this.seen.add(found.id);
    this.node(found.id);
    this.waitingSet.add(found.id);
    this.setPriority(found.id, this.rank.get(found.id) ?? 0);
  }

  private setPriority(id: number, value: number): void {
    this.priority.set(id, value);
    if (this.waitingSet.has(id)) this.heap.push(id, value);
  }

  next(): number | undefined {
    const top = this.heap.pop((id, p) => this.waitingSet.has(id) && this.priority.get(id) === p);
    if (!top) return undefined;
    this.waitingSet.delete(top.item);
    return top.item;
  }

  fetched(id: number, links: readonly number[]): void {
    const source = this.node(id);
    this.rows[source] = links.map((t) => this.node(t));
    this.fetchedCount++;
    // Until the next recomputation, a new link passes on a share of its source's rank (flow).
    const share = links.length > 0 ? (this.rank.get(id) ?? 0) / links.length : 0;
    for (const t of links) if (this.waitingSet.has(t) && share > 0) this.setPriority(t, (this.priority.get(t) ?? 0) + this.damping * share);
    if (this.fetchedCount - this.lastRecompute >= Math.max(50, this.recomputeShare * this.lastRecompute)) this.recompute();
  }

  private recompute(): void {
    this.lastRecompute = this.fetchedCount;
    const result = pageRank(graphFromAdjacency(this.rows), { alpha: this.damping, tolerance: 1e-6 });
    this.rank = new Map(this.nodes.map((id, p) => [id, result.rank[p]]));
    for (const id of this.waitingSet) this.setPriority(id, this.rank.get(id) ?? 0);
  }

  failed(): void {}

  coverage(): undefined {
    return undefined;
  }
}

/** RankMass and Windowed RankMass (Cho & Schonfeld). */
class RankMassOrdering implements CrawlOrdering {
  readonly name: 'rankmass' | 'windowed-rankmass';
  private readonly heap = new LazyMaxHeap();
  /** rm_i: mass received and not yet propagated. */
  private readonly rm = new Map<number, number>();
  /** Mass held by pages handed out and not fetched yet. */
  private readonly reserved = new Map<number, number>();
  private readonly links = new Map<number, { targets: readonly number[]; degree: number }>();
  private readonly waitingSet = new Set<number>();
  private readonly seen = new Set<number>();
  private readonly seeds: number[] = [];
  private batch: number[] = [];
  private crm = 0;

  constructor(
    private readonly damping: number,
    private readonly window: number | undefined,
    /**
     * Mass below this is not propagated. Left unsettled it only keeps CRM a (slightly lower)
     * valid bound, while circulating ever-smaller amounts among fetched pages made each pick cost
     * thousands of propagations (a 900-page crawl: 70 s of CPU at 1e-15, 25 s at 1e-9).
     */
    private readonly floor: number,
  ) {
    this.name = window === undefined ? 'rankmass' : 'windowed-rankmass';
  }

  get waiting(): number {
    return this.waitingSet.size;
  }

  discover(found: Discovery): void {
    if (this.seen.has(found.id)) return;
    this.seen.add(found.id);
    this.waitingSet.add(found.id);
    if (found.seed) {
      // The trust vector is uniform over the seeds, so every seed's initial mass depends on how
      // many there are: they must all be known before mass starts to move.
      if (this.links.size > 0 || this.reserved.size > 0) throw new OrderingError('RankMass: seeds must be given before the first page is fetched');
      this.seeds.push(found.id);
      const share = (1 - this.damping) / this.seeds.length;
      for (const s of this.seeds) {
        this.rm.set(s, share);
        this.heap.push(s, share);
      }
    } else if ((this.rm.get(found.id) ?? 0) > 0) {
      this.heap.push(found.id, this.rm.get(found.id)!);
    }
  }

  private add(id: number, amount: number): void {
    if (amount <= 0) return;
    const value = (this.rm.get(id) ?? 0) + amount;
    this.rm.set(id, value);
    if (this.waitingSet.has(id) || this.links.has(id)) this.heap.push(id, value);
  }

  private current = (id: number, priority: number) => priority > this.floor && (this.rm.get(id) ?? 0) === priority && !this.reserved.has(id);

  /** Pushes the mass of fetched pages on until the best entry belongs to a page not fetched yet. */
  private settleFetched(): void {
    for (;;) {
      const top = this.heap.peek(this.current);
      if (!top || !this.links.has(top.item)) return;
      this.heap.pop(this.current);
      this.rm.set(top.item, 0);
      this.propagate(top.item, top.priority);
    }
  }

  private propagate(id: number, mass: number): void {
    this.crm += mass;
    const { targets, degree } = this.links.get(id)!;
    if (degree === 0) return;
    const share = (this.damping * mass) / degree;
    for (const t of targets) this.add(t, share);
  }

  next(): number | undefined {
    if (this.window !== undefined) {
      if (this.batch.length === 0) this.fillWindow();
      return this.batch.shift();
    }
    this.settleFetched();
    const top = this.heap.pop((id, p) => this.current(id, p) && this.waitingSet.has(id));
    if (!top) return this.anyWaiting();
    return this.handOut(top.item);
  }

  private handOut(id: number): number {
    this.reserved.set(id, this.rm.get(id) ?? 0);
    this.rm.set(id, 0);
    this.waitingSet.delete(id);
    return id;
  }

  /** Pages without meaningful mass come last, in the order they were found. */
  private anyWaiting(): number | undefined {
    for (const id of this.waitingSet) return this.handOut(id);
    return undefined;
  }

  private fillWindow(): void {
    this.settleFetched();
    const take = Math.max(1, Math.ceil(this.window! * this.waitingSet.size));
    while (this.batch.length < take) {
      const top = this.heap.pop((id, p) => this.current(id, p) && this.waitingSet.has(id));
      if (!top) break;
      this.batch.push(this.handOut(top.item));
    }
    if (this.batch.length === 0) {
      const any = this.anyWaiting();
      if (any !== undefined) this.batch.push(any);
    }
  }

  fetched(id: number, links: readonly number[], outDegree = links.length): void {
    const mass = (this.reserved.get(id) ?? 0) + (this.rm.get(id) ?? 0);
    this.reserved.delete(id);
    this.rm.set(id, 0);
    this.links.set(id, { targets: [...new Set(links)], degree: Math.max(outDegree, new Set(links).size) });
    this.propagate(id, mass);
  }

  failed(id: number): void {
    // Its mass cannot be downloaded: the bound stays valid without it.
    this.reserved.delete(id);
    this.links.set(id, { targets: [], degree: 0 });
  }

  coverage(): number {
    return this.crm;
  }
}

/**
 * A guaranteed lower bound on the personalised PageRank mass (trust uniform on `seeds`,
 * damping d) held by the fetched pages, whatever order they were fetched in: push the mass
 * along links among fetched pages and count what settles on them (RankMass's CRM).
 * `links(i)` gives the followed links of fetched page i (no repeats), `outDegree(i)` all its links.
 */
export function rankMassLowerBound(
  seeds: readonly number[],
  isFetched: (id: number) => boolean,
  links: (id: number) => readonly number[],
  outDegree: (id: number) => number,
  damping = 0.85,
  tolerance = 1e-9,
): number {
  const trusted = seeds.filter(isFetched);
  if (seeds.length === 0) return 0;
  // Residual mass by page id (ids are dense), in a typed array: a Map of doubles boxed every
  // update, ~100 MB of garbage at the end of an 8,000-page crawl.
  let residual = new Float64Array(1024);
  const residualAt = (id: number) => (id < residual.length ? residual[id] : 0);
  const addResidual = (id: number, mass: number) => {
    if (id >= residual.length) {
      const grown = new Float64Array(Math.max(id + 1, 2 * residual.length));
      grown.set(residual);
      residual = grown;
    }
    residual[id] += mass;
  };
  let queue: number[] = [];
  let distinctTrusted = 0;
  for (const s of trusted) {
    if (residualAt(s) === 0) distinctTrusted++;
    addResidual(s, (1 - damping) / seeds.length);
    queue.push(s);
  }
  let settled = 0;
  let pending = trusted.length * ((1 - damping) / seeds.length);
  const threshold = tolerance / Math.max(1, distinctTrusted * 10);
  // A read index instead of shift() (O(queue)); the queue is compacted when half of it is read.
  for (let head = 0; head < queue.length && pending > tolerance; head++) {
    if (head >= 4096 && head * 2 >= queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    const i = queue[head];
    const r = residualAt(i);
    if (r <= threshold) continue;
    residual[i] = 0;
    settled += r;
    pending -= r;
    const degree = outDegree(i);
    if (degree === 0) continue;
    const share = (damping * r) / degree;
    for (const j of links(i)) {
      if (!isFetched(j)) continue;
      const before = residualAt(j);
      addResidual(j, share);
      pending += share;
      if (before <= threshold && before + share > threshold) queue.push(j);
    }
  }
  return settled;
}
