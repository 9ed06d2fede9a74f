#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build FlowLens, render samples/ into output/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --product flowlens
# samples/ holds one deliberately broken flow per rule (and unreadable files for invalid-input), so
# export exits 2 here by design; anything else above 2 (a crash) fails the set-up.
status=0
.build/debug/flowlens export samples --output output > /dev/null || status=$?
if [ "$status" -gt 2 ]; then
  echo "setup: flowlens export failed with status $status" >&2
  exit "$status"
fi
# The README's diff picture: examples/diff holds a before and an after version of the checkout flow
# (outside samples/, so they are not sample flows). The change brings a new error: exit 1 by design.
mkdir -p output/diff
status=0
.build/debug/flowlens diff examples/diff/before examples/diff/after --output output/diff > output/diff/summary.txt 2>/dev/null || status=$?
if [ "$status" -gt 1 ]; then
  echo "setup: flowlens diff failed with status $status" >&2
  exit "$status"
fi
echo "setup: done. Diagrams and report.json are in output/; run scripts/test.sh to run the tests." >&2
