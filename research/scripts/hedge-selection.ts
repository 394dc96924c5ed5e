// Research (research/docs/history.md, "Hedged selection, a survey sample for W, and a third validation set"): RecipFlow with a
// share of every iteration's pages taken from a second selector's ranking instead (SC-Select, OutlinkCount, PF-Select),
// paired with the checked estimate, on the 44 known domains (tuned, held-out, validation, validation2) or SET=validation3
// / validation4, at the budgets. SC-Select's final L1 per domain is read from the committed results. Domains
// run in SHARDS processes (SHARD=i of SHARDS=n, default 0 of 1).
// Usage: node bin/run-ts.js research/scripts/hedge-selection.ts VARIANT…   VARIANT = SELECTION[/ESTIMATOR], SELECTION =
//   a selector name (recipflow, sc, …) | SECOND:SHARE (e.g. sc:0.25 = a quarter of each iteration's pages from
//   SC-Select's top, the rest from RecipFlow's); ESTIMATOR = checked (default) | supergraph | world | trajectory
import { researchDomains } from './shared-domains.ts';
import { committedScL1, crawlMeasured, measuredCases, printRow, printSummary, measuredRow, type MeasuredRow } from './measured-sets.ts';
import { l1Distance, restrictAndNormalise } from '../../indexer/metrics.ts';
import { frontierWorldModel, frontierWorldRank } from '../../indexer/estimation/frontier-world.ts';
import { checkedWorldRank } from '../estimation/checked-world.ts';
import { estimateByName, type AnyEstimatorName } from '../estimation/methods.ts';
import { researchSelector } from './hedged-selector.ts';

const sc = committedScL1();
const names = process.argv.slice(2);
const rows: MeasuredRow[] = [];
for (const domain of researchDomains(measuredCases())) {
  const { target, localIndices: L } = domain;
  const row = measuredRow(domain, sc);
  for (const name of names) {
    const run = await crawlMeasured(domain, researchSelector(name.split('/')[0]));
    const estimator = (name.split('/')[1] ?? 'checked') as AnyEstimatorName;
    const checked = estimator === 'checked' ? checkedWorldRank(run.supergraph, run.rank, { tolerance: 1e-8 }) : undefined;
    row.values[name] = l1Distance(restrictAndNormalise(checked ? checked.rank : estimateByName(estimator, run.supergraph, run.rank), L), target);
    // E: the frontier emptied; W / S: the check chose the world / supergraph estimate. DIAG=1 adds the supergraph and
    // world estimates' L1 and the check's cosine and realised share (research/docs/history.md).
    const flag = run.supergraph.frontierSize === 0 ? 'E' : checked ? (checked.useWorld ? 'W' : 'S') : '';
    const diag =
      process.env.DIAG && checked
        ? ` sg ${l1Distance(restrictAndNormalise(run.rank, L), target).toFixed(4)} w ${l1Distance(restrictAndNormalise(frontierWorldRank(frontierWorldModel(run.supergraph), { tolerance: 1e-8, scale: 0.75 }), L), target).toFixed(4)} cos ${checked.cosine.toFixed(2)} re ${checked.realised.toFixed(3)}`
        : '';
    if (flag || diag) row.notes![name] = `${flag}${diag}`;
  }
  printRow(row);
  rows.push(row);
}
printSummary(rows);
