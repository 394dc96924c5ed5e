#!/usr/bin/env bash
# Every study whose figures docs/estimation.md quotes, into research/results/ (ignored by git), then the tables.
# Durations on the development machine (2 shared cores): shared-graph ~2 min, held-out ~1 min,
# the eight validation sets ~14 min (research/README.md).
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
bash tables.sh
