#!/usr/bin/env bash
# Fourth validation run (docs/estimation.md, "A convex trajectory weight on SC-Select's crawl, and a fourth validation
# set"): 20 notredame balls nobody had looked at, chosen by a rule committed before any method was run on them (scripts/research/validation4-domains.ts
# applies it and prints this list): balls of radius 3 around centres drawn uniformly from the page ids with the
# project's PRNG (seed 2030), the first 20 with 500–5,000 pages sharing at most half of their pages with any of the 64
# known domains or an earlier validation4 ball. Budget n extra pages in 25 iterations. No domain is dropped after its
# result is seen.
# Usage: scripts/validation4-experiments.sh [OUT_DIR]   (default docs/results-validation4)
#   SELECTORS=sc,outlink …   the methods (default: the selectors and best); ESTIMATOR=checked … their estimate
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/graphs
out=${1:-docs/results-validation4}
selectors=${SELECTORS:-sc,pf,outlink,random,recipflow,best}
estimator=${ESTIMATOR:-supergraph}
node bin/lse.js experiment --edges $data/notredame.edges.tsv.gz --selectors "$selectors" --estimator "$estimator" \
  --domain ball:267849:3 --domain ball:202275:3 --domain ball:41612:3 --domain ball:170897:3 --domain ball:13290:3 \
  --domain ball:177303:3 --domain ball:230377:3 --domain ball:63746:3 --domain ball:251865:3 --domain ball:65442:3 \
  --domain ball:825:3 --domain ball:171497:3 --domain ball:309857:3 --domain ball:179272:3 --domain ball:252043:3 \
  --domain ball:37612:3 --domain ball:244897:3 --domain ball:256711:3 --domain ball:34761:3 --domain ball:189313:3 \
  --iterations 25 --extra 1n --out "$out/notredame"
