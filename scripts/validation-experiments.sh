#!/usr/bin/env bash
# Validation run (docs/estimation.md, "Selection for the inflow"): 10 notredame balls nobody had looked at, chosen by a
# rule fixed before any method was run on them (scripts/research/validation-domains.ts applies it and prints this list):
# balls of radius 3 around centres drawn uniformly from the page ids with the project's PRNG (seed 2027), the first 10
# with 500–5,000 pages sharing at most half of their pages with any of the 24 known domains or an earlier validation
# ball. Budget n extra pages in 25 iterations. No domain is dropped after its result is seen.
# Usage: scripts/validation-experiments.sh [OUT_DIR]   (default docs/results-validation)
#   SELECTORS=sc,outlink …   the methods (default: the selectors and best); ESTIMATOR=checked … their estimate
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/graphs
out=${1:-docs/results-validation}
selectors=${SELECTORS:-sc,pf,outlink,random,recipflow,best}
estimator=${ESTIMATOR:-supergraph}
node bin/lse.js experiment --edges $data/notredame.edges.tsv.gz --selectors "$selectors" --estimator "$estimator" \
  --domain ball:224290:3 --domain ball:198699:3 --domain ball:62521:3 --domain ball:231499:3 --domain ball:200100:3 \
  --domain ball:259772:3 --domain ball:253776:3 --domain ball:265087:3 --domain ball:160590:3 --domain ball:84495:3 \
  --iterations 25 --extra 1n --out "$out/notredame"
