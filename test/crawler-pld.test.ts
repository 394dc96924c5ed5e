import { describe, expect, it } from 'vitest';
import { buildGraph, type LinkGraph } from '../indexer/graph.ts';
import {
  allocatePldBudgets,
  inDegreeRanking,
  payLevelDomain,
  pldGraphFromHostLinks,
  pldGraphFromLinks,
  rankOrder,
  supporterRanking,
  weightedInDegreeRanking,
} from '../crawler/pay-level-domain.ts';

describe('payLevelDomain', () => {
  it.each([
    ['www.amazon.co.uk', 'amazon.co.uk'],
    ['amazon.co.uk', 'amazon.co.uk'],
    ['WWW.Example.COM.', 'example.com'],
    ['a.b.c.example.org', 'example.org'],
    ['news.bbc.co.uk', 'bbc.co.uk'],
    ['www.cs.utexas.edu', 'utexas.edu'],
    ['user.github.io', 'github.io'],
    ['x.blogspot.com', 'blogspot.com'],
    ['alpha.site.example', 'site.example'],
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['localhost', 'localhost'],
  ])('%s → %s', (host, pld) => {
    expect(payLevelDomain(host)).toBe(pld);
  });

  it('can split at private-section suffixes', () => {
    expect(payLevelDomain('a.user.github.io', { allowPrivateDomains: true })).toBe('user.github.io');
    expect(payLevelDomain('x.blogspot.com', { allowPrivateDomains: true })).toBe('x.blogspot.com');
  });
});

describe('PLD graph', () => {
  it('merges hosts into PLDs, drops links inside a PLD and duplicates', () => {
    const hosts = ['www.a.com', 'blog.a.com', 'b.co.uk', 'www.b.co.uk', 'c.org'];
    // www.a.com → blog.a.com (inside a.com), a → b twice through different hosts, b → a, c → a
    const { plds, graph, hostPld } = pldGraphFromHostLinks(hosts, [0, 0, 1, 3, 4, 4], [1, 2, 3, 0, 1, 0]);
    expect(plds).toEqual(['a.com', 'b.co.uk', 'c.org']);
    expect(Array.from(hostPld)).toEqual([0, 0, 1, 1, 2]);
    expect(graph.edgeCount).toBe(3);
    expect(Array.from(graph.outTargets.subarray(graph.outOffsets[0], graph.outOffsets[1]))).toEqual([1]);
    expect(Array.from(graph.outTargets.subarray(graph.outOffsets[1], graph.outOffsets[2]))).toEqual([0]);
    expect(Array.from(graph.outTargets.subarray(graph.outOffsets[2], graph.outOffsets[3]))).toEqual([0]);
  });

  it('builds from URL or host pairs', () => {
    const { plds, graph } = pldGraphFromLinks([
      ['http://www.x.com/page', 'https://shop.y.com/item?id=1'],
      ['http://m.x.com/', 'http://y.com/'],
      ['z.net', 'www.x.com'],
    ]);
    expect(plds).toEqual(['x.com', 'y.com', 'z.net']);
    expect(graph.edgeCount).toBe(2);
    expect(() => pldGraphFromLinks([['http://[bad/', 'x.com']])).toThrow(RangeError);
  });

  it('rejects links outside the host list', () => {
    expect(() => pldGraphFromHostLinks(['a.com'], [0], [1])).toThrow(RangeError);
  });
});

/** Edges of a small hand-made graph: 0←1, 0←2, 1←3, 2←3, 2←4, 3←5, 4←0 (a cycle through 0). */
function handGraph(): LinkGraph {
  return buildGraph(6, [1, 2, 3, 3, 4, 5, 0, 1], [0, 0, 1, 2, 2, 3, 4, 0]);
}

/** All-pairs shortest paths by BFS from every node (the reference for SUPP). */
function distances(graph: LinkGraph): Int32Array[] {
  const n = graph.nodeCount;
  return Array.from({ length: n }, (_, source) => {
    const distance = new Int32Array(n).fill(-1);
    distance[source] = 0;
    const queue = [source];
    for (let q = 0; q < queue.length; q++) {
      const i = queue[q];
      for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) {
        const t = graph.outTargets[e];
        if (distance[t] < 0) {
          distance[t] = distance[i] + 1;
          queue.push(t);
        }
      }
    }
    return distance;
  });
}

function randomGraph(n: number, edges: number, seed: number): LinkGraph {
  let state = seed;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const sources: number[] = [];
  const targets: number[] = [];
  for (let e = 0; e < edges; e++) {
    sources.push(Math.floor(next() * n));
    targets.push(Math.floor(next() * n));
  }
  return buildGraph(n, sources, targets);
}

describe('PLD rankings', () => {
  it('IN counts distinct in-neighbours', () => {
    // The duplicate 1 → 0 counts once.
    expect(Array.from(inDegreeRanking(handGraph()))).toEqual([2, 1, 2, 1, 1, 0]);
  });

  it('WIN spreads one unit from each PLD over its out-links', () => {
    const win = weightedInDegreeRanking(handGraph());
    // out-degrees: 0:1, 1:1, 2:1, 3:2, 4:1, 5:1
    expect(Array.from(win)).toEqual([2, 0.5, 1.5, 1, 1, 0]);
  });

  it('SUPP₂ counts PLDs at distance exactly two on the hand graph', () => {
    // 0: in {1,2}; two steps: 1←3, 2←3, 2←4 → {3,4}.
    // 1: in {3}; 3←5 → {5}.  2: in {3,4}; 3←5, 4←0 → {5,0}.
    // 3: in {5}; 5 has none → {}.  4: in {0}; 0←1, 0←2 → {1,2}.  5: none.
    expect(Array.from(supporterRanking(handGraph(), 2))).toEqual([2, 1, 2, 0, 2, 0]);
    expect(Array.from(supporterRanking(handGraph(), 1))).toEqual(Array.from(inDegreeRanking(handGraph())));
  });

  it('SUPP_D matches all-pairs BFS on random graphs', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const n = 5 + (seed % 25);
      const graph = randomGraph(n, n * (1 + (seed % 4)), seed);
      const d = distances(graph);
      for (const depth of [1, 2, 3]) {
        const expected = Array.from({ length: n }, (_, j) => d.filter((row, i) => i !== j && row[j] === depth).length);
        expect(Array.from(supporterRanking(graph, depth)), `seed ${seed} depth ${depth}`).toEqual(expected);
      }
    }
  });

  it('a link farm lifts IN but not SUPP₂', () => {
    // PLD 0 is linked by 10 farm PLDs (1..10) that nobody links to; PLD 11 by 3 PLDs (12..14) each
    // linked by 3 others (15..23).
    const links: Array<[number, number]> = [];
    for (let f = 1; f <= 10; f++) links.push([f, 0]);
    for (let s = 0; s < 3; s++) {
      links.push([12 + s, 11]);
      for (let t = 0; t < 3; t++) links.push([15 + 3 * s + t, 12 + s]);
    }
    const graph = buildGraph(24, links.map(([from]) => from), links.map(([, to]) => to));
    const inDegree = inDegreeRanking(graph);
    const supp2 = supporterRanking(graph);
    expect(inDegree[0]).toBeGreaterThan(inDegree[11]);
    expect(supp2[0]).toBe(0);
    expect(supp2[11]).toBe(9);
    expect(rankOrder(supp2)[0]).toBe(11);
    expect(rankOrder(inDegree)[0]).toBe(0);
  });

  it('rankOrder sorts by score, ties by id', () => {
    expect(Array.from(rankOrder([1, 3, 3, 0, 2]))).toEqual([1, 2, 4, 0, 3]);
    expect(Array.from(rankOrder(new Float64Array(0)))).toEqual([]);
  });

  it('rejects a non-positive distance', () => {
    expect(() => supporterRanking(handGraph(), 0)).toThrow(RangeError);
  });
});

describe('allocatePldBudgets', () => {
  it('gives the top R a large budget and everyone else a tiny one', () => {
    const budgets = allocatePldBudgets([5, 1, 9, 3, 7], { topR: 2, topBudget: 1000, restBudget: 10 });
    expect(Array.from(budgets)).toEqual([10, 10, 1000, 10, 1000]);
  });

  it('never puts an unsupported PLD in the top tier', () => {
    expect(Array.from(allocatePldBudgets([2, 0, 0, 1], { topR: 10, topBudget: 50, restBudget: 1 }))).toEqual([50, 1, 1, 50]);
  });

  it('breaks ties by id and validates options', () => {
    expect(Array.from(allocatePldBudgets([4, 4, 4], { topR: 2, topBudget: 9, restBudget: 0 }))).toEqual([9, 9, 0]);
    expect(() => allocatePldBudgets([1], { topR: -1, topBudget: 1, restBudget: 1 })).toThrow(RangeError);
  });

  it('works end to end on SUPP₂ of a PLD graph', () => {
    const { plds, graph } = pldGraphFromLinks([
      ['a.com', 'hub.com'],
      ['b.com', 'hub.com'],
      ['c.com', 'a.com'],
      ['d.com', 'b.com'],
      ['spam1.biz', 'spam.biz'],
      ['spam2.biz', 'spam.biz'],
      ['spam3.biz', 'spam.biz'],
    ]);
    const budgets = allocatePldBudgets(supporterRanking(graph), { topR: 1, topBudget: 100, restBudget: 2 });
    expect(plds[budgets.indexOf(100)]).toBe('hub.com');
    expect(budgets[plds.indexOf('spam.biz')]).toBe(2);
  });
});
