#!/usr/bin/env bash
# Second validation run (docs/estimation.md, "RecipFlow with the trajectory estimate, and a second validation set"):
# 10 notredame balls nobody had looked at, chosen by a rule committed before any method was run on them
# (scripts/research/validation2-domains.ts applies it and prints this list): balls of radius 3 around centres drawn
# uniformly from the page ids with the project's PRNG (seed 2028), the first 10 with 500–5,000 pages sharing at most
# half of their pages with any of the 34 known domains (12 tuned, 12 held-out, 10 validation) or an earlier
# validation2 ball. Budget n extra pages in 25 iterations. No domain is dropped after its result is seen.
# Usage: scripts/validation2-experiments.sh [OUT_DIR]   (default docs/results-validation2)
#   SELECTORS=sc,outlink …   the methods (default: the selectors and best); ESTIMATOR=checked … their estimate
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/graphs
out=${1:-docs/results-validation2}
selectors=${SELECTORS:-sc,pf,outlink,random,recipflow,best}
estimator=${ESTIMATOR:-supergraph}
node bin/lse.js experiment --edges $data/notredame.edges.tsv.gz --selectors "$selectors" --estimator "$estimator" \
  --domain ball:292971:3 --domain ball:143184:3 --domain ball:235297:3 --domain ball:259462:3 --domain ball:207943:3 \
  --domain ball:182989:3 --domain ball:22941:3 --domain ball:155127:3 --domain ball:27470:3 --domain ball:94927:3 \
  --iterations 25 --extra 1n --out "$out/notredame"
