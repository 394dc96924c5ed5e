/**
 * How open the local domain `L` looks from the crawl (docs/estimation.md): of the
 * crawled global pages that no page of `L` links to (the crawl reached them through other outside pages), the share
 * that link back into `L`.
 *
 * Why it matters: the world estimate adds the rank the unseen web sends into `L`. That rank is new only if `L`'s
 * in-linkers get rank from somewhere other than `L`. On nearly closed domains (measured on the 124 shared-graph
 * domains) practically every in-linker is a direct neighbour of `L` that lives off `L`'s own rank: pages two steps
 * out almost never link back (a share of 0–0.3 %), SC-Select's crawl already ends close to the truth, and any
 * correction towards the world overshoots. Where the outside really sends rank in, the crawl keeps meeting pages two
 * steps out that link back (2–45 %). Where nearly every such page links back (over half), `L` sits inside a dense
 * community that the crawl itself already samples, and the correction overshoots again.
 *
 * Cost: one pass over `F`'s links, `O(|F| + links of F)`.
 */
import type { LinkGraph } from '../graph.ts';

export interface FarBackLinks {
  /** Crawled global pages that no local page links to. */
  far: number;
  /** Those of them with at least one link into `L`. */
  back: number;
}

/** {@link FarBackLinks} of a supergraph `F` (internal links) with its local pages marked. */
export function farBackLinks(graph: LinkGraph, isLocal: Uint8Array): FarBackLinks {
  const size = graph.nodeCount;
  const linkedFromLocal = new Uint8Array(size);
  for (let j = 0; j < size; j++) {
    if (!isLocal[j]) continue;
    for (let e = graph.outOffsets[j]; e < graph.outOffsets[j + 1]; e++) linkedFromLocal[graph.outTargets[e]] = 1;
  }
  let far = 0;
  let back = 0;
  for (let i = 0; i < size; i++) {
    if (isLocal[i] || linkedFromLocal[i]) continue;
    far++;
    for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) {
      if (isLocal[graph.outTargets[e]]) {
        back++;
        break;
      }
    }
  }
  return { far, back };
}

/**
 * The thresholds, chosen on the 124 domains measured before validation6 (docs/estimation.md): at least
 * `minBackLinks` far pages linking back (so that a handful of stray links does not count as evidence), and a share of
 * at least `minShare`; the estimate also requires at most `maxShare`.
 */
export const OPENNESS = { minBackLinks: 10, minShare: 0.01, maxShare: 0.5 } as const;

/** The crawl has seen enough far pages link back into `L` to call it open. */
export function looksOpen(links: FarBackLinks): boolean {
  return links.back >= OPENNESS.minBackLinks && links.back >= OPENNESS.minShare * links.far;
}

/** Open, and more than `maxShare` of the far pages link back: `L` sits inside a dense community the crawl samples. */
export function looksDense(links: FarBackLinks): boolean {
  return looksOpen(links) && links.back > OPENNESS.maxShare * links.far;
}

/** Open, but not a dense community where nearly every far page links back: the world correction applies. */
export function worldCorrectionApplies(links: FarBackLinks): boolean {
  return looksOpen(links) && !looksDense(links);
}
