/**
 * The supergraph's incremental parts (the CSR graph merged with the edges added since, the frontier
 * view merged with the candidates and linkers found since, pages given as one batch) against a
 * reference that recomputes everything from the pages' links each time.
 */
import { describe, expect, it } from 'vitest';
import { buildGraph, type LinkGraph } from '../indexer/graph.ts';
import { pageBatchOf, Supergraph, type FetchedPage } from '../indexer/estimation/supergraph.ts';
import { IntList, mergeEdges, sortByKey } from '../indexer/estimation/supergraph-arrays.ts';

/** A small deterministic generator (mulberry32). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function rows(graph: LinkGraph): number[][] {
  return Array.from({ length: graph.nodeCount }, (_, i) => Array.from(graph.outTargets.subarray(graph.outOffsets[i], graph.outOffsets[i + 1])));
}

/** F recomputed from scratch: pages in the order they joined, edges among them, candidates in key order with their linkers. */
class ReferenceSupergraph<K> {
  readonly pages: Array<FetchedPage<K>> = [];
  readonly unreachable = new Set<K>();
  private readonly id = new Map<K, number>();

  add(pages: ReadonlyArray<FetchedPage<K>>): void {
    for (const page of pages) {
      if (this.id.has(page.key)) continue;
      this.id.set(page.key, this.pages.length);
      this.pages.push(page);
    }
  }

  graph(): number[][] {
    return this.pages.map((page, i) => [...new Set(Array.from(page.links, (k) => this.id.get(k)).filter((t): t is number => t !== undefined && t !== i))].sort((a, b) => a - b));
  }

  frontier(): Array<{ key: K; linkers: number[] }> {
    const linkers = new Map<K, number[]>();
    this.pages.forEach((page, i) => {
      for (const key of new Set(Array.from(page.links))) {
        if (this.id.has(key) || this.unreachable.has(key)) continue;
        if (!linkers.has(key)) linkers.set(key, []);
        linkers.get(key)!.push(i);
      }
    });
    const keys = [...linkers.keys()].sort((a, b) => (typeof a === 'number' ? (a as number) - (b as number) : a < b ? -1 : a > b ? 1 : 0));
    return keys.map((key) => ({ key, linkers: linkers.get(key)! }));
  }
}

function viewOf<K>(supergraph: Supergraph<K>): Array<{ key: K; linkers: number[] }> {
  const view = supergraph.frontierView();
  return Array.from({ length: view.count }, (_, c) => ({ key: view.keyAt(c), linkers: Array.from(view.linkers.subarray(view.linkerOffsets[c], view.linkerOffsets[c + 1])) }));
}

/**
 * Random runs: batches of pages join (linking among a universe of `universe` keys, with repeats and
 * self-links), some candidates fail; after each step the graph and the frontier view are compared,
 * or only now and then, so that several batches pile up between two views.
 */
function randomRun<K>(seed: number, universe: number, keyOf: (n: number) => K, compareEvery: number) {
  const random = generator(seed);
  const numberOf = new Map<K, number>();
  const key = (n: number): K => {
    const k = keyOf(n);
    numberOf.set(k, n);
    return k;
  };
  const page = (n: number): FetchedPage<K> => ({ key: key(n), links: Array.from({ length: Math.floor(random() * 7) }, () => key(random() < 0.1 ? n : Math.floor(random() * universe))) });
  const local = Array.from({ length: 5 }, (_, i) => page(i));
  const supergraph = new Supergraph(pageBatchOf(local));
  const reference = new ReferenceSupergraph<K>();
  reference.add(local);
  const failed = new Set<number>();
  for (let step = 1; step <= 40; step++) {
    const frontier = reference.frontier();
    if (frontier.length === 0) break;
    // Some of the frontier, plus now and then a page already in F (ignored) and one nobody links to.
    const batch: Array<FetchedPage<K>> = [];
    for (let b = 0; b < 1 + Math.floor(random() * 4); b++) {
      const n = numberOf.get(frontier[Math.floor(random() * frontier.length)].key)!;
      if (!failed.has(n)) batch.push(page(n));
    }
    if (random() < 0.3) batch.push(reference.pages[0]);
    const fail = frontier.filter(() => random() < 0.05).map((c) => c.key);
    if (step % 2 === 0) {
      supergraph.addPages(batch);
    } else {
      supergraph.addPages(pageBatchOf(batch));
    }
    reference.add(batch);
    const stillOut = fail.filter((key) => supergraph.pageOf(key) === undefined);
    supergraph.markUnreachable(stillOut);
    for (const k of stillOut) {
      reference.unreachable.add(k);
      failed.add(numberOf.get(k)!);
    }
    if (step % compareEvery === 0) {
      expect(rows(supergraph.graph())).toEqual(reference.graph());
      expect(viewOf(supergraph)).toEqual(reference.frontier());
      expect(supergraph.frontierSize).toBe(reference.frontier().length);
    }
  }
  expect(supergraph.size).toBe(reference.pages.length);
  expect(rows(supergraph.graph())).toEqual(reference.graph());
  expect(viewOf(supergraph)).toEqual(reference.frontier());
  expect(supergraph.frontierView().keys).toEqual(reference.frontier().map((c) => c.key));
}

describe('Supergraph kept incrementally', () => {
  for (const compareEvery of [1, 3]) {
    it(`matches a from-scratch reference with number keys (views every ${compareEvery} steps)`, () => {
      for (let seed = 1; seed <= 15; seed++) randomRun(seed, 60, (n) => n, compareEvery);
    });
    it(`matches a from-scratch reference with URL keys (views every ${compareEvery} steps)`, () => {
      for (let seed = 100; seed <= 115; seed++) randomRun(seed, 60, (n) => `http://h${n % 3}.example/p${n}`, compareEvery);
    });
  }

  it('orders large and negative number keys as numbers too', () => {
    for (let seed = 200; seed <= 205; seed++) randomRun(seed, 60, (n) => 2 ** 45 + n, 2);
    for (let seed = 300; seed <= 305; seed++) randomRun(seed, 60, (n) => n - 30, 2);
  });

  it('adds the same pages from a batch as from one object per page', () => {
    const pages: Array<FetchedPage<string>> = [
      { key: 'a', links: ['b', 'x', 'x', 'a'] },
      { key: 'b', links: ['y', 'a'] },
    ];
    const batch = pageBatchOf(pages);
    expect(Array.from(batch.linkOffsets)).toEqual([0, 4, 6]);
    const fromObjects = new Supergraph(pages);
    const fromBatch = new Supergraph(batch);
    expect(rows(fromBatch.graph())).toEqual(rows(fromObjects.graph()));
    expect(viewOf(fromBatch)).toEqual(viewOf(fromObjects));
  });
});

describe('mergeEdges', () => {
  it('gives what buildGraph gives for all the edges at once', () => {
    const random = generator(7);
    for (let trial = 0; trial < 50; trial++) {
      const before = 1 + Math.floor(random() * 30);
      const after = before + Math.floor(random() * 10);
      const edges = (n: number, count: number) => Array.from({ length: count }, () => [Math.floor(random() * n), Math.floor(random() * n)]);
      // Old edges among the first pages; new ones anywhere (also among old pages, and repeating old ones).
      const old = edges(before, Math.floor(random() * 80));
      const added = [...edges(after, Math.floor(random() * 40)), ...old.slice(0, 3)];
      const oldGraph = buildGraph(before, old.map((e) => e[0]), old.map((e) => e[1]));
      const merged = mergeEdges(oldGraph, after, added.map((e) => e[0]), added.map((e) => e[1]), added.length);
      const all = [...old, ...added];
      const whole = buildGraph(after, all.map((e) => e[0]), all.map((e) => e[1]));
      expect(rows(merged)).toEqual(rows(whole));
      expect(merged.edgeCount).toBe(whole.edgeCount);
    }
  });

  it('refuses to shrink a graph', () => {
    expect(() => mergeEdges(buildGraph(3, [0], [1]), 2, [], [], 0)).toThrow(RangeError);
  });
});

describe('sortByKey and IntList', () => {
  it('orders slots by their keys as a comparator sort does, packed or not', () => {
    const random = generator(11);
    const cases: Array<Array<number | string>> = [
      Array.from({ length: 500 }, (_, i) => i * 7919 % 1000),
      Array.from({ length: 300 }, (_, i) => 2 ** 50 + i * 31),
      Array.from({ length: 300 }, (_, i) => i * 13 - 2000),
      Array.from({ length: 300 }, (_, i) => `http://example.org/${(i * 37) % 300}`),
      [],
    ];
    for (const keys of cases) {
      const slots = Array.from(keys.keys()).sort(() => random() - 0.5);
      const expected = [...slots].sort((a, b) => (typeof keys[a] === 'number' ? (keys[a] as number) - (keys[b] as number) : keys[a] < keys[b] ? -1 : 1));
      expect(sortByKey([...slots], keys)).toEqual(expected);
    }
  });

  it('grows as pushed and shrinks when cleared after a large batch', () => {
    const list = new IntList(2);
    for (let i = 0; i < 100_000; i++) expect(list.push(i * 3)).toBe(i);
    expect(list.length).toBe(100_000);
    expect(list.data[99_999]).toBe(299_997);
    list.clear();
    expect(list.length).toBe(0);
    expect(list.data.length).toBeLessThan(100_000);
    expect(list.push(5)).toBe(0);
  });
});
