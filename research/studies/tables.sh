#!/usr/bin/env bash
# The tables of docs/estimation.md from whatever studies have run (research/results/*).
set -euo pipefail
cd "$(dirname "$0")/../.."
for dir in research/results/shared research/results/heldout research/results/validation*; do
  [ -d "$dir" ] || continue
  echo "## $dir"
  node bin/run-ts.js research/results-table.ts "$dir"
  echo
done
