#!/usr/bin/env bash
# All eight validation sets (validation.sh), one after the other, into research/results/validation…
# Usage: research/studies/validation-sets.sh   (SELECTORS and ESTIMATOR as in validation.sh)
set -euo pipefail
cd "$(dirname "$0")"
for set in validation validation2 validation3 validation4 validation5 validation6 validation7 validation8; do
  SET=$set bash validation.sh
done
