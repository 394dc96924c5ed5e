// Research (research/docs/history.md, "Two repairs measured after validation7"; both negative, neither in the product): two
// ways of using the crawl's history for balls such as 53991:3, where the gated estimate confirmed the correction early
// and the crawl then stopped moving along it.
// - sustained: best's crawl; λ read at several points of the crawl (each the consensus weight of the crawl as it was
//   then, replayed from its first pages) and λ the median of the readings, behind the gate.
// - reactive: best's selection, but in the open state half of an iteration from SC-Select (or all of it) while the
//   consensus weight of the crawl so far is below T; gated estimate.
// Usage: SET=validation7 SHARD=0 SHARDS=2 node bin/run-ts.js research/scripts/history-repairs.ts sustained|reactive
//   prints one row per domain; node bin/run-ts.js research/scripts/measured-sets.ts FILE… summarises the rows.
import { BEST_METHOD, estimateOverSupergraph } from '../../indexer/estimation/estimators.ts';
import { knownGraphSource, pageOfGraph } from '../../indexer/estimation/experiment.ts';
import { CONSENSUS_TRAJECTORY, frontierWorldModel, frontierWorldRank, moveTowardsWorld, TRAJECTORY_WORLD_SCALE, trajectoryWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { farBackLinks, looksDense, looksOpen, worldCorrectionApplies } from '../../indexer/estimation/openness.ts';
import { relativeReciprocalFlowSelector } from '../../indexer/estimation/reciprocal-flow.ts';
import { combinedSelection, type PageSelector } from '../../indexer/estimation/selection.ts';
import { createResearchSelector as createSelector } from '../estimation/methods.ts';
import { Supergraph } from '../../indexer/estimation/supergraph.ts';
import { l1Distance, median, restrictAndNormalise } from '../../indexer/metrics.ts';
import { pageRank } from '../../indexer/pagerank.ts';
import { committedScL1, crawlMeasured, measuredCases, measuredRow, printRow } from './measured-sets.ts';
import { researchDomains, type ResearchDomain } from './shared-domains.ts';

const ALPHA = 0.85;
/** The estimators' tolerance (estimateOverSupergraph). */
const TOLERANCE = 1e-10;
/** The points of the crawl λ is read at, as shares of the crawled pages. */
const READINGS: Record<string, readonly number[]> = {
  '1/4 1/2 3/4 1': [0.25, 0.5, 0.75, 1],
  '1/3 2/3 1': [1 / 3, 2 / 3, 1],
  '1/2 1': [0.5, 1],
  '1/4 3/8 … 1': [0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1],
  '1/8 1/4 … 1': [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1],
};
/** Reactive hedges: below which consensus weight the open state takes SC-Select's pages, and how many (names without `=`: printRow's separator). */
const HEDGES = [
  { name: 'T 0', below: (w: number) => w === 0, all: false },
  { name: 'T 0.05', below: (w: number) => w < 0.05, all: false },
  { name: 'T 0.1', below: (w: number) => w < 0.1, all: false },
  { name: 'T 0.2', below: (w: number) => w < 0.2, all: false },
  { name: 'T 0.1, all SC-Select', below: (w: number) => w < 0.1, all: true },
];

type Domain = ResearchDomain<ReturnType<typeof measuredCases>[number]>;

async function sustained(domain: Domain, scL1: Map<string, number>): Promise<void> {
  const L = domain.localIndices;
  const run = await crawlMeasured(domain, createSelector(BEST_METHOD.selector));
  const sg = run.supergraph;
  const finalL1 = (estimate: Float64Array) => l1Distance(estimate, domain.target);
  const row = measuredRow(domain, scL1);
  row.values.gated = finalL1(restrictAndNormalise(estimateOverSupergraph('gated', sg, run.rank), L));
  const now = restrictAndNormalise(run.rank, L);
  const open = worldCorrectionApplies(farBackLinks(sg.graph(), sg.localMask()));
  const world = open ? restrictAndNormalise(frontierWorldRank(frontierWorldModel(sg), { alpha: ALPHA, tolerance: TOLERANCE, scale: TRAJECTORY_WORLD_SCALE }), L) : now;
  const crawled = sg.size - sg.localCount;
  const readings = new Map<number, number>();
  /** The consensus weight of the crawl when it had its first `pages` crawled pages, replayed in crawl order. */
  const readAt = async (pages: number): Promise<number> => {
    if (readings.has(pages)) return readings.get(pages)!;
    let weight: number;
    if (pages === crawled) {
      weight = trajectoryWorldRank(sg, run.rank, { alpha: ALPHA, tolerance: TOLERANCE, ...CONSENSUS_TRAJECTORY }).weight;
    } else {
      const then = new Supergraph(Array.from(domain.pages, (p) => pageOfGraph(domain.web.graph, p)));
      const keys = Array.from({ length: pages }, (_, i) => sg.keyOf(sg.localCount + i));
      then.addPages(await knownGraphSource(domain.web.graph).fetchPages(keys));
      const rank = pageRank(then.graph(), { alpha: ALPHA, tolerance: TOLERANCE }).rank;
      weight = trajectoryWorldRank(then, rank, { alpha: ALPHA, tolerance: TOLERANCE, ...CONSENSUS_TRAJECTORY }).weight;
    }
    readings.set(pages, weight);
    return weight;
  };
  for (const [name, shares] of Object.entries(READINGS)) {
    if (!open) {
      row.values[name] = finalL1(now);
      continue;
    }
    const weights: number[] = [];
    for (const share of shares) weights.push(await readAt(Math.floor(share * crawled)));
    row.values[name] = finalL1(moveTowardsWorld(now, world, median(weights)));
  }
  printRow(row);
}

async function reactive(domain: Domain, scL1: Map<string, number>): Promise<void> {
  const row = measuredRow(domain, scL1);
  const sc = createSelector('sc');
  for (const hedge of HEDGES) {
    // The consensus weight of the crawl after the last iteration, read only while the domain looks open, not dense.
    let weight = 1;
    const selector: PageSelector = {
      name: 'reactive',
      select(input, k) {
        const links = farBackLinks(input.graph, input.isLocal);
        const halfAndHalf = () => combinedSelection(input, k, sc, relativeReciprocalFlowSelector, Math.round(k / 2));
        if (!looksOpen(links)) return sc.select(input, k);
        if (looksDense(links)) return halfAndHalf();
        if (hedge.below(weight)) return hedge.all ? sc.select(input, k) : halfAndHalf();
        return relativeReciprocalFlowSelector.select(input, k);
      },
    };
    const run = await crawlMeasured(domain, selector, ({ supergraph, rank }) => {
      const applies = worldCorrectionApplies(farBackLinks(supergraph.graph(), supergraph.localMask()));
      weight = applies ? trajectoryWorldRank(supergraph, rank, { tolerance: 1e-8, ...CONSENSUS_TRAJECTORY }).weight : 1;
    });
    row.values[hedge.name] = l1Distance(restrictAndNormalise(estimateOverSupergraph('gated', run.supergraph, run.rank), domain.localIndices), domain.target);
  }
  printRow(row);
}

const mode = process.argv[2];
if (mode !== 'sustained' && mode !== 'reactive') {
  console.error('usage: node bin/run-ts.js research/scripts/history-repairs.ts sustained|reactive   (SET, SHARD, SHARDS as measured-sets.ts)');
  process.exit(2);
}
const scL1 = committedScL1();
for (const domain of researchDomains(measuredCases())) await (mode === 'sustained' ? sustained : reactive)(domain, scL1);
