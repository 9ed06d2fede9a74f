#!/usr/bin/env bash
# A differential campaign (docs/semantics.md): PROGRAMS generated flows from FIRST-SEED, each run over
# every choice and order in FlowSemantics's model and compared with `check`. Prints each disagreement
# shrunk (the first five), then the count; exits 1 on any.
#
#   scripts/differential.sh [PROGRAMS] [FIRST-SEED]      (defaults: 100000 1)
set -euo pipefail
cd "$(dirname "$0")/.."
programs=${1:-100000}
seed=${2:-1}
swift build --build-tests >/dev/null
FLOWLENS_DIFFERENTIAL_PROGRAMS=$programs FLOWLENS_DIFFERENTIAL_SEED=$seed \
  swift test --skip-build --filter DeclarativeDifferentialTests 2>&1 | grep -v '^↳ ///'
