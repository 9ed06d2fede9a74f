#!/usr/bin/env bash
# Runs the whole test suite (unit, golden files, rendering, end-to-end CLI, output/ drift, schema).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --product flowlens
swift test "$@"
# Every fuzz target for a short smoke run (README "Fuzzing"): a release build with libFuzzer and
# AddressSanitizer in .build/fuzz, then FLOWLENS_FUZZ_SMOKE_SECONDS (10) seconds a target from its
# seeds and saved regressions; a crash or an input slower than 1 s fails the test command. 0 skips
# it (the saved regressions are still replayed by `swift test`).
if [ "${FLOWLENS_FUZZ_SMOKE_SECONDS:-10}" != 0 ]; then scripts/fuzz.sh --smoke "${FLOWLENS_FUZZ_SMOKE_SECONDS:-10}"; fi
# Every Mermaid diagram of the samples, rendered by the real Mermaid in headless Chromium (when
# bootstrap.sh could install chromium and mmdc's mermaid.js).
if command -v chromium >/dev/null 2>&1 && python3 -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("mmdc") else 1)'; then
  mermaid_dir=$(mktemp -d)
  trap 'rm -rf "$mermaid_dir"' EXIT
  .build/debug/flowlens export samples --output "$mermaid_dir/mmd" --format mermaid > /dev/null 2>&1 || [ $? -le 2 ]
  .build/debug/flowlens export samples --output "$mermaid_dir/md" --format md > /dev/null 2>&1 || [ $? -le 2 ]
  python3 scripts/validate-mermaid.py "$mermaid_dir" output/mermaid > "$mermaid_dir/result.txt" \
    || { grep -v '^ok ' "$mermaid_dir/result.txt"; exit 1; }
  echo "validate-mermaid: $(grep -c '^ok ' "$mermaid_dir/result.txt") diagrams render in Mermaid" >&2
fi
# The example package of the reflection API (samples/reflection): it builds FlowLens as a dependency.
swift test --package-path samples/reflection
# The SwiftPM plugins with their example package (samples/swiftpm-plugin): `swift build` runs the
# check, `swift package flowlens` runs flowlens, and a planted defect fails both.
scripts/test-swiftpm-plugin.sh
