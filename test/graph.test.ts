import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildGraph, graphFromAdjacency, GraphError, inDegrees, inducedSubgraph, inLinks, outDegrees, outLinkBall } from '../indexer/graph.ts';
import { loadWebGraph, readPageVector } from '../indexer/graph-files.ts';
import { randomEdgeList } from './helpers/random-graphs.ts';

const rowsOf = (g: ReturnType<typeof buildGraph>) =>
  Array.from({ length: g.nodeCount }, (_, i) => Array.from(g.outTargets.subarray(g.outOffsets[i], g.outOffsets[i + 1])));

describe('buildGraph', () => {
  it('drops self-links and duplicates and sorts every row', () => {
    const g = buildGraph(4, [0, 0, 0, 1, 1, 2, 3], [2, 1, 2, 1, 3, 0, 0]);
    expect(rowsOf(g)).toEqual([[1, 2], [3], [0], [0]]);
    expect(g.edgeCount).toBe(5);
    expect(Array.from(outDegrees(g))).toEqual([2, 1, 1, 1]);
    expect(Array.from(inDegrees(g))).toEqual([2, 1, 1, 1]);
  });

  it('rejects edges outside the page range', () => {
    expect(() => buildGraph(2, [0], [2])).toThrow(GraphError);
    expect(() => buildGraph(2, [-1], [0])).toThrow(GraphError);
  });

  it('agrees with a set-based reference on random graphs, and graphFromAdjacency agrees with it', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const list = randomEdgeList(seed, 30, 0.15);
      const g = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
      const expected = Array.from({ length: list.pages }, (_, i) =>
        [...new Set(list.edges.filter(([a, b]) => a === i && b !== i).map(([, b]) => b))].sort((a, b) => a - b),
      );
      expect(rowsOf(g)).toEqual(expected);
      const adjacency = Array.from({ length: list.pages }, (_, i) => list.edges.filter(([a]) => a === i).map(([, b]) => b));
      expect(rowsOf(graphFromAdjacency(adjacency))).toEqual(expected);
    }
  });
});

describe('inLinks', () => {
  it('is the transpose, with sorted sources', () => {
    const list = randomEdgeList(7, 40, 0.1);
    const g = buildGraph(list.pages, list.edges.map((e) => e[0]), list.edges.map((e) => e[1]));
    const { offsets, sources } = inLinks(g);
    for (let j = 0; j < g.nodeCount; j++) {
      const expected = rowsOf(g).flatMap((row, i) => (row.includes(j) ? [i] : []));
      expect(Array.from(sources.subarray(offsets[j], offsets[j + 1]))).toEqual(expected);
    }
    expect(inLinks(g)).toBe(inLinks(g));
  });
});

describe('subgraphs', () => {
  const g = buildGraph(6, [0, 0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0, 0]);
  it('inducedSubgraph keeps the links among the chosen pages, renumbered in the given order', () => {
    const sub = inducedSubgraph(g, [4, 0, 2]);
    expect(rowsOf(sub)).toEqual([[1], [2], [0]]);
  });
  it('outLinkBall collects pages within R out-links, breadth first', () => {
    expect(Array.from(outLinkBall(g, 0, 0))).toEqual([0]);
    expect(Array.from(outLinkBall(g, 0, 1))).toEqual([0, 1, 2]);
    expect(Array.from(outLinkBall(g, 0, 2)).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(() => outLinkBall(g, 9, 1)).toThrow(GraphError);
  });
});

describe('graph files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lse-graph-'));
  it('reads a gzip nodes file and a plain edge list with comments, self-links and repeats', () => {
    writeFileSync(join(dir, 'n.tsv.gz'), gzipSync('1\thttp://a.example/\ta.example\tred\n2\thttp://b.example/x\tb.example\n3\thttp://a.example/y\ta.example\tblue\n'));
    writeFileSync(join(dir, 'e.tsv'), '# a comment\n1\t2\n2 3\n3\t3\n1\t2\n\n');
    const web = loadWebGraph({ nodes: join(dir, 'n.tsv.gz'), edges: join(dir, 'e.tsv') });
    expect(web.graph.nodeCount).toBe(3);
    expect(web.graph.edgeCount).toBe(2);
    expect(web.urls).toEqual(['http://a.example/', 'http://b.example/x', 'http://a.example/y']);
    expect(web.labels).toEqual(['red', '', 'blue']);
    expect(Array.from(web.ids)).toEqual([1, 2, 3]);
  });

  it('without a nodes file numbers the ids found in ascending order and skips malformed lines', () => {
    writeFileSync(join(dir, 'snap.txt'), '# Directed graph\n# FromNodeId\tToNodeId\n10 30\n30 20\nfoo bar\n20 10\n');
    const web = loadWebGraph({ edges: join(dir, 'snap.txt') });
    expect(Array.from(web.ids)).toEqual([10, 20, 30]);
    expect(rowsOf(web.graph)).toEqual([[2], [0], [1]]);
    expect(web.skippedLines).toBe(1);
  });

  it('reads a vector keyed by id, and says which page lacks a value', () => {
    writeFileSync(join(dir, 'pr.tsv'), 'id\tpagerank\n30\t0.5\n10\t0.25\n20\t0.25\n');
    const web = loadWebGraph({ edges: join(dir, 'snap.txt') });
    expect(Array.from(readPageVector(join(dir, 'pr.tsv'), web))).toEqual([0.25, 0.25, 0.5]);
    writeFileSync(join(dir, 'short.tsv'), '10\t1\n');
    expect(() => readPageVector(join(dir, 'short.tsv'), web)).toThrow(/no value for page id 20/);
  });

  it('names the file it cannot read, and edges to unknown ids', () => {
    expect(() => loadWebGraph({ edges: join(dir, 'missing.tsv') })).toThrow(/cannot read .*missing\.tsv: ENOENT/);
    writeFileSync(join(dir, 'bad-e.tsv'), '1\t9\n');
    expect(() => loadWebGraph({ nodes: join(dir, 'n.tsv.gz'), edges: join(dir, 'bad-e.tsv') })).toThrow(/not in/);
  });
});
