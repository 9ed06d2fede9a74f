#!/usr/bin/env bash
# Measures, in one run, the first `swift build` of an app package that checks its flows with FlowLens's
# SwiftPM plugins: examples/swiftpm-plugin (the plugins built from source: FlowLens and swift-syntax are
# compiled first) and examples/swiftpm-binary-plugin (the binary plugins on a release artifact bundle).
# Each build is cold: a fresh, empty scratch path (dependencies are cloned from SwiftPM's shared
# repository cache, ~/.cache/org.swift.swiftpm, not from the network when it has them). The release
# bundle is built between them and not timed (it is built once, for a release). Prints seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
measure() {  # name package-path
  local start end
  start=$(date +%s.%N)
  swift build --package-path "$2" --scratch-path "$work/$1" >"$work/$1.log" 2>&1 || { cat "$work/$1.log" >&2; echo "measure: swift build of $2 failed" >&2; exit 1; }
  end=$(date +%s.%N)
  grep -q "0 errors, 0 warnings in 1 flow (2 files)" "$work/$1.log" || { cat "$work/$1.log" >&2; echo "measure: $2's build did not run the check" >&2; exit 1; }
  printf '%s: first swift build %.1f s\n' "$1" "$(echo "$end - $start" | bc)"
}
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
measure source-plugin examples/swiftpm-plugin
scripts/make-artifact-bundle.sh
ldd FlowLensPlugins/FlowLensBinary.artifactbundle/*/bin/flowlens | sed 's/^/binary needs: /'
echo "machine: load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
measure binary-plugin examples/swiftpm-binary-plugin
