#!/usr/bin/env bash
# Every study whose figures docs/estimation.md quotes, into research/results/ (ignored by git), then the tables.
# Durations on one core of the development machine: shared-graph ~25 min, held-out ~20 min,
# the eight validation sets ~3 h (see research/README.md).
# Usage: research/studies/all.sh   (LSE_GRAPHS=DIR if the reference graphs are not in ../shared/data/graphs)
set -euo pipefail
cd "$(dirname "$0")"
timed() {
  local started=$SECONDS
  "$@"
  echo "== $* took $((SECONDS - started)) s" >&2
}
timed bash shared-graph.sh
timed bash heldout.sh
timed bash validation-sets.sh
cd ../..
node bin/run-ts.js research/results-table.ts research/results/shared
node bin/run-ts.js research/results-table.ts research/results/heldout
