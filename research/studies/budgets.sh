#!/usr/bin/env bash
# The 12 shared-graph domains at other budgets than the README's, for SC-Select, OutlinkCount and best (research/docs/history.md).
# Usage: research/studies/budgets.sh OUT_DIR SITE_EXTRA SITE_ITERATIONS TOPIC_EXTRA TOPIC_ITERATIONS
#   e.g. research/results/budgets/half 1n 25 0.5n 13   and   research/results/budgets/double 4n 50 2n 50
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${LSE_GRAPHS:-../shared/data/graphs}; out=$1; s="sc,outlink,best"
experiment() { node bin/run-ts.js research/experiment.ts "$@"; }
experiment --nodes $data/hollins.nodes.tsv.gz --edges $data/hollins.edges.tsv.gz --selectors $s --domain host:www.hollins.edu --domain prefix:http://www1.hollins.edu/docs --domain prefix:http://www1.hollins.edu/registrar --iterations $3 --extra $2 --out $out/hollins
experiment --nodes $data/california.nodes.tsv.gz --edges $data/california.edges.tsv.gz --selectors $s --domain host:edu --domain host:gov --domain host:com --iterations $3 --extra $2 --out $out/california
experiment --nodes $data/polblogs.nodes.tsv.gz --edges $data/polblogs.edges.tsv.gz --selectors $s --domain label:liberal --domain label:conservative --iterations $5 --extra $4 --out $out/polblogs
experiment --edges $data/notredame.edges.tsv.gz --selectors $s --domain ball:1:3 --domain ball:29911:3 --domain ball:133599:3 --domain ball:198404:3 --iterations $5 --extra $4 --out $out/notredame
