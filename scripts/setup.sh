#!/usr/bin/env bash
# One command from a fresh clone: install what running FlowLens needs (Graphviz; see bootstrap.sh
# --runtime), build the release binary of FlowLens (the fast one: a debug build checks about fifty
# times slower), render samples/ into output/, and say where the binary is. The tests build and use
# their own debug binary (scripts/test.sh); their tools are scripts/test.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --runtime
swift build -c release --product flowlens
flowlens=.build/release/flowlens
# samples/ holds one deliberately broken flow per rule (and unreadable files for invalid-input), so
# export exits 2 here by design; anything else above 2 (a crash) fails the set-up.
status=0
"$flowlens" export samples --output output > /dev/null || status=$?
if [ "$status" -gt 2 ]; then
  echo "setup: flowlens export failed with status $status" >&2
  exit "$status"
fi
# The review page. The picture of it in docs/review-page.md (output/review/login-flow.png) is committed: it is taken
# in headless Chromium, a test tool, by scripts/test.sh's check of this page; to take it again:
#   status=0
"$flowlens" export samples --output output/review --format html > /dev/null 2>&1 || status=$?
if [ "$status" -gt 2 ]; then
  echo "setup: flowlens export --format html failed with status $status" >&2
  exit "$status"
fi
rm -f output/review/report.json  # the same as output/report.json
# The Mermaid examples of docs/output-formats.md (output/mermaid/): Markdown pages of a few sample flows.
rm -rf output/mermaid
status=0
"$flowlens" export samples/declarative/checkout.flow.yaml samples/declarative/broken/missing-data-key.flow.yaml \
  samples/flowkit/LoginFlow.puml samples/flowkit/LoginFlowController.swift \
  --output output/mermaid --format md > /dev/null || status=$?
if [ "$status" -gt 1 ]; then
  echo "setup: flowlens export --format md failed with status $status" >&2
  exit "$status"
fi
rm -f output/mermaid/report.json
# The picture of `flowlens explain` in docs/usage.md (exit 1: the key can be missing, which is the point).
mkdir -p output/explain
status=0
"$flowlens" explain Delivery --key deliverySlot samples/declarative/broken/missing-data-key.flow.yaml \
  --diagram output/explain/Delivery-deliverySlot.svg > /dev/null || status=$?
if [ "$status" -gt 1 ]; then
  echo "setup: flowlens explain failed with status $status" >&2
  exit "$status"
fi
# The diff picture of docs/usage.md: examples/diff holds a before and an after version of the checkout flow
# (outside samples/, so they are not sample flows). The change brings a new error: exit 1 by design.
mkdir -p output/diff
status=0
"$flowlens" diff examples/diff/before examples/diff/after --output output/diff > output/diff/summary.txt 2>/dev/null || status=$?
if [ "$status" -gt 1 ]; then
  echo "setup: flowlens diff failed with status $status" >&2
  exit "$status"
fi
# The traced diagram of docs/trace.md: the shop's recorded runs (samples/runs, made by the tests' run
# generator) drawn on its checkout and onboarding flows.
mkdir -p output/traced
"$flowlens" export samples/declarative/checkout.flow.yaml samples/declarative/onboarding.flow.yml \
  --trace samples/runs/shop-events.jsonl --output output/traced > /dev/null
rm -f output/traced/report.json
echo "setup: done. Diagrams and report.json are in output/; the review page, Mermaid pages, explain, diff and traced pictures in output/review, mermaid, explain, diff and traced." >&2
echo "setup: the flowlens binary (release build) is $PWD/$flowlens" >&2
echo "setup: put it on your PATH, e.g. sudo install -m 755 $flowlens /usr/local/bin/flowlens" >&2
