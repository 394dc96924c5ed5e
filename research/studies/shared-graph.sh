#!/usr/bin/env bash
# Re-runs the experiments whose results the README shows, on the graphs in ../shared/data/graphs:
# sites get 2n extra pages in 50 iterations, topic domains n pages in 25 (as in the paper).
# Usage: research/studies/shared-graph.sh [OUT_DIR]   (default research/results/shared)
#   SELECTORS=sc,outlink …   the methods (default: the five selectors and best)
#   ESTIMATOR=world          the final estimate of the selectors (default supergraph)
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${LSE_GRAPHS:-../shared/data/graphs}
out=${1:-research/results/shared}
selectors=${SELECTORS:-sc,pf,outlink,random,best,default}
estimator=${ESTIMATOR:-supergraph}
experiment() { node bin/run-ts.js research/experiment.ts "$@" --estimator "$estimator"; }

experiment --nodes $data/hollins.nodes.tsv.gz --edges $data/hollins.edges.tsv.gz --selectors "$selectors" \
  --domain host:www.hollins.edu --domain prefix:http://www1.hollins.edu/docs --domain prefix:http://www1.hollins.edu/registrar \
  --iterations 50 --extra 2n --out "$out/hollins"
experiment --nodes $data/california.nodes.tsv.gz --edges $data/california.edges.tsv.gz --selectors "$selectors" \
  --domain host:edu --domain host:gov --domain host:com --iterations 50 --extra 2n --out "$out/california"
experiment --nodes $data/polblogs.nodes.tsv.gz --edges $data/polblogs.edges.tsv.gz --selectors "$selectors" \
  --domain label:liberal --domain label:conservative --iterations 25 --extra 1n --out "$out/polblogs"
# notredame has no URLs: topic-like domains of all pages within 3 out-links of a page.
experiment --edges $data/notredame.edges.tsv.gz --selectors "$selectors" \
  --domain ball:1:3 --domain ball:29911:3 --domain ball:133599:3 --domain ball:198404:3 \
  --iterations 25 --extra 1n --out "$out/notredame"
