#!/usr/bin/env bash
# Third validation run (docs/estimation.md, "Hedged selection, and a third validation set"): 20 notredame balls nobody
# had looked at, chosen by a rule committed before any method was run on them (scripts/research/validation3-domains.ts
# applies it and prints this list): balls of radius 3 around centres drawn uniformly from the page ids with the
# project's PRNG (seed 2029), the first 20 with 500–5,000 pages sharing at most half of their pages with any of the 44
# known domains or an earlier validation3 ball. Budget n extra pages in 25 iterations. No domain is dropped after its
# result is seen.
# Usage: scripts/validation3-experiments.sh [OUT_DIR]   (default docs/results-validation3)
#   SELECTORS=sc,outlink …   the methods (default: the selectors and best); ESTIMATOR=checked … their estimate
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/graphs
out=${1:-docs/results-validation3}
selectors=${SELECTORS:-sc,pf,outlink,random,recipflow,best}
estimator=${ESTIMATOR:-supergraph}
node bin/lse.js experiment --edges $data/notredame.edges.tsv.gz --selectors "$selectors" --estimator "$estimator" \
  --domain ball:257700:3 --domain ball:225285:3 --domain ball:177630:3 --domain ball:228520:3 --domain ball:1160:3 \
  --domain ball:215584:3 --domain ball:246972:3 --domain ball:121432:3 --domain ball:286296:3 --domain ball:47246:3 \
  --domain ball:35158:3 --domain ball:78327:3 --domain ball:1216:3 --domain ball:178050:3 --domain ball:69569:3 \
  --domain ball:256108:3 --domain ball:270002:3 --domain ball:251759:3 --domain ball:244511:3 --domain ball:252877:3 \
  --iterations 25 --extra 1n --out "$out/notredame"
