#!/usr/bin/env bash
# Validation runs (research/docs/history.md): notredame balls nobody had looked at, chosen by a rule committed before any
# method was run on them, and run once per frozen method. Each set's rule is in research/scripts/SET-domains.ts (it
# prints the list), the lists in research/scripts/validation-cases.ts:
#   validation   seed 2027, 10 balls, disjoint enough from the 24 known domains ("The trajectory estimate");
#   validation2  seed 2028, 10 balls, from the 34 known before it ("RecipFlow with the trajectory estimate, and a
#                second validation set");
#   validation3  seed 2029, 20 balls, from the 44 known before it ("Hedged selection, a survey sample for W, and a
#                third validation set");
#   validation4  seed 2030, 20 balls, from the 64 known before it ("A convex trajectory weight on SC-Select's crawl,
#                and a fourth validation set");
#   validation5  seed 2031, 40 balls, from the 84 known before it ("The consensus trajectory estimate, and a fifth
#                validation set");
#   validation6  seed 2032, 40 balls, from the 124 known before it ("An open-domain gate, and a sixth validation
#                set");
#   validation7  seed 2033, 40 balls, from the 164 known before it ("A dense-community hedge, and a seventh
#                validation set");
#   validation8  seed 2034, 40 balls, from the 204 known before it ("How much of the no-harm half is tie order,
#                and an eighth validation set").
# The rule: balls of radius 3 around centres drawn uniformly from the page ids with the project's PRNG, the first
# ones with 500–5,000 pages sharing at most half of their pages with any known domain or an earlier ball of the set.
# Budget n extra pages in 25 iterations. No domain is dropped after its result is seen.
# Usage: SET=validation2 research/studies/validation.sh [OUT_DIR]   (SET default validation; OUT_DIR default
#   research/results/SET)
#   SELECTORS=sc,outlink …   the methods (default: the selectors and best); ESTIMATOR=checked … their estimate
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${LSE_GRAPHS:-../shared/data/graphs}
set_name=${SET:-validation}
out=${1:-research/results/$set_name}
selectors=${SELECTORS:-sc,outlink,best}
estimator=${ESTIMATOR:-supergraph}
domains=$(node bin/run-ts.js research/scripts/validation-cases.ts "$set_name")
# shellcheck disable=SC2086 # the domain arguments are split on purpose
node bin/run-ts.js research/experiment.ts --edges $data/notredame.edges.tsv.gz --selectors "$selectors" --estimator "$estimator" \
  $domains --iterations 25 --extra 1n --out "$out/notredame"
