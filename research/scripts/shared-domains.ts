/**
 * The shared-graph domains the research scripts iterate over (research/docs/history.md): each graph
 * loaded once with its true PageRank, then each domain with its pages and its true global
 * PageRank restricted to them and renormalised.
 */
import { resolveDomain } from '../../indexer/estimation/domain.ts';
import { loadWebGraph, type WebGraph } from '../../indexer/graph-files.ts';
import { restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank } from '../../indexer/pagerank.ts';

export const SHARED_GRAPHS = '../shared/data/graphs';

/** A graph of ../shared/data/graphs and some of its domains (plus what a script needs of them). */
export interface GraphCase {
  g: string;
  nodes: boolean;
  domains: readonly string[];
}

export interface ResearchDomain<C extends GraphCase> {
  graphCase: C;
  spec: string;
  web: WebGraph;
  /** Global ids of the domain's pages. */
  pages: Int32Array;
  /** The true global PageRank of the whole graph (shared by the graph's domains). */
  truth: Float64Array;
  /** The true global PageRank restricted to the pages, renormalised. */
  target: Float64Array;
  /** 0 … |L|−1: the local pages' positions in a supergraph (they come first). */
  localIndices: Int32Array;
}

export function* researchDomains<C extends GraphCase>(cases: readonly C[]): Generator<ResearchDomain<C>> {
  for (const graphCase of cases) {
    const web = loadWebGraph({ edges: `${SHARED_GRAPHS}/${graphCase.g}.edges.tsv.gz`, nodes: graphCase.nodes ? `${SHARED_GRAPHS}/${graphCase.g}.nodes.tsv.gz` : undefined });
    const truth = pageRank(web.graph, { alpha: 0.85, tolerance: 1e-10, maxIterations: 10000 }).rank;
    for (const spec of graphCase.domains) {
      const pages = resolveDomain(spec, web);
      yield { graphCase, spec, web, pages, truth, target: restrictAndNormalise(truth, pages), localIndices: Int32Array.from({ length: pages.length }, (_, i) => i) };
    }
  }
}
