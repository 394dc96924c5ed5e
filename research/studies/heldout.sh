#!/usr/bin/env bash
# Held-out evaluation (research/docs/history.md, "Held-out domains"): the methods on 12 shared-graph domains that
# were NOT used to tune best's constants, chosen by a rule fixed before any held-out result was seen.
# The rule (research/scripts/heldout-domains.ts applies it and prints exactly the list below):
#   - a domain has between 500 and 5,000 pages (the 12 tuned domains have 732–3,720);
#   - it is not one of the 12 tuned domains and shares at most half of its pages with one of them or with a
#     held-out domain chosen before it;
#   - hollins: every host and every top-level directory (prefix:http://HOST/SEG), largest first
#     → prefix …/faculty (987 pages), prefix …/classes (560); www1.hollins.edu has 5,086 pages, too many;
#   - california: every host suffix (host:S, one or more labels), largest first → host:net (826), host:org (785);
#   - polblogs: its two labels are both tuned on → none;
#   - notredame: balls of radius 3 around centres drawn uniformly from the page ids with the project's PRNG
#     (indexer/seeded-random.ts, seed 6), the first 8 that pass.
# Budgets as in the issue: sites 2n extra pages in 50 iterations, topic-like domains (balls) n in 25.
# No domain is dropped after its result is seen.
# Usage: research/studies/heldout.sh [OUT_DIR]   (default research/results/heldout)
#   SELECTORS=sc,outlink …   the methods (default: the five selectors and best)
#   ESTIMATOR=checked        the final estimate of the named selectors (default supergraph)
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${LSE_GRAPHS:-../shared/data/graphs}
out=${1:-research/results/heldout}
selectors=${SELECTORS:-sc,pf,outlink,random,best}
estimator=${ESTIMATOR:-supergraph}
experiment() { node bin/run-ts.js research/experiment.ts "$@" --estimator "$estimator"; }

experiment --nodes $data/hollins.nodes.tsv.gz --edges $data/hollins.edges.tsv.gz --selectors "$selectors" \
  --domain prefix:http://www1.hollins.edu/faculty --domain prefix:http://www1.hollins.edu/classes \
  --iterations 50 --extra 2n --out "$out/hollins"
experiment --nodes $data/california.nodes.tsv.gz --edges $data/california.edges.tsv.gz --selectors "$selectors" \
  --domain host:net --domain host:org --iterations 50 --extra 2n --out "$out/california"
experiment --edges $data/notredame.edges.tsv.gz --selectors "$selectors" \
  --domain ball:176585:3 --domain ball:1479:3 --domain ball:255448:3 --domain ball:87663:3 \
  --domain ball:313259:3 --domain ball:232421:3 --domain ball:88784:3 --domain ball:214329:3 \
  --iterations 25 --extra 1n --out "$out/notredame"
